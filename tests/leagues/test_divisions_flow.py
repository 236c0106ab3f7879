"""Divisions through the services, the pages and the API (toy engine):
the proposal, moves by hand (audited), confirmation, rounds paired within divisions, standings and
pages per division, the next season's promotion and relegation."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.api import services as api_services
from apps.games.errors import ServiceError
from apps.leagues import divisions, game_tools, seasons, services
from apps.leagues.models import AuditLog, DivisionPlacement, Fixture, League, Season, Standing
from apps.leagues.selectors import season_standings
from tests.factories import UserFactory, signed_in
from tests.leagues.conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_for(db: None) -> Callable[[Any], APIClient]:
    """An API client with a personal token of ``user``."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        _, raw = api_services.token_create(user=user, name="tests")
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
        return client

    return make


@pytest.fixture
def club(toy_engine: str, organiser: Any) -> tuple[League, list[Any]]:
    """Two divisions of 4 (toy engine, tables of 2), one up and one down each season; 8 members."""
    league = services.league_create(
        creator=organiser, name="Ladder", game=toy_engine, players_per_table=2, divisions=2, promotion=1
    )
    people = [UserFactory(username=f"p{i}", password=NO_PASSWORD) for i in range(8)]
    for user in people:
        services.membership_join_by_link(league=league, user=user, token=league.invite_token)
    return league, people


