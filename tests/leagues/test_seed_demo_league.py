"""``manage.py seed_demo_league``: a demo league with a running season, idempotent."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from apps.games import people
from apps.games.models import Game, Seat
from apps.leagues import confirmation
from apps.leagues.models import Fixture, League, Membership, Season

pytestmark = pytest.mark.django_db


def test_seed_demo_league_creates_a_running_season_once() -> None:
    call_command("seed_demo", stdout=None)

    call_command("seed_demo_league")
    call_command("seed_demo_league")

    league = League.objects.get(slug="demo-league")
    assert league.organisers.filter(username="demo").exists()
    assert Membership.objects.filter(league=league, status=Membership.Status.ACTIVE).count() == 9
    assert Season.objects.get(league=league).status == Season.Status.RUNNING
    fixtures = list(Fixture.objects.filter(round__season__league=league).select_related("game"))
    assert len(fixtures) == 3
    mine = next(f for f in fixtures if f.game.seats.filter(user__username="demo").exists())
    assert mine.game.status == Game.Status.ACTIVE
    bot_seats = Seat.objects.filter(game=mine.game, user__username__startswith="demo-bot")
    assert bot_seats.count() == 2 and all(s.bot_takeover for s in bot_seats)
    states = sorted(confirmation.result_state(f) for f in fixtures if f != mine)
    assert states == [confirmation.CONFIRMED, confirmation.PROVISIONAL]
    assert league.pairing_format == "round_robin"


def test_the_demo_leagues_description_is_true_for_any_reader() -> None:
    """Every visitor reads it, so it names the demo account instead of telling each of them "you"."""
    call_command("seed_demo", stdout=None)
    call_command("seed_demo_league")

    page = Client().get("/leagues/demo-league/").content.decode()

    assert "the demo account and eight house bot accounts" in page
    assert "you and eight" not in page


def test_reseeding_rewords_a_demo_league_seeded_with_the_old_description() -> None:
    call_command("seed_demo", stdout=None)
    call_command("seed_demo_league")
    League.objects.filter(slug="demo-league").update(
        description="A demo league: you and eight house bot accounts, tables of 3, daily timing; "
        "results stay provisional for 48 hours."
    )

    call_command("seed_demo_league")

    assert League.objects.get(slug="demo-league").description.startswith(
        "A demo league: the demo account and eight"
    )


def test_the_demo_league_page_shows_reliability_and_both_result_states(
    django_capture_on_commit_callbacks: Any,
) -> None:
    call_command("seed_demo", stdout=None)
    with django_capture_on_commit_callbacks(execute=True):  # as in production: receivers after commit
        call_command("seed_demo_league")

    page = Client().get("/leagues/demo-league/").content.decode()

    assert "<th>Reliability</th>" in page and "100%" in page
    assert "result confirmed" in page and "provisional result until" in page
    assert page.count('class="provisional"') >= 4  # three players' lines and their table


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
    first_results = sorted(
        confirmation.result_state(f) for f in Fixture.objects.filter(round__season=first)
    )  # the organiser confirmed every result before the next season (built from final standings)
    assert first_results == [confirmation.CONFIRMED] * 3
    assert league.confirmation_hours == 48
    assert sorted(Fixture.objects.filter(round__season=second).values_list("division", flat=True)) == [
        1,
        2,
        3,
    ]
    # house bots, not people: no sittings to agree at their tables, nothing to mail them
    games = [f.game for f in Fixture.objects.filter(round__season=second).select_related("game")]
    assert all(people.table_of_one(g.seats.select_related("user__profile")) for g in games)
    assert not any(people.held_by_person(s) for g in games for s in g.seats.select_related("user__profile"))
