"""The demo league's finished tables (``manage.py seed_demo_league``): played to the end by the house bot
accounts as API clients would play them (their answers count in the reliability record), then one
result confirmed by the organiser and one left provisional."""

from __future__ import annotations

import random

from django.contrib.auth.models import User

from apps.games import pipeline as game_pipeline
from apps.games import selectors as game_selectors
from apps.games.models import Game
from apps.notifications import outbox
from baogame.rules.registry import get_bots, get_engine

from . import confirmation, results
from .models import Fixture, League

MAX_MOVES = 5000


def play_as_api_bots(game_id: int) -> None:
    """Every seat's account answers its open decisions with the engine's default bot, from its own view.

    This is demo history, played before anyone looks: nobody is mailed about it (``outbox.muted``), so
    ``make run`` does not start with hundreds of mail tasks queued ahead of a new game's bots.
    """
    with outbox.muted():
        _play(game_id)


def _play(game_id: int) -> None:
    for _ in range(MAX_MOVES):
        game = game_selectors.game_get(game_id)
        if game is None or game.status != Game.Status.ACTIVE or game.state is None:
            return
        engine = get_engine(game.engine)
        bots, default = get_bots(game.engine)
        decision = engine.pending(game.state)[0]
        position = decision["seats"][0]
        seat = game.seats.select_related("user").get(position=position)
        assert seat.user is not None  # every seat of a league table has its member
        rng = random.Random(f"demo:{game.seed}:{game.version}:{position}")
        action = bots[default](engine.view(game.state, position), rng)
        game_pipeline.submit_action(game_id=game.pk, user=seat.user, action=action)
    raise RuntimeError(f"demo game {game_id} did not end")


def confirm_all(*, league: League, fixtures: list[Fixture], by: User) -> None:
    """Count every finished table's result and confirm the provisional ones at once."""
    for fixture in fixtures:  # counted by the game_ended receiver after commit; idempotent here
        results.fixture_record_result(game_id=fixture.game_id)
        fixture.refresh_from_db()
        if confirmation.result_state(fixture) == confirmation.PROVISIONAL:
            confirmation.result_confirm(league=league, game_id=fixture.game_id, by=by, reason="demo: checked")


def confirm_one_leave_one(*, league: League, fixtures: list[Fixture], by: User) -> None:
    """Confirm the first finished table's result at once; the second stays provisional."""
    for fixture in fixtures:  # counted by the game_ended receiver after commit; idempotent here
        results.fixture_record_result(game_id=fixture.game_id)
    first = fixtures[0]
    first.refresh_from_db()
    if confirmation.result_state(first) == confirmation.PROVISIONAL:
        confirmation.result_confirm(league=league, game_id=first.game_id, by=by, reason="demo: checked")
