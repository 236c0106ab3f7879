"""The sittings API: the table proposes and answers; watchers and strangers are refused."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from apps.games.models import Game
from apps.sittings.models import Sitting
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(users: list[Any]) -> Game:
    return GameFactory(engine="baobei", players=3, seated=users[:3])


def _url(game: Game, tail: str = "") -> str:
    return f"/api/v1/games/{game.pk}/sittings/{tail}"


def test_players_propose_and_accept_a_time_through_the_api(client_for: Any, users: list, game: Game) -> None:
    at = (timezone.now() + timedelta(days=2)).replace(microsecond=0)

    proposed = client_for(users[0]).post(
        _url(game), {"times": [at.isoformat()], "length_minutes": 90}, format="json"
    )
    pid = proposed.json()["proposal"]
    client_for(users[1]).post(_url(game, f"{pid}/answer/"), {"accept": True}, format="json")
    answered = client_for(users[2]).post(
        _url(game, f"{pid}/answer/"), {"accept": True, "index": 1}, format="json"
    )

    assert proposed.status_code == 201
    assert answered.status_code == 200
    assert [s["ends_at"] for s in answered.json()["agreed"]] == [
        (at + timedelta(minutes=90)).isoformat().replace("+00:00", "Z")
    ]
    assert Sitting.objects.filter(game=game).count() == 1
    assert client_for(users[0]).get(_url(game)).json()["sittings"][0]["starts_at"]


def test_a_weekly_series_is_proposed_in_the_proposers_time_zone(
    client_for: Any, users: list, game: Game
) -> None:
    users[0].profile.time_zone = "Europe/Berlin"
    users[0].profile.save()
    first_day = (timezone.now() + timedelta(days=1)).date().isoformat()
    series = {"weekdays": [1, 4], "at": "20:00", "weeks": 6, "first_day": first_day}

    response = client_for(users[0]).post(_url(game), {"recurrence": series}, format="json")

    assert response.status_code == 201
    assert response.json()["proposals"][0]["recurrence"]["time_zone"] == "Europe/Berlin"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"times": []}, "no_times"),
        ({"times": ["2001-01-01T10:00:00Z"]}, "bad_times"),
        ({"times": ["tomorrow"]}, "invalid"),
        (
            {"recurrence": {"weekdays": [1], "at": "25:00", "weeks": 2, "first_day": "2030-01-01"}},
            "bad_recurrence",
        ),
        (
            {
                "recurrence": {
                    "weekdays": [1],
                    "at": "20:00",
                    "weeks": 2,
                    "first_day": "2030-01-01",
                    "time_zone": "Nowhere/City",
                }
            },
            "bad_recurrence",
        ),
    ],
)
def test_bad_proposals_get_a_stable_code(
    client_for: Any, users: list, game: Game, body: dict, code: str
) -> None:
    response = client_for(users[0]).post(_url(game), body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == code


def test_a_watcher_cannot_see_propose_or_answer(client_for: Any, users: list, game: Game) -> None:
    """Presence and acceptance are the table's business: a watcher of a public game gets 403."""
    at = (timezone.now() + timedelta(days=2)).isoformat()
    pid = client_for(users[0]).post(_url(game), {"times": [at]}, format="json").json()["proposal"]
    watcher = client_for(users[5])

    answers = [
        watcher.get(_url(game)),
        watcher.post(_url(game), {"times": [at]}, format="json"),
        watcher.post(_url(game, f"{pid}/answer/"), {"accept": False}, format="json"),
    ]

    assert [(r.status_code, r.json()["code"]) for r in answers] == [(403, "not_at_table")] * 3


def test_a_stranger_to_a_private_game_gets_not_found(client_for: Any, users: list, game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.PRIVATE)

    response = client_for(users[5]).get(_url(game))

    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_the_public_game_reply_says_nothing_of_sittings(client_for: Any, users: list, game: Game) -> None:
    at = (timezone.now() + timedelta(days=2)).isoformat()
    client_for(users[0]).post(_url(game), {"times": [at]}, format="json")

    reply = client_for(users[5]).get(f"/api/v1/games/{game.pk}/").content.decode()

    assert "sitting" not in reply.lower()
