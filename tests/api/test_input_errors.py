"""Input that used to answer 500 answers 400 with a code, through the API and the web form."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.games.models import Game, Move
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

NOT_A_WINDOW = ["w²", "w①", "w" + "1" * 5000]


@pytest.fixture
def baobei_game(users: list) -> Game:
    """An active two-seat Bao Bei game of users[0] and users[1], at the setup peek."""
    return GameFactory(engine="baobei", players=2, seated=users[:2])


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
        f"/games/{baobei_game.public_id}/act/",
        {"type": "choose_peek", "decision_id": did, "slots": ["0", "1"]},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    assert b"stale_decision" in response.content
    assert not Move.objects.filter(game=baobei_game).exists()


DEEP = "[" * 5000 + "]" * 5000
JSON_WRITES = [
    ("post", "/api/v1/tokens/"),
    ("post", "/api/v1/bots/"),
    ("patch", "/api/v1/me/"),
    ("patch", "/api/v1/me/notifications/"),
    ("post", "/api/v1/games/"),
    ("post", "/api/v1/games/join/"),
    ("post", "/api/v1/games/{game}/actions/"),
    ("post", "/api/v1/games/{game}/bots/"),
    ("patch", "/api/v1/games/{game}/seat/"),
    ("post", "/api/v1/leagues/"),
]


@pytest.mark.parametrize(("method", "path"), JSON_WRITES)
@pytest.mark.parametrize("body", [DEEP, '{"action": ' + "[" * 40 + "]" * 40 + "}"], ids=["5000", "40"])
def test_json_nested_too_deep_is_a_400_parse_error(
    client_for: Any, users: list, baobei_game: Game, method: str, path: str, body: str
) -> None:
    """5,000 levels used to raise RecursionError (DRF's parser catches only ValueError): a 500."""
    client = client_for(users[0])

    response = getattr(client, method)(
        path.format(game=baobei_game.pk), body, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_web_form_refuses_an_action_nested_too_deep_as_malformed(
    client: Client, users: list, baobei_game: Game
) -> None:
    client.force_login(users[0])

    response = client.post(f"/games/{baobei_game.public_id}/act/", {"action": DEEP}, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert b"malformed_action" in response.content
    assert not Move.objects.filter(game=baobei_game).exists()


def test_a_20_mb_body_gets_the_apis_json_error_413(client_for: Any, users: list) -> None:
    body = '{"name": "' + "x" * 20_000_000 + '"}'

    response = client_for(users[0]).post("/api/v1/tokens/", body, content_type="application/json")

    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "request_too_large"


def test_a_form_encoded_body_is_refused_with_415(client_for: Any, users: list) -> None:
    """The API reads JSON only, as its schema says (a form would turn every value into a string)."""
    response = client_for(users[0]).post("/api/v1/tokens/", {"name": "form"}, format="multipart")

    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
