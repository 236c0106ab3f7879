"""Hidden information through the API: seeded random games of both real engines, every seat checked.

After every move, for each seat's token (and a spectator's), the game, history and legal-actions
endpoints must say exactly what ``engine.view(state, seat)`` and the ``visible`` events allow, and no
card code may appear in an answer unless that seat has legitimately seen it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from apps.games.models import Game, Move
from baogame.rules.core import visible
from baogame.rules.registry import get_engine
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

CARD_KEYS = {"displays", "draw", "discard", "drawn", "hands", "hand", "trick", "deck"}
MOVES_PER_GAME = 30


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _cards(referee: dict[str, Any]) -> set[str]:
    """Every card code in the referee's picture of the table."""
    return set().union(*(_strings(v) for k, v in referee.items() if k in CARD_KEYS))


def _check_seat(client: Any, game: Game, seat: int | None, cards: set[str]) -> None:
    engine = get_engine(game.engine)
    detail = client.get(f"/api/v1/games/{game.pk}/").json()
    history = client.get(f"/api/v1/games/{game.pk}/history/?limit=2000").json()
    expected_events = [
        e for m in Move.objects.filter(game=game).order_by("seq") for e in m.events if visible(e, seat)
    ]
    view = engine.view(game.state, seat)

    assert detail["view"] == json.loads(json.dumps(view))
    assert [h["event"] for h in history["events"]] == json.loads(json.dumps(expected_events))
    known = _strings(view) | _strings(expected_events)
    answers = [detail, history]
    if seat is not None:
        legal = client.get(f"/api/v1/games/{game.pk}/legal/?limit=2000").json()
        assert legal["actions"] == json.loads(json.dumps(engine.legal_actions(game.state, seat)[:2000]))
        owns = any(seat in d["seats"] for d in engine.pending(game.state))
        # my open decision as my own view shows it: pending() would name a window's remaining owners
        assert detail["my_decisions"] == ([view["decision"]] if owns and view["decision"] else [])
        answers.append(legal)
    for answer in answers:
        leaked = (_strings(answer) & cards) - known
        assert not leaked, f"seat {seat} was shown {sorted(leaked)}"


@pytest.mark.parametrize(
    ("engine_name", "players", "seed"), [("baobei", 2, 1), ("baobei", 3, 2), ("baohuang", 5, 3)]
)
def test_no_endpoint_reveals_a_card_the_seat_may_not_know(
    client_for: Any, make_user: Any, engine_name: str, players: int, seed: int
) -> None:
    people = [make_user(username=f"hid{engine_name}{players}-{i}") for i in range(players + 1)]
    game = GameFactory(engine=engine_name, players=players, seated=people[:players])
    clients = [client_for(p) for p in people[:players]]
    spectator = client_for(people[players])
    engine, rng = get_engine(engine_name), random.Random(seed)

    for _ in range(MOVES_PER_GAME):
        game.refresh_from_db()
        cards = _cards(engine.referee_view(game.state))
        for seat, client in enumerate(clients):
            _check_seat(client, game, seat, cards)
        _check_seat(spectator, game, None, cards)
        pending = engine.pending(game.state)
        if not pending:
            break
        seat = pending[0]["seats"][0]
        actions = clients[seat].get(f"/api/v1/games/{game.pk}/legal/?limit=2000").json()["actions"]
        answer = clients[seat].post(
            f"/api/v1/games/{game.pk}/actions/", {"action": rng.choice(actions)}, format="json"
        )
        assert answer.status_code == 201, answer.json()
        assert (
            not (_strings(answer.json()["events"]) & cards)
            - _strings(engine.view(game.state, seat))
            - _strings([e for m in Move.objects.filter(game=game) for e in m.events if visible(e, seat)])
        )

    assert Move.objects.filter(game=game).count() >= min(MOVES_PER_GAME, 10)
