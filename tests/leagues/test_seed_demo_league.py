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
