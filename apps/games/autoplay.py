"""The server's bots: they play the seats of bots and of absent players handed to the bot.

``play_bots`` is the bot task's one service (``apps.games.tasks.play_bots``): one transaction per move,
each through the move pipeline (``pipeline.apply``), on the game locked by ``store.lock_game``. Seats
that do not wait for plucking windows pass them here too when nothing else is left to do.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from baogame.celery import BACKGROUND
from baogame.rules.core import RuleError
from baogame.rules.registry import get_engine

from . import bot_moves, pipeline, scheduling
from .models import Game, Seat
from .store import LockedGame, lock_game

log = logging.getLogger(__name__)

#: Moves one bot task makes before it hands its game to a fresh task, so other games get their turn.
BOT_MOVES_PER_TASK = 200


def play_bots(game_id: int, version: int | None = None) -> int:
    """Let the server-played seats answer their open decisions, one transaction per move.

    ``version`` is the one the bot task carries: when the game's marker (``Game.bot_task``) holds
    another, a newer task plays the game (or nothing is left to play) and this one does nothing. Each
    move advances the marker, so of two tasks only the one that moved goes on; the marker is cleared
    when no bot has anything left to do. Bots see only their own ``view()``. Seats that do not wait for
    plucking windows (the switch, or away on vacation) pass them. Returns the number of moves made.
    """
    made = 0
    while True:
        with transaction.atomic():
            try:
                locked = lock_game(game_id)
            except Game.DoesNotExist:
                return made
            game = locked.game
            if version is not None and game.bot_task != version:
                return made  # stale
            locked.bot_loop = True
            if game.status == Game.Status.ACTIVE:
                pipeline.settle(locked, timezone.now())
            choice = _bot_choice(locked) if game.status == Game.Status.ACTIVE else None
            if choice is None:
                if game.bot_task is not None:
                    Game.objects.filter(pk=game.pk).update(bot_task=None)
                return made
            if made >= BOT_MOVES_PER_TASK:
                marker = game.bot_task if game.bot_task is not None else game.version
                Game.objects.filter(pk=game.pk).update(bot_task=marker)
                scheduling.queue_bots_continue(
                    game_id=game.pk, version=marker, queue=scheduling.bot_queue(locked.seats)
                )
                return made
            seat, action = choice
            try:
                pipeline.apply(locked, seat, action, by_bot=True)
            except RuleError as exc:  # a bot bug must not stall the game: fall back to the default
                log.warning(
                    "bot %s in game %s refused (%s); applying the default", seat.bot, game.pk, exc.code
                )
                fallback = get_engine(game.engine).timeout_action(locked.state, seat.position)
                if fallback is None:
                    Game.objects.filter(pk=game.pk).update(bot_task=None)
                    return made
                pipeline.apply(locked, seat, fallback, by_timeout=True, by_bot=True)
            version = game.bot_task
            made += 1
            background = scheduling.bot_queue(locked.seats) == BACKGROUND
        if background and settings.GAMES_BACKGROUND_BOT_PAUSE > 0:
            # Outside the transaction: on SQLite (one writer at a time) a loop that takes the write lock
            # again at once starves the moves of games where people wait (``make run``'s demo league).
            time.sleep(settings.GAMES_BACKGROUND_BOT_PAUSE)


def _bot_choice(locked: LockedGame) -> tuple[Seat, dict[str, Any]] | None:
    """The first server-played seat's move, or a window pass for a seat that does not wait for it."""
    game = locked.game
    engine = get_engine(game.engine)
    for decision in engine.pending(locked.state):
        for position in decision["seats"]:
            seat = locked.seats[position]
            if seat.played_by_bot:
                return seat, bot_moves.bot_action(locked, seat)
            if pipeline.passes_windows(seat) and pipeline.passable_window(decision):
                return seat, {"type": "pass", "decision_id": decision["decision_id"]}
    return None
