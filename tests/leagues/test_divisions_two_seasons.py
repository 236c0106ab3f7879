"""Two seasons of a 24-member league in three divisions, played by bots through the real pipeline
(PostgreSQL, Redis, a real Celery worker): promotion and relegation between them.

Kept as small as the promise allows: one round a season, Bao Bei tables of 4 (two per division), a
game threshold of 1 (a game ends after its first scored round). The server's bot plays every seat;
finished games enter the standings through the worker (``game_ended``), which also ends the season.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.models import Game, Seat
from apps.games.scheduling import queue_game_tasks
from apps.games.store import lock_game
from apps.leagues import divisions, seasons, selectors, services
from apps.leagues.models import Fixture, League, Season
from tests.factories import UserFactory
from tests.leagues.conftest import NO_PASSWORD
from tests.support.celery_worker import celery_worker  # noqa: F401 - the module-scoped fixture

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

MEMBERS, DIVISIONS, PROMOTION = 24, 3, 2


def _play_season(season: Season, organiser: Any, worker: Any) -> None:
    """Confirm the divisions, start the round, hand every seat to the bot and wait for the season's end."""
    divisions.divisions_confirm(season=season, by=organiser)
    rnd = seasons.round_start(season_id=season.pk, by=organiser)
    Seat.objects.filter(game__league_fixture__round=rnd).update(bot_takeover=True)
    for fixture in Fixture.objects.filter(round=rnd).select_related("game"):
        queue_game_tasks(lock_game(fixture.game_id))
    worker.wait_for(
        lambda: Season.objects.get(pk=season.pk).status == Season.Status.FINISHED, timeout=600, every=1.0
    )


def test_two_seasons_with_promotion_and_relegation_in_three_divisions(celery_worker) -> None:  # noqa: F811
    organiser = UserFactory(username="commissioner", password=NO_PASSWORD)
    league = services.league_create(
        creator=organiser,
        name="Three divisions",
        game="baobei",
        players_per_table=4,
        engine_options={"threshold": 1},
        divisions=DIVISIONS,
        promotion=PROMOTION,
        pairing_format="swiss",
    )
    people = [UserFactory(username=f"player{i:02}", password=NO_PASSWORD) for i in range(MEMBERS)]
    for user in people:
        services.membership_join_by_link(league=league, user=user, token=league.invite_token)

    first = divisions.season_propose(league=league, by=organiser, rounds=1)
    _play_season(first, organiser, celery_worker)
    games = Game.objects.filter(league_fixture__round__season=first)
    assert games.count() == 6 and all(g.status == Game.Status.FINISHED for g in games)
    ranked = divisions.previous_ranking(first)
    assert [len(ranked[d]) for d in (1, 2, 3)] == [8, 8, 8]
    for fixture in Fixture.objects.filter(round__season=first):
        assert {u in ranked[fixture.division] for u in fixture.players} == {True}

    second = divisions.season_propose(league=league, by=organiser, rounds=1)
    placed = dict(second.placements.values_list("user_id", "division"))
    expected_up = {2: ranked[2][:PROMOTION], 3: ranked[3][:PROMOTION]}
    expected_down = {1: ranked[1][-PROMOTION:], 2: ranked[2][-PROMOTION:]}
    assert all(placed[u] == 1 for u in expected_up[2]) and all(placed[u] == 2 for u in expected_up[3])
    assert all(placed[u] == 2 for u in expected_down[1]) and all(placed[u] == 3 for u in expected_down[2])
    assert sorted(placed.values()) == [1] * 8 + [2] * 8 + [3] * 8
    _play_season(second, organiser, celery_worker)

    table = selectors.season_standings(season=second)
    assert {row.division for row in table} == {1, 2, 3}
    for row in table:
        assert row.division == placed[row.user_id] and row.games_played == 1
    for d in (1, 2, 3):
        ranks = [row.rank for row in table if row.division == d]
        assert ranks[0] == 1 and ranks == sorted(ranks)  # ranked within the division

    third = divisions.season_propose(league=league, by=organiser, rounds=1)
    after = divisions.previous_ranking(second)
    moved = dict(third.placements.values_list("user_id", "division"))
    assert all(moved[u] == 1 for u in after[2][:PROMOTION]) and all(
        moved[u] == 3 for u in after[2][-PROMOTION:]
    )
    assert League.objects.get(pk=league.pk).audit_log.filter(action="divisions_confirmed").count() == 2
