"""Through the API: the league's confirmation period and minimum reliability as
settings, the organiser's result endpoints, and the member list's reliability records."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.games import autoplay as game_autoplay
from apps.games.models import Seat
from apps.leagues import confirmation, seasons, services
from apps.leagues.models import Fixture, League
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_settings_results_and_member_records_through_the_api(
    toy_engine: str, django_capture_on_commit_callbacks: Any
) -> None:
    boss = UserFactory(username="boss")
    created = _api(boss).post(
        "/api/v1/leagues/",
        {"name": "Api Cup", "game": "toy", "players_per_table": 3, "join": False, "confirmation_hours": 24},
        format="json",
    )
    assert created.status_code == 201 and created.json()["confirmation_hours"] == 24
    league = League.objects.get(slug=created.json()["slug"])
    patched = _api(boss).patch(f"/api/v1/leagues/{league.slug}/", {"min_reliability": 50}, format="json")
    assert patched.status_code == 200 and patched.json()["min_reliability"] == 50
    players = [UserFactory(username=f"p{i}") for i in range(3)]
    for player in players:
        services.membership_join_by_link(league=league, user=player, token=league.invite_token)
    league.refresh_from_db()
    season = seasons.season_create(league=league, by=boss, rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        seasons.round_start(season_id=season.pk, by=boss)
    fixture = Fixture.objects.get(round__season=season)
    Seat.objects.filter(game=fixture.game).update(bot_takeover=True)
    with django_capture_on_commit_callbacks(execute=True):
        game_autoplay.play_bots(fixture.game_id)
    fixture.refresh_from_db()
    assert confirmation.result_state(fixture) == confirmation.PROVISIONAL
    base = f"/api/v1/leagues/{league.slug}/games/{fixture.game_id}"

    assert _api(players[0]).post(f"{base}/result-confirm/", {}, format="json").status_code == 403
    assert _api(boss).post(f"{base}/result-reopen/", {}, format="json").status_code == 400  # reason needed
    assert _api(boss).post(f"{base}/result-reopen/", {"reason": "check"}, format="json").status_code == 200
    adjudicated = _api(boss).post(
        f"{base}/result-adjudicate/", {"places": [1, 2, 3], "reason": "agreed"}, format="json"
    )
    assert adjudicated.status_code == 200
    fixture.refresh_from_db()
    assert confirmation.result_state(fixture) == confirmation.CONFIRMED
    again = _api(boss).post(f"{base}/result-confirm/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_confirmed"

    members = _api(boss).get(f"/api/v1/leagues/{league.slug}/members/").json()
    assert {m["username"] for m in members} == {"p0", "p1", "p2"}
    assert all(set(m["reliability"]) >= {"answered", "timeouts", "on_time_percent"} for m in members)
