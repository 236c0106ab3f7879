"""The API never tells who has answered a simultaneous decision while it is open (BB-30.6)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from apps.games import services
from baogame.rules.registry import get_engine

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_window_does_not_show_who_has_passed_bb_30_6(toy_engine: str, users: list) -> None:
    game = services.game_create(creator=users[0], engine=toy_engine, players=3, options={})
    for u in users[1:3]:
        services.game_join(game_id=game.pk, user=u)
    game.refresh_from_db()
    turn = get_engine(toy_engine).pending(game.state)[0]
    services.submit_action(
        game_id=game.pk,
        user=users[0],
        action={"type": "play", "decision_id": turn["decision_id"], "card": game.state["hands"][0][0]},
    )
    game.refresh_from_db()
    window = get_engine(toy_engine).pending(game.state)[0]

    answer = _client(users[1]).post(
        f"/api/v1/games/{game.pk}/actions/",
        {"action": {"type": "pass", "decision_id": window["decision_id"]}},
        format="json",
    )
    as_seat0 = _client(users[0]).get(f"/api/v1/games/{game.pk}/").json()["decisions"]
    as_seat1 = _client(users[1]).get(f"/api/v1/games/{game.pk}/").json()["decisions"]
    as_seat2 = _client(users[2]).get(f"/api/v1/games/{game.pk}/").json()["decisions"]

    assert answer.status_code == 201
    assert answer.json()["decisions"] == [
        {"kind": "window", "decision_id": window["decision_id"], "seats": []}
    ]
    assert [(d["kind"], d["seat"]) for d in as_seat0] == [("window", None)]
    assert [(d["kind"], d["seat"]) for d in as_seat1] == [("window", None)]
    assert [(d["kind"], d["seat"]) for d in as_seat2] == [("window", 2)]
