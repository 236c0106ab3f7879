"""Cancelling a waiting game through the API: ``POST games/{id}/cancel/`` answers the game as the other
game endpoints do (``status`` ``aborted``, ``started_at`` null), and every refusal has its code and
status."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import lifecycle
from apps.games.models import Game
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def _made(client: Any, **fields: Any) -> dict[str, Any]:
    answer = client.post("/api/v1/games/", {"engine": "baobei", "players": 3, **fields}, format="json")
    assert answer.status_code == 201
    return dict(answer.json())


def test_the_creator_cancels_a_waiting_game_and_gets_the_game_back(client_for: Any, users: list) -> None:
    creator = client_for(users[0])
    made = _made(creator, open_table=True)

    answer = creator.post(f"/api/v1/games/{made['id']}/cancel/")
    listed = client_for(None).get("/api/v1/games/open/").json()
    read = creator.get(f"/api/v1/games/{made['id']}/").json()

    body = answer.json()
    assert answer.status_code == 200
    assert (body["id"], body["status"], body["started_at"], body["my_seat"]) == (
        made["id"],
        "aborted",
        None,
        0,
    )
    assert body["finished_at"] is not None and body["waiting_for_me"] is False
    assert set(body) == set(made) - {"estimate", "invite_token", "invite_url"}
    assert listed == []
    assert (read["status"], read["result"], read["view"], read["decisions"]) == ("aborted", None, None, [])


def test_joining_a_cancelled_game_with_its_invitation_says_it_was_cancelled(
    client_for: Any, users: list
) -> None:
    creator = client_for(users[0])
    made = _made(creator)
    creator.post(f"/api/v1/games/{made['id']}/cancel/")

    answer = client_for(users[1]).post(
        "/api/v1/games/join/", {"invite_token": made["invite_token"]}, format="json"
    )

    assert answer.status_code == 409 and answer.json()["code"] == "game_cancelled"


@pytest.mark.parametrize(
    ("who", "visibility", "status", "code"),
    [
        ("player", "public", 403, "forbidden"),
        ("outsider", "public", 403, "forbidden"),
        ("outsider", "unlisted", 404, "not_found"),
        ("outsider", "private", 404, "not_found"),
        ("anonymous", "public", 401, "not_authenticated"),
    ],
)
def test_anyone_but_the_creator_is_refused(
    client_for: Any, users: list, who: str, visibility: str, status: int, code: str
) -> None:
    game = lifecycle.game_create(creator=users[0], engine="baobei", players=3, visibility=visibility)
    lifecycle.game_join(game_id=game.pk, user=users[1])
    caller = {"player": users[1], "outsider": users[2], "anonymous": None}[who]

    answer = client_for(caller).post(f"/api/v1/games/{game.pk}/cancel/")
    game.refresh_from_db()

    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert game.status == Game.Status.OPEN


def test_a_started_or_cancelled_game_is_refused_as_not_waiting(
    client_for: Any, users: list, toy_engine: str
) -> None:
    started = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    waiting = GameFactory(players=3, seated=users[:1])
    creator = client_for(users[0])
    creator.post(f"/api/v1/games/{waiting.pk}/cancel/")

    answers = [creator.post(f"/api/v1/games/{g.pk}/cancel/") for g in (started, waiting)]

    assert [(a.status_code, a.json()["code"]) for a in answers] == [(409, "game_not_open")] * 2


def test_a_game_that_does_not_exist_is_not_found(client_for: Any, users: list) -> None:
    answer = client_for(users[0]).post("/api/v1/games/999999/cancel/")

    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")


def test_the_schema_documents_the_cancelling(client_for: Any, users: list) -> None:
    schema = client_for(None).get("/api/schema/?format=json").json()

    operation = schema["paths"]["/api/v1/games/{game_id}/cancel/"]["post"]

    assert operation["operationId"] == "games_cancel"
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/GameSummary"
    )
    assert {"403", "404", "409"} <= set(operation["responses"])
