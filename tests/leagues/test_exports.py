"""A season's standings, rating history and game list as CSV (pages) and JSON (API),
with the same rows; the CSV reads back into exactly the rows it was written from."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from apps.games import autoplay as game_autoplay
from apps.games.models import Seat
from apps.leagues import exports, seasons
from apps.leagues.models import Fixture, League, RatingHistory, Season
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(
    toy_league: League, organiser: Any, members: list[Any], django_capture_on_commit_callbacks: Any
) -> Season:
    """Round 1 played to the end by bots, round 2 started (its games in play)."""
    # a name that needs CSV quoting: comma, quote and a non-ASCII letter
    members[0].profile.display_name = 'Zoë "Z", the first'
    members[0].profile.save()
    season = seasons.season_create(league=toy_league, by=organiser, rounds=2)
    seasons.round_start(season_id=season.pk, by=organiser)
    for fixture in Fixture.objects.filter(round__season=season):
        Seat.objects.filter(game=fixture.game).update(bot_takeover=True)
        with django_capture_on_commit_callbacks(execute=True):
            game_autoplay.play_bots(fixture.game_id)
    seasons.round_start(season_id=season.pk, by=organiser)
    return season


@pytest.mark.parametrize("kind", sorted(exports.KINDS))
def test_the_csv_page_reads_back_into_the_api_rows(played: Season, kind: str) -> None:
    league = played.league

    page = Client().get(f"/leagues/{league.slug}/seasons/{played.number}/{kind}.csv")
    client = APIClient()
    client.force_authenticate(UserFactory(username="reader"))  # the API is for signed-in users
    api = client.get(f"/api/v1/leagues/{league.slug}/seasons/{played.pk}/exports/{kind}/")

    assert page.status_code == 200 and page["Content-Type"] == "text/csv; charset=utf-8"
    assert api.status_code == 200
    rows = exports.parse_csv(kind, page.content.decode("utf-8"))
    assert rows == api.json() == exports.rows(kind, played)
    assert rows  # every export has lines for this season


def test_csv_round_trip_keeps_every_value(played: Season) -> None:
    for kind in exports.KINDS:
        data = exports.rows(kind, played)

        assert exports.parse_csv(kind, exports.to_csv(kind, data)) == data


def test_the_exports_say_what_they_hold(played: Season) -> None:
    standings = exports.standings_rows(played)
    games = exports.games_rows(played)
    ratings = exports.rating_rows(played)

    assert [r["rank"] for r in standings] == sorted(r["rank"] for r in standings)
    assert 'Zoë "Z", the first' in {r["name"] for r in standings}
    assert sorted(r["result"] for r in games) == ["confirmed", "confirmed", "pending", "pending"]
    assert all(len(r["places"].split("; ")) == 3 for r in games if r["result"] == "confirmed")
    assert len(ratings) == RatingHistory.objects.filter(season=played).count() == 6
    assert [r["counted"] for r in ratings] == list(range(1, 7))


def test_a_private_leagues_exports_hide_from_strangers(played: Season) -> None:
    League.objects.filter(pk=played.league_id).update(is_public=False)
    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))

    assert (
        stranger.get(f"/leagues/{played.league.slug}/seasons/{played.number}/standings.csv").status_code
        == 404
    )
    api = APIClient()
    api.force_authenticate(UserFactory(username="stranger2"))
    assert (
        api.get(f"/api/v1/leagues/{played.league.slug}/seasons/{played.pk}/exports/games/").status_code == 404
    )


def test_an_unknown_export_is_404(played: Season) -> None:
    assert (
        Client().get(f"/leagues/{played.league.slug}/seasons/{played.number}/secrets.csv").status_code == 404
    )
