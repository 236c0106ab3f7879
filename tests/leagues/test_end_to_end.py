"""End to end through the pages: create a league, join by link, start a season, finish a game."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import autoplay as game_autoplay
from apps.games.models import Game, Seat
from apps.leagues import selectors
from apps.leagues.models import Fixture, League, Membership, Standing
from tests.factories import UserFactory, signed_in
from tests.leagues.conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


def test_organiser_creates_league_members_join_season_starts_and_standings_move(
    toy_engine: str, django_capture_on_commit_callbacks: Any
) -> None:
    organiser = UserFactory(username="boss", password=NO_PASSWORD)
    boss = signed_in(organiser)

    response = boss.post(
        "/leagues/new/",
        {
            "name": "Autumn Cup",
            "game": "toy",
            "description": "slow games",
            "players_per_table": 3,
            "allow_smaller_tables": "on",
            "timing_preset": "weekly",
            "points_table": "",
        },
    )
    league = League.objects.get(name="Autumn Cup")
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.slug}/"

    players = [UserFactory(username=f"p{i}", password=NO_PASSWORD) for i in range(6)]
    for player in players:
        signed_in(player).post(f"/leagues/{league.slug}/join/{league.invite_token}/")
    assert Membership.objects.filter(league=league, status=Membership.Status.ACTIVE).count() == 6

    boss.post(f"/leagues/{league.slug}/manage/season/", {"rounds": 3, "round_interval_days": 7})
    with django_capture_on_commit_callbacks(execute=True):
        boss.post(f"/leagues/{league.slug}/manage/round/")
    fixtures = list(Fixture.objects.filter(round__season__league=league).select_related("game"))
    assert len(fixtures) == 2
    assert all(f.game.status == Game.Status.ACTIVE and f.game.players == 3 for f in fixtures)
    seated = sorted(s.user_id for f in fixtures for s in f.game.seats.all())
    assert seated == sorted(p.pk for p in players)

    game = fixtures[0].game
    Seat.objects.filter(game=game).update(bot_takeover=True)
    with django_capture_on_commit_callbacks(execute=True):
        game_autoplay.play_bots(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    rows = Standing.objects.filter(season__league=league, games_played=1)
    assert rows.count() == 3
    assert all(r.points == standings_points(game, r.user_id) for r in rows)
    assert all(r.sigma < 25 / 3 for r in rows)

    other = fixtures[1].game
    places = ",".join(str(p) for p in (2, 1, 3))
    with django_capture_on_commit_callbacks(execute=True):
        boss.post(
            f"/leagues/{league.slug}/manage/game/",
            {"game": other.pk, "action": "adjudicate", "places": places, "reason": "players agreed"},
        )
    other.refresh_from_db()
    assert other.status == Game.Status.FINISHED and other.status_reason == "players agreed"
    winner = Standing.objects.get(season__league=league, user=other.seats.get(position=1).user)
    assert (winner.games_played, winner.wins, winner.points) == (1, 1, 2)
    assert winner.mu > 25

    page = signed_in(players[0]).get(f"/leagues/{league.slug}/")
    assert page.status_code == 200
    assert b"<svg" in page.content and b"game_adjudicated" in page.content
    table = selectors.season_standings(season=winner.season)
    assert [row.points for row in table] == sorted((row.points for row in table), reverse=True)
    assert table[-1].games_played == 1 and table[-1].points == 0
    shown = page.content.split(b'class="standings"')[1]
    assert shown.index(table[0].name.encode()) < shown.index(table[-1].name.encode())


def standings_points(game: Game, user_id: int) -> int:
    """League points the finished game gave ``user_id``: table size minus place (default table)."""
    from apps.leagues.standings import placements

    position = game.seats.get(user_id=user_id).position
    place = placements(result=game.result, engine=game.engine, players=game.players)[position][0]
    return game.players - place
