"""The API never tells who has answered a simultaneous decision while it is open (BB-30.6)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from apps.games import lifecycle
from tests.deadlines.helpers import a_game, pending, toy_play

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _window_game(toy_engine: str, users: list) -> tuple[int, str]:
    """A three-seat toy game in which seat 0 has played: seats 1 and 2 own a window."""
    game = a_game(toy_engine, users, players=3)
    toy_play(game, users[0])
    return game.pk, pending(game)[0]["decision_id"]


def test_a_window_does_not_show_who_has_passed_bb_30_6(toy_engine: str, users: list) -> None:
    game_id, window = _window_game(toy_engine, users)

    answer = _client(users[1]).post(
        f"/api/v1/games/{game_id}/actions/",
        {"action": {"type": "pass", "decision_id": window}},
        format="json",
    )
    as_seat0 = _client(users[0]).get(f"/api/v1/games/{game_id}/").json()["decisions"]
    as_seat1 = _client(users[1]).get(f"/api/v1/games/{game_id}/").json()["decisions"]
    as_seat2 = _client(users[2]).get(f"/api/v1/games/{game_id}/").json()["decisions"]

    assert answer.status_code == 201
    assert answer.json()["decisions"] == [{"kind": "window", "decision_id": window, "seats": []}]
    assert [(d["kind"], d["seat"]) for d in as_seat0] == [("window", None)]
    assert [(d["kind"], d["seat"]) for d in as_seat1] == [("window", None)]
    assert [(d["kind"], d["seat"]) for d in as_seat2] == [("window", 2)]


def _everything_seen_by(user, game_id: int) -> dict:
    """Every API read of the game, and the page's poll answer, as ``user`` gets them."""
    client = _client(user)
    detail = client.get(f"/api/v1/games/{game_id}/").json()
    page = Client()
    page.force_login(user)
    poll = page.get(
        f"/games/{detail['public_id']}/?since={detail['version']}-{detail['status']}", HTTP_HX_REQUEST="true"
    )
    return {
        "detail": detail,
        "history": client.get(f"/api/v1/games/{game_id}/history/").json(),
        "legal": client.get(f"/api/v1/games/{game_id}/legal/").json(),
        "mine": [g for g in client.get("/api/v1/games/").json() if g["id"] == game_id],
        "poll": poll.status_code,
    }


def test_an_answer_to_an_open_window_changes_nothing_the_others_can_read_bb_30_6(
    toy_engine: str, users: list
) -> None:
    """No version, sequence number, history entry or page refresh tells seat 0, seat 2 (who still owns
    the window) or a spectator that seat 1 has passed."""
    game_id, window = _window_game(toy_engine, users)
    observers = [users[0], users[2], users[3]]  # users[3] has no seat: a spectator
    before = [_everything_seen_by(u, game_id) for u in observers]
    seat1_before = _client(users[1]).get(f"/api/v1/games/{game_id}/").json()["version"]

    answer = _client(users[1]).post(
        f"/api/v1/games/{game_id}/actions/",
        {"action": {"type": "pass", "decision_id": window}},
        format="json",
    )

    assert answer.status_code == 201
    assert [_everything_seen_by(u, game_id) for u in observers] == before
    assert all(seen["poll"] == 204 for seen in before)
    # seat 1 itself counts its own answer, and numbers it in its own history
    assert answer.json()["version"] == answer.json()["seq"] == seat1_before + 1
    assert _client(users[1]).get(f"/api/v1/games/{game_id}/").json()["version"] == seat1_before + 1