def _finish_round(
    league: League, season: Season, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Adjudicate every open game of the season: the lower seat wins (a fixed, known order)."""
    for fixture in Fixture.objects.filter(round__season=season, counted_at__isnull=True).select_related(
        "game"
    ):
        game = fixture.game
        seats = sorted(game.seats.all(), key=lambda s: s.user_id)
        places = {s.position: i + 1 for i, s in enumerate(seats)}
        with django_capture_on_commit_callbacks(execute=True):
            game_tools.game_adjudicate(
                league=league, game_id=game.pk, places=places, by=organiser, reason="test"
            )


def test_a_season_of_two_divisions_then_promotion_and_relegation(
    club: tuple[League, list[Any]], organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    league, people = club
    ids = [u.pk for u in people]
    season = divisions.season_propose(league=league, by=organiser, rounds=1)
    placed = dict(season.placements.values_list("user_id", "division"))
    assert placed == {u: (1 if i < 4 else 2) for i, u in enumerate(ids)}  # join order, top first

    with pytest.raises(ServiceError) as refused:
        seasons.round_start(season_id=season.pk, by=organiser)
    assert refused.value.code == "divisions_unconfirmed"

    # The organiser swaps p3 and p4 by hand (each move audited), then confirms.
    divisions.placement_move(season=season, user_id=ids[3], division=2, by=organiser, reason="asked to")
    divisions.placement_move(season=season, user_id=ids[4], division=1, by=organiser)
    moves = AuditLog.objects.filter(league=league, action="division_moved")
    assert moves.count() == 2 and moves.filter(reason="asked to", detail__after=2).exists()
    divisions.divisions_confirm(season=season, by=organiser)
    with pytest.raises(ServiceError) as late:
        divisions.placement_move(season=season, user_id=ids[0], division=2, by=organiser)
    assert late.value.code == "divisions_confirmed"

    top = {ids[0], ids[1], ids[2], ids[4]}
    with django_capture_on_commit_callbacks(execute=True):
        seasons.round_start(season_id=season.pk, by=organiser)
    for fixture in Fixture.objects.filter(round__season=season):
        assert {u in top for u in fixture.players} == {fixture.division == 1}  # never across divisions
    _finish_round(league, season, organiser, django_capture_on_commit_callbacks)
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED

    table = divisions.previous_ranking(season)
    assert set(table[1]) == top and len(table[2]) == 4
    assert dict(Standing.objects.filter(season=season).values_list("user_id", "division")) == {
        u: 1 if u in top else 2 for u in ids
    }

    # Season 2: the last of division 1 goes down, the first of division 2 up; a withdrawn member of
    # division 2 leaves and a newcomer joins division 2.
    leaver = table[2][-1]
    services.membership_withdraw(league=league, user=next(u for u in people if u.pk == leaver))
    newcomer = UserFactory(username="late", password=NO_PASSWORD)
    services.membership_join_by_link(league=league, user=newcomer, token=league.invite_token)
    second = divisions.season_propose(league=league, by=organiser, rounds=1)
    placements = {p.user_id: p for p in second.placements.all()}
    assert placements[table[1][-1]].division == 2 and placements[table[1][-1]].movement == "down"
    assert placements[table[2][0]].division == 1 and placements[table[2][0]].movement == "up"
    assert leaver not in placements
    assert placements[newcomer.pk].division == 2 and placements[newcomer.pk].movement == "new"
    assert sorted(p.division for p in placements.values()).count(1) == 4

    # The league page shows the newest season and links the earlier one, with its final standings.
    page = signed_in(people[0]).get(f"/leagues/{league.slug}/").content.decode()
    assert "Season 2 ·" in page and '<a href="?season=1">1</a>' in page
    earlier = signed_in(people[0]).get(f"/leagues/{league.slug}/?season=1").content.decode()
    assert "Season 1 · Finished" in earlier and earlier.count('class="standings"') == 2


def test_a_new_season_waits_for_the_previous_one(club: tuple[League, list[Any]], organiser: Any) -> None:
    league, _ = club
    divisions.season_propose(league=league, by=organiser, rounds=1)
    with pytest.raises(ServiceError) as refused:
        divisions.season_propose(league=league, by=organiser, rounds=1)
    assert refused.value.code == "previous_season_running"


def test_the_proposal_screen_moves_and_confirms_and_only_organisers_see_it(
    club: tuple[League, list[Any]], organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    league, people = club
    boss = signed_in(organiser)
    boss.post(f"/leagues/{league.slug}/manage/season/", {"rounds": 2, "round_interval_days": 7})
    season = league.seasons.get()
    page = boss.get(f"/leagues/{league.slug}/manage/seasons/{season.number}/divisions/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Division 1" in html and "Division 2" in html and "Confirm these divisions" in html
    # CSP: no inline script or style
    assert not re.search(r"<script(?![^>]*\bsrc=)", html) and not re.search(r"\sstyle=", html)
    assert signed_in(people[0]).get(f"/leagues/{league.slug}/manage/seasons/1/divisions/").status_code == 403

    base = f"/leagues/{league.slug}/manage/seasons/{season.number}/divisions"
    boss.post(f"{base}/move/", {"user": people[0].pk, "division": 2, "reason": "rusty"})
    moved = DivisionPlacement.objects.get(season=season, user=people[0])
    assert moved.division == 2 and moved.moved_by_hand
    assert "Moved by hand (proposed: first season)" in boss.get(f"{base}/").content.decode()
    boss.post(f"{base}/confirm/")
    season.refresh_from_db()
    assert season.divisions_confirmed_at is not None
    with django_capture_on_commit_callbacks(execute=True):
        boss.post(f"/leagues/{league.slug}/manage/round/")
    detail = signed_in(people[1]).get(f"/leagues/{league.slug}/").content.decode()
    assert 'id="division-1"' in detail and 'id="division-2"' in detail
    assert detail.count('class="standings"') == 2
    log = signed_in(people[1]).get(f"/leagues/{league.slug}/").content.decode()
    assert "from division 1 to division 2" in log and "confirmed the divisions of season 1" in log


def test_settings_page_and_api_carry_divisions_format_and_promotion(
    club: tuple[League, list[Any]], organiser: Any, client_for: Any, django_capture_on_commit_callbacks: Any
) -> None:
    league, people = club
    boss = signed_in(organiser)
    page = boss.get(f"/leagues/{league.slug}/manage/").content.decode()
    assert 'name="divisions"' in page and 'name="pairing_format"' in page and 'name="promotion"' in page
    api = client_for(organiser)
    changed = api.patch(
        f"/api/v1/leagues/{league.slug}/", {"pairing_format": "swiss", "promotion": 2}, format="json"
    ).json()
    assert (changed["pairing_format"], changed["promotion"], changed["divisions"]) == ("swiss", 2, 2)
    bad = api.patch(f"/api/v1/leagues/{league.slug}/", {"pairing_format": "knockout"}, format="json")
    assert bad.status_code == 400

    season = api.post(f"/api/v1/leagues/{league.slug}/seasons/", {"rounds": 1}, format="json").json()
    assert season["divisions_confirmed_at"] is None
    base = f"/api/v1/leagues/{league.slug}/seasons/{season['id']}/divisions"
    proposal = api.get(f"{base}/").json()
    assert {p["division"] for p in proposal["placements"]} == {1, 2}
    assert client_for(people[0]).get(f"{base}/").status_code == 403
    moved = api.post(f"{base}/move/", {"user_id": people[0].pk, "division": 2, "reason": "x"}, format="json")
    assert moved.status_code == 200
    assert next(p for p in moved.json()["placements"] if p["user_id"] == people[0].pk)["moved_by_hand"]
    assert api.post(f"{base}/confirm/").json()["confirmed_at"] is not None
    with django_capture_on_commit_callbacks(execute=True):
        rnd = api.post(f"/api/v1/leagues/{league.slug}/seasons/{season['id']}/rounds/").json()
    assert {f["division"] for f in rnd["fixtures"]} == {1, 2}
    rows = api.get(f"/api/v1/leagues/{league.slug}/seasons/{season['id']}/standings/").json()["standings"]
    assert [r["division"] for r in rows] == sorted(r["division"] for r in rows)
    assert {r["rank"] for r in rows if r["division"] == 2} >= {1}  # ranks count within a division


def test_swiss_and_round_robin_leagues_pair_by_their_format(
    toy_engine: str, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    for fmt in ("swiss", "round_robin"):
        league = services.league_create(
            creator=organiser, name=f"F {fmt}", game=toy_engine, players_per_table=2, pairing_format=fmt
        )
        people = [UserFactory(username=f"{fmt}{i}", password=NO_PASSWORD) for i in range(6)]
        for user in people:
            services.membership_join_by_link(league=league, user=user, token=league.invite_token)
        season = seasons.season_create(league=league, by=organiser, rounds=5)
        for _ in range(5):
            with django_capture_on_commit_callbacks(execute=True):
                seasons.round_start(season_id=season.pk, by=organiser)
            _finish_round(league, season, organiser, django_capture_on_commit_callbacks)
        fixtures = Fixture.objects.filter(round__season=season).select_related("round")
        tables = [f.players for f in fixtures]
        pairs = {tuple(sorted(t)) for t in tables}
        assert len(tables) == 15, fmt
        if fmt == "round_robin":
            # 6 players at tables of 2 over 5 rounds: the whole season is planned, every pair meets once.
            assert len(pairs) == 15
            continue
        # Swiss plans one round at a time, so it can paint itself into a corner (after three rounds the
        # unmet pairs may form two triangles, which no round can seat without a rematch). Its promise
        # is per round: a rematch only where no seating without one existed.
        met: set[tuple[int, ...]] = set()
        for number in range(1, 6):
            round_pairs = [tuple(sorted(f.players)) for f in fixtures if f.round.number == number]
            if any(p in met for p in round_pairs):
                players = sorted(u for p in round_pairs for u in p)
                assert not _perfect_matching_avoiding(players, met), (number, round_pairs, met)
            met.update(round_pairs)


def _perfect_matching_avoiding(players: list[int], met: set[tuple[int, ...]]) -> bool:
    """Whether ``players`` can be paired with no pair from ``met`` (an exhaustive search)."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        (first, other) not in met and _perfect_matching_avoiding([p for p in rest if p != other], met)
        for other in rest
    )


