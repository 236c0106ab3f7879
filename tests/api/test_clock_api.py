"""The player's clock through the API: vacation and its budget, the private "skip plucking windows"
switch, taking a seat back from the bot (toy engine)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from apps.games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _my_decision(body: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(d for d in body["decisions"] if d["seat"] == seat)


def test_vacation_stops_my_clock_and_others_see_me_away(client_for: Any, users: list, toy_game: Game) -> None:
    me, other = client_for(users[0]), client_for(users[1])  # seat 0 is to move

    started = me.post("/api/v1/me/vacation/")
    seen_by_other = other.get(f"/api/v1/games/{toy_game.pk}/").json()
    mine = me.get(f"/api/v1/games/{toy_game.pk}/").json()

    assert started.status_code == 200 and started.json()["on_vacation"] is True
    assert started.json()["ends_at_latest"] is not None
    assert _my_decision(mine, 0)["deadline"] is None and _my_decision(mine, 0)["clock_stopped"]
    assert (seen_by_other["seats"][0]["away"], seen_by_other["seats"][1]["away"]) == (True, False)
    assert seen_by_other["seats"][0]["away_since"] is not None
    assert seen_by_other["seats"][0]["away_until"] is None  # no planned return: never the budget's end


def test_a_planned_return_is_what_others_see_as_away_until(
    client_for: Any, users: list, toy_game: Game
) -> None:
    me, other = client_for(users[0]), client_for(users[1])

    started = me.post("/api/v1/me/vacation/", {"returns_on": "2999-01-02"}, format="json")
    seen_by_other = other.get(f"/api/v1/games/{toy_game.pk}/").json()

    assert started.status_code == 200 and started.json()["returns_on"] == "2999-01-02"
    assert seen_by_other["seats"][0]["away_until"] == "2999-01-02"


def test_a_planned_return_already_past_is_refused_and_nothing_starts(
    client_for: Any, users: list, toy_game: Game
) -> None:
    me = client_for(users[0])

    refused = me.post("/api/v1/me/vacation/", {"returns_on": "2001-01-01"}, format="json")

    assert refused.status_code == 400 and refused.json()["code"] == "invalid_return_date"
    assert me.get("/api/v1/me/vacation/").json()["on_vacation"] is False


def test_ending_vacation_restarts_my_clock_and_charges_the_budget(
    client_for: Any, users: list, toy_game: Game
) -> None:
    me = client_for(users[0])
    budget = me.get("/api/v1/me/vacation/").json()
    me.post("/api/v1/me/vacation/")

    ended = me.delete("/api/v1/me/vacation/")

    after = me.get("/api/v1/me/vacation/").json()
    mine = me.get(f"/api/v1/games/{toy_game.pk}/").json()
    assert budget["seconds_left"] == budget["budget_days"] * 86400
    assert ended.status_code == 204 and ended.content == b""
    assert after["on_vacation"] is False and after["seconds_left"] <= budget["seconds_left"]
    assert _my_decision(mine, 0)["deadline"] is not None and not mine["seats"][0]["away"]


def test_vacation_is_refused_twice_and_when_the_budget_is_spent(
    client_for: Any, users: list, settings: Any
) -> None:
    me = client_for(users[0])
    me.post("/api/v1/me/vacation/")
    twice = me.post("/api/v1/me/vacation/")
    settings.VACATION_DAYS_PER_YEAR = 0

    spent = client_for(users[1]).post("/api/v1/me/vacation/")

    assert (twice.status_code, twice.json()["code"]) == (409, "already_on_vacation")
    assert (spent.status_code, spent.json()["code"]) == (409, "vacation_budget_exhausted")


def test_skip_plucking_windows_passes_at_once_and_stays_private(
    client_for: Any, users: list, toy_game: Game
) -> None:
    me, other = client_for(users[1]), client_for(users[0])
    switched = me.patch(f"/api/v1/games/{toy_game.pk}/seat/", {"skip_pluck_windows": True}, format="json")
    card = toy_game.state["hands"][0][0]
    decision = other.get(f"/api/v1/games/{toy_game.pk}/").json()["my_decisions"][0]

    other.post(
        f"/api/v1/games/{toy_game.pk}/actions/",
        {"action": {"type": "play", "decision_id": decision["decision_id"], "card": card}},
        format="json",
    )

    seen_by_other = other.get(f"/api/v1/games/{toy_game.pk}/").json()
    assert switched.json()["skip_pluck_windows"] is True
    assert me.get(f"/api/v1/games/{toy_game.pk}/seat/").json()["skip_pluck_windows"] is True
    assert all(d["kind"] != "window" for d in seen_by_other["decisions"])  # passed without waiting
    assert "skip_pluck_windows" not in json.dumps(seen_by_other)


def test_my_seat_is_refused_to_a_spectator(client_for: Any, users: list, toy_game: Game) -> None:
    answer = client_for(users[4]).patch(
        f"/api/v1/games/{toy_game.pk}/seat/", {"skip_pluck_windows": True}, format="json"
    )

    assert (answer.status_code, answer.json()["code"]) == (403, "not_seated")


def test_taking_my_seat_back_from_the_bot(client_for: Any, users: list, toy_game: Game) -> None:
    Seat.objects.filter(game=toy_game, position=1).update(bot_takeover=True, consecutive_timeouts=3)
    me = client_for(users[1])
    before = me.get(f"/api/v1/games/{toy_game.pk}/").json()["seats"][1]

    taken = me.post(f"/api/v1/games/{toy_game.pk}/seat/take-back/")

    after = me.get(f"/api/v1/games/{toy_game.pk}/").json()["seats"][1]
    assert (before["is_bot"], before["bot_takeover"]) == (True, True)
    assert taken.json()["bot_takeover"] is False and taken.json()["consecutive_timeouts"] == 0
    assert (after["is_bot"], after["bot_takeover"]) == (False, False)


def test_handing_my_seat_to_the_bot_and_taking_it_back(client_for: Any, users: list, toy_game: Game) -> None:
    me = client_for(users[1])

    handed = me.post(f"/api/v1/games/{toy_game.pk}/seat/hand-over/")
    seen = me.get(f"/api/v1/games/{toy_game.pk}/").json()["seats"][1]
    taken = me.post(f"/api/v1/games/{toy_game.pk}/seat/take-back/")

    assert handed.status_code == 200 and handed.json()["bot_takeover"] is True
    assert handed.json()["consecutive_timeouts"] == 0
    assert (seen["is_bot"], seen["bot_takeover"]) == (True, True)
    assert taken.json()["bot_takeover"] is False


def test_handing_a_seat_over_is_refused_to_a_spectator(client_for: Any, users: list, toy_game: Game) -> None:
    answer = client_for(users[4]).post(f"/api/v1/games/{toy_game.pk}/seat/hand-over/")

    assert (answer.status_code, answer.json()["code"]) == (403, "not_seated")
    assert not Seat.objects.filter(game=toy_game, bot_takeover=True).exists()
