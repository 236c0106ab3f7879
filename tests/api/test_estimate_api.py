"""The API states a game's expected duration before it starts (``GET /api/v1/estimate/`` and the
creation reply) and how long it took once finished (the game's ``took_days``). BH-3.2, BB §2.3."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from apps.games import estimates
from apps.games.models import Game

pytestmark = pytest.mark.django_db

KEYS = {"days_typical", "days_p90", "source", "n", "sittings", "text"}


def test_the_estimate_endpoint_answers_for_named_settings_from_the_model(
    client_for: Any, users: list
) -> None:
    reply = client_for(users[0]).get("/api/v1/estimate/?game=baohuang&length=short&control=daily")

    body = reply.json()
    assert reply.status_code == 200 and set(body) == KEYS
    expected = estimates.estimate("baohuang", 5, "short", "daily")
    assert (body["source"], body["days_typical"]) == ("model", round(expected.days_typical, 1))


def test_a_custom_length_is_given_by_its_values_in_the_query_bh_3_2(client_for: Any, users: list) -> None:
    api = client_for(users[0])

    six = api.get("/api/v1/estimate/?game=baohuang&length=custom&deal_limit=6").json()
    three = api.get("/api/v1/estimate/?game=baohuang&length=short").json()

    assert six["days_typical"] == pytest.approx(2 * three["days_typical"], abs=0.2)


def test_bad_settings_are_refused_with_a_stable_code(client_for: Any, users: list) -> None:
    api = client_for(users[0])

    wrong_length = api.get("/api/v1/estimate/?game=baohuang&length=long")
    wrong_players = api.get("/api/v1/estimate/?game=baobei&players=9")
    bad_control = api.get("/api/v1/estimate/?game=baobei&players=3&control=custom")

    assert (wrong_length.status_code, wrong_length.json()["code"]) == (400, "invalid_length")
    assert (wrong_players.status_code, wrong_players.json()["code"]) == (400, "invalid_options")
    assert (bad_control.status_code, bad_control.json()["code"]) == (400, "invalid_control")


def test_the_creation_reply_carries_the_estimate_for_the_games_settings(client_for: Any, users: list) -> None:
    created = client_for(users[0]).post(
        "/api/v1/games/", {"engine": "baobei", "players": 4, "bots": 3, "length": "long"}, format="json"
    )

    body = created.json()
    assert created.status_code == 201 and set(body["estimate"]) == KEYS
    assert body["estimate"]["days_typical"] == round(
        estimates.estimate("baobei", 4, "long", "daily").days_typical, 1
    )


def test_a_finished_game_says_how_long_it_took_and_a_running_one_does_not(
    client_for: Any, users: list
) -> None:
    api = client_for(users[0])
    game_id = api.post("/api/v1/games/", {"engine": "baobei", "players": 2, "bots": 1}, format="json").json()[
        "id"
    ]
    assert api.get(f"/api/v1/games/{game_id}/").json()["took_days"] is None

    start = timezone.now() - timedelta(days=12)
    Game.objects.filter(pk=game_id).update(
        status=Game.Status.FINISHED, started_at=start, finished_at=start + timedelta(days=12, hours=12)
    )

    assert api.get(f"/api/v1/games/{game_id}/").json()["took_days"] == 12.5