def test_switching_divisions_on_mid_season_leaves_the_running_season_in_one_division(
    toy_engine: str, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    league = services.league_create(creator=organiser, name="Late", game=toy_engine, players_per_table=2)
    for i in range(4):
        user = UserFactory(username=f"late{i}", password=NO_PASSWORD)
        services.membership_join_by_link(league=league, user=user, token=league.invite_token)
    season = seasons.season_create(league=league, by=organiser, rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        seasons.round_start(season_id=season.pk, by=organiser)
    services.league_update(league=league, by=organiser, divisions=2)
    with django_capture_on_commit_callbacks(execute=True):
        seasons.round_start(season_id=season.pk, by=organiser)
    assert set(Fixture.objects.filter(round__season=season).values_list("division", flat=True)) == {1}
    with pytest.raises(ServiceError) as refused:  # the next season waits for this one to finish
        divisions.season_propose(league=league, by=organiser)
    assert refused.value.code == "previous_season_running"

    # The season ends; the next splits its four players evenly (not its bottom one into a division of one).
    _finish_round(league, season, organiser, django_capture_on_commit_callbacks)
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    ranked = [row.user_id for row in season_standings(season=season)]
    league.refresh_from_db()
    second = divisions.season_propose(league=league, by=organiser)
    placed = dict(second.placements.values_list("user_id", "division"))
    assert [placed[m] for m in ranked] == [1, 1, 2, 2]
    assert divisions.division_problems(season=second) == []
