"""Games played through the real pipeline: a move made on the page, and games played to their end
(bots, deadlines and automatic passes)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User

from apps.games import autoplay, clock, lifecycle, pipeline
from apps.games.models import Decision, Game, Seat
from baogame.rules.registry import get_bots, get_engine

#: Deadlines passed in a test's loop before it gives up (a game that never ends is a bug to report).
MAX_ROUNDS = 2000


def play_on_the_page(game: Game, user: Any, capture: Any, rng: random.Random) -> None:
    """``user`` makes their open decision on the page (the default bot's choice); the move's tasks run
    (``capture`` is pytest-django's ``django_capture_on_commit_callbacks``)."""
    game.refresh_from_db()
    engine = get_engine(game.engine)
    seat = game.seats.get(user=user).position
    bots, default = get_bots(game.engine)
    action = bots[default](engine.view(game.state, seat), rng)
    with capture(execute=True):
        pipeline.submit_action(game_id=game.pk, user=user, action=action)


def a_seeded_game(
    *, engine: str, players: int, user: User, seed: str, options: dict[str, Any] | None = None, **kwargs: Any
) -> Game:
    """A started game with ``user`` in seat 0 and bots elsewhere, dealt from ``seed`` (so it replays)."""
    game = lifecycle.game_create(
        creator=user, engine=engine, players=players, options=options, bots=players - 2, **kwargs
    )
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_hash=hashlib.sha256(seed.encode()).hexdigest())
    lifecycle.seat_fill_bot(game_id=game.pk, user=user, position=1)
    game.refresh_from_db()
    return game


def play_to_the_end(game: Game, each_round: Callable[[Game], None] | None = None) -> Game:
    """Let the bots play and time out every other seat's decisions until the game is over.

    Everything goes through the service: ``play_bots`` for bot seats (and a seat the bot took over
    after repeated timeouts), ``settle_due`` for the deadlines, automatic passes for seats that do not
    wait for plucking windows. ``each_round`` sees the game before each round of play and at the end.
    """
    for _ in range(MAX_ROUNDS):
        game.refresh_from_db()
        if each_round is not None:
            each_round(game)
        if game.status != Game.Status.ACTIVE:
            return game
        if autoplay.play_bots(game.pk):
            continue
        Decision.objects.filter(game=game).update(deadline=game.started_at)
        clock.settle_game(game.pk)
    raise AssertionError(f"game {game.pk} did not end")


def a_finished_baobei_game(user: User, *, seed: str = "replay-2") -> Game:
    """3 seats, threshold 1 (one round), ``user`` in seat 0: a person who does not wait for plucking
    windows (automatic passes) and lets every other decision time out until the bot takes the seat."""
    game = a_seeded_game(engine="baobei", players=3, user=user, seed=seed, options={"threshold": 1})
    Seat.objects.filter(game=game, position=0).update(skip_pluck_windows=True)
    return play_to_the_end(game)
