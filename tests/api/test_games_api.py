"""Playing through the API: a game as my seat sees it, legal actions, moves, history (toy engine)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from apps.games.models import Decision, Game, Move
from baogame.rules.registry import get_engine

pytestmark = pytest.mark.django_db


def _turn(game: Game) -> dict:
    game.refresh_from_db()
    return get_engine(game.engine).pending(game.state)[0]


def test_game_shows_exactly_my_seats_view(client_for: Any, users: list, toy_game: Game) -> None:
    body = client_for(users[1]).get(f"/api/v1/games/{toy_game.pk}/").json()

    assert body["my_seat"] == 1
    assert body["view"] == get_engine("toy").view(toy_game.state, 1)
    assert [d["seat"] for d in body["decisions"]] == [0]
    assert body["seed"] is None and body["my_decisions"] == []


def test_non_member_gets_the_spectator_view(client_for: Any, users: list, toy_game: Game) -> None:
    body = client_for(users[4]).get(f"/api/v1/games/{toy_game.pk}/").json()

    assert body["my_seat"] is None
    assert body["view"] == get_engine("toy").view(toy_game.state, None)
    assert body["view"]["hand"] is None


def test_submitted_action_answers_the_new_version_and_my_events(
    client_for: Any, users: list, toy_game: Game
) -> None:
    d = _turn(toy_game)
    card = toy_game.state["hands"][0][0]

    response = client_for(users[0]).post(
        f"/api/v1/games/{toy_game.pk}/actions/",
        {"action": {"type": "play", "decision_id": d["decision_id"], "card": card}},
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["version"] == 1 and response.json()["replayed"] is False
    assert [e["type"] for e in response.json()["events"]] == ["played", "hand"]


def test_rule_error_is_400_with_the_rules_code(client_for: Any, users: list, toy_game: Game) -> None:
    d = _turn(toy_game)

    response = client_for(users[0]).post(
        f"/api/v1/games/{toy_game.pk}/actions/",
        {"action": {"type": "play", "decision_id": d["decision_id"], "card": 99}},
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {"code": "card_not_in_hand", "detail": "you do not hold that card"}


def test_idempotency_key_applies_a_retried_request_once(client_for: Any, users: list, toy_game: Game) -> None:
    client = client_for(users[0])
    d = _turn(toy_game)
    body = {
        "action": {"type": "play", "decision_id": d["decision_id"], "card": toy_game.state["hands"][0][0]}
    }

    first = client.post(
        f"/api/v1/games/{toy_game.pk}/actions/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    second = client.post(
        f"/api/v1/games/{toy_game.pk}/actions/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )

    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["replayed"] is True and second.json()["seq"] == first.json()["seq"]
    assert Move.objects.filter(game=toy_game).count() == 1


def test_legal_actions_are_the_engines_for_my_seat_and_paginate(
    client_for: Any, users: list, toy_game: Game
) -> None:
    expected = get_engine("toy").legal_actions(toy_game.state, 0)

    page1 = client_for(users[0]).get(f"/api/v1/games/{toy_game.pk}/legal/?limit=2").json()
    page2 = client_for(users[0]).get(f"/api/v1/games/{toy_game.pk}/legal/?limit=2&offset=2").json()

    assert page1["total"] == len(expected)
    assert page1["actions"] + page2["actions"] == expected


def test_history_hides_events_of_other_seats(client_for: Any, users: list, toy_game: Game) -> None:
    d = _turn(toy_game)
    client_for(users[0]).post(
        f"/api/v1/games/{toy_game.pk}/actions/",
        {"action": {"type": "play", "decision_id": d["decision_id"], "card": toy_game.state["hands"][0][0]}},
        format="json",
    )

    mine = client_for(users[0]).get(f"/api/v1/games/{toy_game.pk}/history/").json()
    theirs = client_for(users[1]).get(f"/api/v1/games/{toy_game.pk}/history/").json()

    assert [e["event"]["type"] for e in mine["events"]] == ["played", "hand"]
    assert [e["event"]["type"] for e in theirs["events"]] == ["played"]


def test_waiting_filter_lists_only_games_awaiting_me(client_for: Any, users: list, toy_game: Game) -> None:
    waiting0 = client_for(users[0]).get("/api/v1/games/?waiting=true").json()
    waiting1 = client_for(users[1]).get("/api/v1/games/?waiting=true").json()
    all1 = client_for(users[1]).get("/api/v1/games/").json()

    assert [g["id"] for g in waiting0] == [toy_game.pk] and waiting0[0]["waiting_for_me"]
    assert waiting1 == []
    assert [g["id"] for g in all1] == [toy_game.pk]


def test_create_invite_and_join_start_a_game(client_for: Any, users: list, toy_engine: str) -> None:
    creator, joiner = client_for(users[0]), client_for(users[1])

    created = creator.post("/api/v1/games/", {"engine": "baobei", "players": 2}, format="json")
    invite = creator.get(f"/api/v1/games/{created.json()['id']}/invite/").json()
    joined = joiner.post("/api/v1/games/join/", {"invite_token": invite["invite_token"]}, format="json")

    assert created.status_code == 201 and created.json()["status"] == "open"
    assert invite["join_url"].endswith(f"/games/join/{invite['invite_token']}/")
    assert joined.status_code == 200
    assert joined.json()["status"] == "active" and joined.json()["my_seat"] == 1


def test_creator_adds_a_bot_to_an_open_seat(client_for: Any, users: list) -> None:
    creator = client_for(users[0])
    game = creator.post("/api/v1/games/", {"engine": "baobei", "players": 3}, format="json").json()

    creator.post(f"/api/v1/games/{game['id']}/bots/", {"position": 1}, format="json")
    answer = creator.post(f"/api/v1/games/{game['id']}/bots/", {"position": 2}, format="json")

    assert answer.status_code == 200
    assert answer.json()["status"] == "active"
    assert [s["is_bot"] for s in answer.json()["seats"]] == [False, True, True]


def test_reading_a_game_settles_overdue_decisions_lazily(
    client_for: Any, users: list, toy_game: Game
) -> None:
    Decision.objects.filter(game=toy_game).update(deadline=timezone.now() - timedelta(seconds=1))

    body = client_for(users[1]).get(f"/api/v1/games/{toy_game.pk}/").json()

    assert body["version"] == 1
    assert Move.objects.get(game=toy_game).by_timeout


def test_unknown_api_path_is_a_json_404(client_for: Any, users: list) -> None:
    response = client_for(users[0]).get("/api/v1/nothing-here/")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_validation_error_names_the_field(client_for: Any, users: list) -> None:
    response = client_for(users[0]).post("/api/v1/games/", {"engine": "chess", "players": 2}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["detail"].startswith("engine:")


def test_me_updates_display_name_and_refuses_a_bad_time_zone(client_for: Any, users: list) -> None:
    client = client_for(users[0])

    ok = client.patch("/api/v1/me/", {"display_name": "Ann"}, format="json")
    bad = client.patch("/api/v1/me/", {"time_zone": "Mars/Olympus"}, format="json")

    assert ok.json()["display_name"] == "Ann"
    assert bad.status_code == 400 and bad.json()["detail"].startswith("time_zone:")


def test_unknown_api_path_is_a_json_404_for_writes_too(client_for: Any, users: list) -> None:
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post("/api/v1/leagues/a b/join/")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_notification_preferences_change_through_the_api(client_for: Any, users: list) -> None:
    client = client_for(users[0])
    before = client.get("/api/v1/me/notifications/").json()
    category = next(iter(before["categories"]))
    mode = next(m for m in before["modes"] if m != before["categories"][category])

    changed = client.patch("/api/v1/me/notifications/", {"category": category, "mode": mode}, format="json")
    refused = client.patch("/api/v1/me/notifications/", {"category": category, "mode": "loud"}, format="json")

    assert changed.status_code == 200 and changed.json()["categories"][category] == mode
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"


def test_move_reply_carries_my_next_legal_actions_when_asked(
    client_for: Any, users: list, toy_game: Game
) -> None:
    """``?legal=N`` answers a page of the mover's legal actions after the move, as /legal/ would."""
    d = _turn(toy_game)
    played = client_for(users[0]).post(
        f"/api/v1/games/{toy_game.pk}/actions/?legal=5",
        {"action": {"type": "play", "decision_id": d["decision_id"], "card": toy_game.state["hands"][0][0]}},
        format="json",
    )
    window = _turn(toy_game)
    passed = client_for(users[1]).post(
        f"/api/v1/games/{toy_game.pk}/actions/?legal=1",
        {"action": {"type": "pass", "decision_id": window["decision_id"]}},
        format="json",
    )
    toy_game.refresh_from_db()
    expected = get_engine("toy").legal_actions(toy_game.state, 1)
    asked = client_for(users[1]).get(f"/api/v1/games/{toy_game.pk}/legal/").json()

    assert played.json()["legal"] == {"total": 0, "offset": 0, "actions": []}  # the window is seat 1's
    assert passed.json()["legal"] == {"total": len(expected), "offset": 0, "actions": expected[:1]}
    assert asked["actions"] == expected and len(expected) > 1


