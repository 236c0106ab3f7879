"""Builders for the deadline tests: games in a known position, clocks moved into the past."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from apps.games import pipeline, selectors
from apps.games.models import Decision, Game
from baogame.rules.registry import get_engine
from tests.factories import GameFactory

LONG = {key: 24 * 3600 for key in ("setup", "turn", "reaction", "ability", "finish", "tribute", "declare")}


def a_game(engine: str, users: list[Any], players: int = 2, **kwargs: Any) -> Game:
    """A started game with ``players`` seats, ``users[i]`` in seat i, long clocks unless overridden."""
    if "control" not in kwargs:
        kwargs.setdefault("timing_overrides", LONG)
    return GameFactory(engine=engine, players=players, seated=users[:players], **kwargs)


def pending(game: Game) -> list[dict[str, Any]]:
    game.refresh_from_db()
    return get_engine(game.engine).pending(game.state)


def overdue(game: Game, *, seconds: int = 1, **filters: Any) -> None:
    """Move the deadlines of the game's open decisions (matching ``filters``) into the past."""
    Decision.objects.filter(game=game, **filters).update(deadline=timezone.now() - timedelta(seconds=seconds))


def toy_play(game: Game, user: Any) -> None:
    """The active toy seat plays its lowest card (opens a window for the others)."""
    d = pending(game)[0]
    seat = selectors.seat_of(game, user).position
    card = min(game.state["hands"][seat])
    pipeline.submit_action(
        game_id=game.pk, user=user, action={"type": "play", "decision_id": d["decision_id"], "card": card}
    )


def baobei_window(users: list[Any], players: int, **kwargs: Any) -> Game:
    """A Bao Bei game whose first turn drew and discarded: a plucking window is open (BB-6.6)."""
    game = a_game("baobei", users, players=players, **kwargs)
    for user in users[:players]:
        d = pending(game)[0]
        pipeline.submit_action(
            game_id=game.pk,
            user=user,
            action={"type": "choose_peek", "decision_id": d["decision_id"], "slots": [0, 1]},
        )
    d = pending(game)[0]
    active = users[d["seats"][0]]
    pipeline.submit_action(
        game_id=game.pk, user=active, action={"type": "draw", "decision_id": d["decision_id"]}
    )
    d = pending(game)[0]
    pipeline.submit_action(
        game_id=game.pk, user=active, action={"type": "discard", "decision_id": d["decision_id"]}
    )
    game.refresh_from_db()
    return game
