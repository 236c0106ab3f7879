"""Issue 14: input that used to answer 500 answers 400 with a code, through the API and the web form."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.games import services as game_services
from apps.games.models import Game, Move

pytestmark = pytest.mark.django_db

NOT_A_WINDOW = ["w²", "w①", "w" + "1" * 5000]


@pytest.fixture
def baobei_game(users: list) -> Game:
    """An active two-seat Bao Bei game of users[0] and users[1], at the setup peek."""
    game = game_services.game_create(creator=users[0], engine="baobei", players=2, options={})
    game_services.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("did", NOT_A_WINDOW)
def test_api_answers_stale_decision_for_a_decision_id_int_refuses_bb_22_0(
    client_for: Any, users: list, baobei_game: Game, did: str
) -> None:
    """BB-22.0 step 2: an unknown ``decision_id`` is ``stale_decision``."""
    action = {"type": "choose_peek", "decision_id": did, "slots": [0, 1]}

    response = client_for(users[0]).post(
        f"/api/v1/games/{baobei_game.pk}/actions/", {"action": action}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "stale_decision"
    assert not Move.objects.filter(game=baobei_game).exists()


@pytest.mark.parametrize("did", NOT_A_WINDOW)
def test_web_form_refuses_a_decision_id_int_refuses_with_stale_decision_bb_22_0(
    client: Client, users: list, baobei_game: Game, did: str
) -> None:
    client.force_login(users[0])

    response = client.post(
        f"/games/{baobei_game.pk}/act/",
        {"type": "choose_peek", "decision_id": did, "slots": ["0", "1"]},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    assert b"stale_decision" in response.content
    assert not Move.objects.filter(game=baobei_game).exists()
