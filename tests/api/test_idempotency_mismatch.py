"""An Idempotency-Key names one request; reused with another action it is refused (422)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.models import Game, Move
from baogame.rules.registry import get_engine

pytestmark = pytest.mark.django_db


def _turn(game: Game) -> dict:
    game.refresh_from_db()
    return get_engine(game.engine).pending(game.state)[0]


def _play(client: Any, game: Game, card: Any, key: str) -> Any:
    did = _turn(game)["decision_id"]
    return client.post(
        f"/api/v1/games/{game.pk}/actions/",
        {"action": {"type": "play", "decision_id": did, "card": card}},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def test_a_key_reused_with_a_different_action_is_refused_422(
    client_for: Any, users: list, toy_game: Game
) -> None:
    client = client_for(users[0])
    hand = toy_game.state["hands"][0]
    first_card, other_card = hand[0], next(card for card in hand if card != hand[0])
    first = _play(client, toy_game, first_card, "k1")
    toy_game.refresh_from_db()
    version = toy_game.version

    second = client.post(
        f"/api/v1/games/{toy_game.pk}/actions/",
        {"action": {**Move.objects.get(game=toy_game).action, "card": other_card}},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )

    assert first.status_code == 201
    assert second.status_code == 422
    assert second.json()["code"] == "idempotency_key_mismatch"
    toy_game.refresh_from_db()
    assert toy_game.version == version and Move.objects.filter(game=toy_game).count() == 1


def test_a_key_reused_with_the_same_action_in_another_key_order_replays(
    client_for: Any, users: list, toy_game: Game
) -> None:
    client = client_for(users[0])
    first = _play(client, toy_game, toy_game.state["hands"][0][0], "k2")
    action = Move.objects.get(game=toy_game).action

    again = client.post(
        f"/api/v1/games/{toy_game.pk}/actions/",
        {"action": dict(reversed(list(action.items())))},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k2",
    )

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["replayed"] is True and again.json()["seq"] == first.json()["seq"]


def test_true_is_not_the_same_action_as_1(client_for: Any, users: list, toy_game: Game) -> None:
    """JSON's ``true`` and ``1`` are different values, though Python's ``True == 1``."""
    client = client_for(users[0])
    d = _turn(toy_game)
    action = {"type": "play", "decision_id": d["decision_id"], "card": toy_game.state["hands"][0][0], "n": 1}
    url = f"/api/v1/games/{toy_game.pk}/actions/"
    first = client.post(url, {"action": action}, format="json", HTTP_IDEMPOTENCY_KEY="k3")

    again = client.post(url, {"action": {**action, "n": True}}, format="json", HTTP_IDEMPOTENCY_KEY="k3")

    assert (first.status_code, again.status_code) == (201, 422)


@pytest.mark.parametrize("key", ["a\x00b", "line\nbreak", "k" * 129])
def test_a_key_with_control_characters_or_too_long_is_refused(
    client_for: Any, users: list, toy_game: Game, key: str
) -> None:
    """A NUL in the key reached PostgreSQL, which refuses it in text: a 500 for the move."""
    response = _play(client_for(users[0]), toy_game, toy_game.state["hands"][0][0], key)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_idempotency_key"
    assert not Move.objects.filter(game=toy_game).exists()