def test_the_closing_answer_is_public_and_history_paging_loses_nothing_bb_30_6(
    toy_engine: str, users: list
) -> None:
    game_id, window = _window_game(toy_engine, users)
    seen_before = {
        u.pk: _client(u).get(f"/api/v1/games/{game_id}/history/").json()["version"] for u in users[:4]
    }
    for u in (users[1], users[2]):  # the second pass closes the window
        response = _client(u).post(
            f"/api/v1/games/{game_id}/actions/",
            {"action": {"type": "pass", "decision_id": window}},
            format="json",
        )
        assert response.status_code == 201

    for u in users[:4]:
        client = _client(u)
        new = client.get(f"/api/v1/games/{game_id}/history/?after={seen_before[u.pk]}").json()
        full = client.get(f"/api/v1/games/{game_id}/history/").json()
        types = [e["event"]["type"] for e in new["events"]]
        assert "window_closed" in types  # everyone learns that the window closed
        assert new["version"] == full["version"] == full["events"][-1]["seq"]
        assert new["version"] == seen_before[u.pk] + (2 if u == users[1] else 1)  # seat 1 knows its pass
        assert [e["seq"] for e in full["events"]] == sorted(e["seq"] for e in full["events"])


def test_history_pages_never_split_a_move(toy_engine: str, users: list) -> None:
    """``after=<last seq>`` must not skip the rest of a move whose events did not fit in a page."""
    game_id, _ = _window_game(toy_engine, users)
    client = _client(users[0])
    full = client.get(f"/api/v1/games/{game_id}/history/").json()["events"]
    assert len(full) >= 2 and full[-1]["seq"] == full[-2]["seq"]  # the play: "played" and "hand"

    collected, after = [], 0
    while True:
        page = client.get(f"/api/v1/games/{game_id}/history/?after={after}&limit=1").json()
        collected += page["events"]
        if not page["more"]:
            break
        after = page["events"][-1]["seq"]

    assert collected == full


def test_a_bao_bei_setup_peek_answer_stays_unknown_to_the_others_bb_30_6(users: list) -> None:
    """The real engine: seat 1 peeks (BB-22.0); seats 0 and 2, still peeking, and a spectator can
    read nothing new, while seat 1 gets its peeked cards and counts its own move."""
    game = a_game("baobei", users, players=3)
    assert pending(game)[0]["kind"] == "setup_peek"
    observers = [users[0], users[2], users[3]]
    before = [_everything_seen_by(u, game.pk) for u in observers]
    peeker = _client(users[1])
    version = peeker.get(f"/api/v1/games/{game.pk}/").json()["version"]
    action = peeker.get(f"/api/v1/games/{game.pk}/legal/?limit=1").json()["actions"][0]

    answer = peeker.post(f"/api/v1/games/{game.pk}/actions/", {"action": action}, format="json")

    assert answer.status_code == 201
    assert [_everything_seen_by(u, game.pk) for u in observers] == before
    assert answer.json()["version"] == answer.json()["seq"] == version + 1
    own = peeker.get(f"/api/v1/games/{game.pk}/history/?after={version}").json()["events"]
    assert own and all(e["seq"] == version + 1 for e in own)  # its private peek, numbered for it alone


def test_an_automatic_pass_for_a_seat_that_skips_windows_is_not_counted_for_others_bb_30_6(
    toy_engine: str, users: list
) -> None:
    """Seat 1 does not wait for windows, so it passes the moment seat 0's play opens one: seats 0 and 2
    see one new move (the play), exactly as if seat 1 were still thinking."""
    game = a_game(toy_engine, users, players=3)
    lifecycle.seat_set_skip_pluck_windows(game_id=game.pk, user=users[1], value=True)
    before = {u.pk: _client(u).get(f"/api/v1/games/{game.pk}/").json()["version"] for u in users[:3]}

    toy_play(game, users[0])

    assert pending(game)[0]["seats"] == [2]  # seat 1 has passed
    after = {u.pk: _client(u).get(f"/api/v1/games/{game.pk}/").json() for u in users[:3]}
    assert after[users[0].pk]["version"] == before[users[0].pk] + 1
    assert after[users[2].pk]["version"] == before[users[2].pk] + 1
    assert after[users[1].pk]["version"] == before[users[1].pk] + 2  # the play and its own pass
    assert [(d["kind"], d["seat"]) for d in after[users[0].pk]["decisions"]] == [("window", None)]
