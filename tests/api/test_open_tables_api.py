"""Open tables through the API: created with ``open_table``, listed at ``games/open/`` (no sign-in
needed), a free seat taken at ``games/{id}/take-seat/``."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from apps.games.models import Game, SeatTenure

pytestmark = pytest.mark.django_db


def test_an_open_table_is_created_listed_and_joined_until_it_starts(client_for: Any, users: list) -> None:
    creator, first, second = (client_for(u) for u in users[:3])
    made = creator.post(
        "/api/v1/games/", {"engine": "baobei", "players": 3, "open_table": True}, format="json"
    ).json()

    listed = client_for(None).get("/api/v1/games/open/").json()
    joined = first.post(f"/api/v1/games/{made['id']}/take-seat/", {"position": 2}, format="json")
    second.post(f"/api/v1/games/{made['id']}/take-seat/", {}, format="json")
    after = client_for(None).get("/api/v1/games/open/").json()

    assert [g["id"] for g in listed] == [made["id"]]
    assert joined.status_code == 200 and joined.json()["my_seat"] == 2
    assert Game.objects.get(pk=made["id"]).status == Game.Status.ACTIVE
    assert after == []


def test_an_open_table_must_be_public(client_for: Any, users: list) -> None:
    answer = client_for(users[0]).post(
        "/api/v1/games/",
        {"engine": "baobei", "players": 3, "open_table": True, "visibility": "unlisted"},
        format="json",
    )

    assert answer.status_code == 400 and answer.json()["code"] == "invalid_options"


def test_taking_a_seat_of_an_unlisted_game_by_its_number_finds_no_game(client_for: Any, users: list) -> None:
    made = (
        client_for(users[0])
        .post("/api/v1/games/", {"engine": "baobei", "players": 3, "visibility": "unlisted"}, format="json")
        .json()
    )

    answer = client_for(users[1]).post(f"/api/v1/games/{made['id']}/take-seat/", {}, format="json")

    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_an_open_tables_minimum_record_is_set_listed_and_held_to(client_for: Any, users: list) -> None:
    """``min_reliability`` on creation, in the open tables' list, and ``reliability_too_low`` (403) for a
    player below it, and for a new account with no record yet."""
    creator, shaky = users[0], users[1]
    finished = Game.objects.create(engine="toy", players=2, status=Game.Status.FINISHED)
    now = timezone.now()
    SeatTenure.objects.create(
        game=finished, position=0, user=shaky, started_at=now, ended_at=now, answered=20, timeouts=20
    )
    body = {"engine": "baobei", "players": 3, "open_table": True, "min_reliability": 70}

    made = client_for(creator).post("/api/v1/games/", body, format="json")
    listed = client_for(shaky).get("/api/v1/games/open/").json()
    refused = client_for(shaky).post(f"/api/v1/games/{made.json()['id']}/take-seat/", {}, format="json")
    without_table = client_for(creator).post(
        "/api/v1/games/", {"engine": "baobei", "players": 3, "min_reliability": 70}, format="json"
    )

    assert made.status_code == 201
    assert [(g["id"], g["min_reliability"]) for g in listed] == [(made.json()["id"], 70)]
    assert (refused.status_code, refused.json()["code"]) == (403, "reliability_too_low")
    newcomer = client_for(users[2]).post(f"/api/v1/games/{made.json()['id']}/take-seat/", {}, format="json")
    assert (newcomer.status_code, newcomer.json()["code"]) == (403, "reliability_too_low")
    assert "yours has 0 so far" in newcomer.json()["detail"]
    assert (without_table.status_code, without_table.json()["code"]) == (400, "invalid_options")