def test_move_reply_has_no_legal_page_unless_asked(client_for: Any, users: list, toy_game: Game) -> None:
    d = _turn(toy_game)
    response = client_for(users[0]).post(
        f"/api/v1/games/{toy_game.pk}/actions/",
        {"action": {"type": "play", "decision_id": d["decision_id"], "card": toy_game.state["hands"][0][0]}},
        format="json",
    )

    assert response.status_code == 201 and "legal" not in response.json()


@pytest.mark.parametrize(
    ("query", "body", "field"),
    [
        ("?legal=-1", {"action": {}}, "legal"),
        ("?legal=abc", {"action": {}}, "legal"),
        ("", {}, "action"),
        ("", {"action": [1]}, "action"),
    ],
)
def test_bad_move_request_is_400_invalid_naming_the_field(
    client_for: Any, users: list, toy_game: Game, query: str, body: dict, field: str
) -> None:
    response = client_for(users[0]).post(f"/api/v1/games/{toy_game.pk}/actions/{query}", body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and response.json()["detail"].startswith(f"{field}: ")
    assert Move.objects.filter(game=toy_game).count() == 0


@pytest.mark.parametrize("query", ["?limit=0", "?limit=2001", "?offset=-1", "?limit=x"])
def test_bad_legal_paging_is_400_invalid(client_for: Any, users: list, toy_game: Game, query: str) -> None:
    response = client_for(users[0]).get(f"/api/v1/games/{toy_game.pk}/legal/{query}")

    assert response.status_code == 400 and response.json()["code"] == "invalid"


@pytest.mark.parametrize("key", ["deal", "deals", "start"])
def test_creating_a_game_with_a_stacked_deal_is_refused(client_for: Any, users: list, key: str) -> None:
    """The creator would know every face-down card of the players who join (BB-25.1, BH-25.4)."""
    response = client_for(users[0]).post(
        "/api/v1/games/", {"engine": "baobei", "players": 2, "options": {key: {}}}, format="json"
    )

    assert response.status_code == 400 and response.json()["code"] == "invalid_options"
    assert not Game.objects.exists()
