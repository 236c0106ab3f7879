"""``manage.py seed_demo_league``: a demo league with a running season, idempotent."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from apps.games.models import Seat
from apps.leagues.models import Fixture, League, Membership, Season

pytestmark = pytest.mark.django_db


def test_seed_demo_league_creates_a_running_season_once() -> None:
    call_command("seed_demo", stdout=None)

    call_command("seed_demo_league")
    call_command("seed_demo_league")

    league = League.objects.get(slug="demo-league")
    assert league.organisers.filter(username="demo").exists()
    assert Membership.objects.filter(league=league, status=Membership.Status.ACTIVE).count() == 6
    assert Season.objects.get(league=league).status == Season.Status.RUNNING
    assert Fixture.objects.filter(round__season__league=league).count() == 2
    bot_seats = Seat.objects.filter(
        game__league_fixture__round__season__league=league, user__username__startswith="demo-bot"
    )
    assert bot_seats.count() == 5 and all(s.bot_takeover for s in bot_seats)


def test_seed_demo_league_creates_a_three_division_league_with_a_finished_season_and_the_next() -> None:
    from apps.leagues.models import DivisionPlacement

    call_command("seed_demo", stdout=None)
    call_command("seed_demo_league")
    call_command("seed_demo_league")

    league = League.objects.get(slug="demo-divisions")
    assert (league.divisions, league.promotion, league.pairing_format) == (3, 1, "swiss")
    first, second = league.seasons.order_by("number")
    assert first.status == Season.Status.FINISHED and second.status == Season.Status.RUNNING
    movements = set(DivisionPlacement.objects.filter(season=second).values_list("movement", flat=True))
    assert {"up", "down", "stayed"} <= movements
    assert DivisionPlacement.objects.filter(season=second, moved_by_hand=True).count() == 2
    assert sorted(Fixture.objects.filter(round__season=second).values_list("division", flat=True)) == [
        1,
        2,
        3,
    ]
    assert League.objects.get(slug="demo-league").pairing_format == "round_robin"
