"""Divisions where no round could ever start are refused before they are confirmed, with the reason
and a stable code; the organiser's pages name members by display name, as the standings do."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import Profile
from apps.games.errors import ServiceError
from apps.leagues import divisions, separation, services
from apps.leagues.models import League
from tests.factories import UserFactory
from tests.leagues.conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


def _join(league: League, *names: str, owner: Any = None) -> list[Any]:
    users = [UserFactory(username=name, password=NO_PASSWORD) for name in names]
    for user in users:
        if owner is not None:
            Profile.objects.filter(user=user).update(is_bot_account=True, bot_owner=owner)
        services.membership_join_by_link(league=league, user=user, token=league.invite_token)
    return users


def _page(user: Any, path: str) -> str:
    client = Client()
    client.force_login(user)
    return client.get(path).content.decode()


def test_an_organiser_alone_with_their_four_bots_cannot_confirm_that_division(organiser: Any) -> None:
    """Bao Huang, tables of five (BH-1): division 2 is the organiser and their four bot accounts, one
    table and no bye, so every round would seat one person five times: refused, with the names."""
    league = services.league_create(
        creator=organiser, name="Court", game="baohuang", players_per_table=5, divisions=2, promotion=1
    )
    _join(league, "ada", "bea", "cas", "dov", "eli")
    services.membership_join_by_link(league=league, user=organiser, token=league.invite_token)
    _join(league, "bot1", "bot2", "bot3", "bot4", owner=organiser)
    season = divisions.season_propose(league=league, by=organiser, rounds=1)

    problems = divisions.division_problems(season=season)
    with pytest.raises(ServiceError) as refused:
        divisions.divisions_confirm(season=season, by=organiser)

    assert [(p.division, p.code) for p in problems] == [(2, "owner_at_own_table")]
    assert refused.value.code == "owner_at_own_table" and refused.value.status == 409
    assert "bot1, bot2, bot3, bot4, organiser are one person's accounts" in refused.value.message
    season.refresh_from_db()
    assert season.divisions_confirmed_at is None
    page = _page(organiser, f"/leagues/{league.slug}/manage/seasons/{season.number}/divisions/")
    assert 'data-code="owner_at_own_table"' in page and "No round can start" in page


def test_moving_the_bot_away_lets_the_divisions_be_confirmed(toy_engine: str, organiser: Any) -> None:
    """Tables of two: a member and their bot alone in division 2 clash; once the bot moves to
    division 1 every division can start a round and confirming works."""
    league = services.league_create(
        creator=organiser, name="Pairs", game=toy_engine, players_per_table=2, divisions=2, promotion=1
    )
    _join(league, "ada", "bea")
    (owner,) = _join(league, "owner")
    (bot,) = _join(league, "owner-bot", owner=owner)
    season = divisions.season_propose(league=league, by=organiser, rounds=1)
    assert [p.code for p in divisions.division_problems(season=season)] == ["owner_at_own_table"]

    divisions.placement_move(season=season, user_id=bot.pk, division=1, by=organiser)
    divisions.placement_move(
        season=season, user_id=league.memberships.get(user__username="ada").user_id, division=2, by=organiser
    )
    divisions.divisions_confirm(season=season, by=organiser)

    season.refresh_from_db()
    assert season.divisions_confirmed_at is not None


def test_a_division_too_small_for_one_table_is_named(toy_engine: str, organiser: Any) -> None:
    members = _join(services.league_create(creator=organiser, name="Tiny", game=toy_engine), "solo", "duo")

    problems = separation.division_problems({1: [members[0].pk], 2: []}, size=3, smallest=2)

    assert [(p.division, p.code) for p in problems] == [(1, "division_too_small")]
    assert "a table needs at least 2" in problems[0].detail


def test_two_accounts_of_one_person_with_a_bye_to_spare_are_no_problem(
    toy_engine: str, organiser: Any
) -> None:
    """Three members at tables of two: one table and a bye, so the bot can sit out apart."""
    league = services.league_create(creator=organiser, name="Bye", game=toy_engine)
    (owner,) = _join(league, "owner")
    (bot,) = _join(league, "owner-bot", owner=owner)
    (other,) = _join(league, "other")

    assert separation.division_problems({1: [owner.pk, bot.pk, other.pk]}, size=2, smallest=2) == []


def test_the_manage_page_names_members_by_display_name(toy_league: League, organiser: Any) -> None:
    (member,) = _join(toy_league, "m_0412")
    Profile.objects.filter(user=member).update(display_name="Marguerite")

    page = _page(organiser, f"/leagues/{toy_league.slug}/manage/")

    assert "Marguerite" in page and "m_0412" not in page


def test_the_proposal_page_says_why_in_the_readers_language_with_display_names(organiser: Any) -> None:
    """The reason on the proposal page is a sentence of the catalogue (Chinese for a Chinese reader),
    naming the accounts by display name as the standings do; the refusal's message stays English."""
    league = services.league_create(
        creator=organiser, name="Court", game="baohuang", players_per_table=5, divisions=2, promotion=1
    )
    _join(league, "ada", "bea", "cas", "dov", "eli")
    services.membership_join_by_link(league=league, user=organiser, token=league.invite_token)
    bots = _join(league, "bot1", "bot2", "bot3", "bot4", owner=organiser)
    Profile.objects.filter(user=bots[0]).update(display_name="Magpie")
    Profile.objects.filter(user=organiser).update(language="zh-hans")
    season = divisions.season_propose(league=league, by=organiser, rounds=1)

    page = _page(organiser, f"/leagues/{league.slug}/manage/seasons/{season.number}/divisions/")

    (problem,) = divisions.division_problems(season=season)
    assert problem.detail.startswith("division 2: Magpie, bot2, bot3, bot4, organiser are one person's")
    assert "第2级：Magpie, bot2, bot3, bot4, organiser 是同一个人的账号" in page
    assert "one person's accounts" not in page and "bot1" not in page
