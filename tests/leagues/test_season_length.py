"""A season chooses the match length of all its games (BH-3.2, BH-17.6; BB §2.3); a Bao Huang league
seats five at a table without being told."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.leagues import seasons, services
from apps.leagues.forms import LeagueCreateForm, SeasonCreateForm
from apps.leagues.models import League, Season
from baogame.rules.baobei.setup import default_threshold
from baogame.rules.core import RuleError
from tests.factories import UserFactory

from .conftest import NO_PASSWORD

pytestmark = pytest.mark.django_db


def league_of(game: str, organiser: Any, members: int, **settings: Any) -> League:
    league = services.league_create(creator=organiser, name=f"{game} league", game=game, **settings)
    for i in range(members):
        user = UserFactory(username=f"{game}{i}", password=NO_PASSWORD)
        services.membership_join_by_link(league=league, user=user, token=league.invite_token)
    return league


def games_of(season: Season) -> list[Game]:
    return list(Game.objects.filter(league_fixture__round__season=season).order_by("pk"))


def test_a_bao_huang_league_seats_five_at_a_table_unasked_bh_1_1(organiser: Any) -> None:
    """Created without a table size (the API's default) or with Bao Bei's 4 still in the form's box."""
    form = LeagueCreateForm(
        {"name": "Court", "game": "baohuang", "players_per_table": 4, "timing_preset": "daily"}
    )

    assert form.is_valid(), form.errors
    assert form.cleaned_data["players_per_table"] == 5
    assert services.league_create(creator=organiser, name="Court", game="baohuang").players_per_table == 5
    assert services.league_create(creator=organiser, name="Birds", game="baobei").players_per_table == 4


def test_a_wrong_bao_huang_table_size_says_what_the_game_takes(organiser: Any) -> None:
    with pytest.raises(ServiceError) as info:
        services.league_create(creator=organiser, name="Court", game="baohuang", players_per_table=4)

    assert info.value.code == "invalid_options" and info.value.message == "Bao Huang tables seat 5 players"


def test_a_short_season_gives_every_bao_huang_game_a_limit_of_three_deals_bh_17_6(organiser: Any) -> None:
    league = league_of("baohuang", organiser, 5)
    season = seasons.season_create(league=league, by=organiser, length="short")

    seasons.round_start(season_id=season.pk, by=organiser)

    (game,) = games_of(season)
    assert game.length == "short" and game.options["deal_limit"] == 3
    assert game.state["options"] == {"target_score": 30, "deal_limit": 3}


def test_a_custom_season_length_replaces_the_length_the_league_options_set(organiser: Any) -> None:
    """The season's length is the whole length: a value it leaves out takes the rules' default (the
    form starts from the league's values, so an organiser sees them)."""
    league = league_of("baohuang", organiser, 5, engine_options={"target_score": 40})
    season = seasons.season_create(
        league=league, by=organiser, length="custom", length_options={"deal_limit": 2}
    )

    seasons.round_start(season_id=season.pk, by=organiser)

    (game,) = games_of(season)
    assert game.length == "custom" and game.options == {"target_score": 30, "deal_limit": 2}


def test_bao_bei_season_lengths_follow_each_tables_size_bb_2_3(organiser: Any) -> None:
    """A short season halves §2.3's threshold of each table's own size, and replaces the league's."""
    league = league_of("baobei", organiser, 7, players_per_table=4, engine_options={"threshold": 12})
    season = seasons.season_create(league=league, by=organiser, length="short")

    seasons.round_start(season_id=season.pk, by=organiser)

    games = games_of(season)
    assert {g.players for g in games} == {3, 4}
    assert all(g.options["threshold"] == default_threshold(g.players) // 2 for g in games)
    assert {g.length for g in games} == {"short"}


def test_a_season_without_a_length_plays_the_league_options_as_before(organiser: Any) -> None:
    league = league_of("baobei", organiser, 4, players_per_table=4, engine_options={"threshold": 12})
    season = seasons.season_create(league=league, by=organiser)

    seasons.round_start(season_id=season.pk, by=organiser)

    (game,) = games_of(season)
    assert season.length == "" and game.options["threshold"] == 12 and game.length == "custom"


@pytest.mark.parametrize(
    ("length", "values", "code"),
    [
        ("one_deal", {}, "invalid_length"),  # a Bao Huang length, in a Bao Bei league
        ("custom", {}, "invalid_length"),
        ("short", {"threshold": 30}, "invalid_length"),
        (None, {"threshold": 30}, "invalid_length"),
        ("custom", {"threshold": 0}, "invalid_options"),
        ("custom", {"memory_aid": False}, "invalid_options"),
    ],
)
def test_a_season_length_that_does_not_fit_is_refused_and_nothing_is_scheduled(
    organiser: Any, length: str | None, values: dict[str, Any], code: str
) -> None:
    league = league_of("baobei", organiser, 0)

    with pytest.raises(RuleError) as info:
        seasons.season_create(league=league, by=organiser, length=length, length_options=values)

    assert info.value.code == code and not league.seasons.exists()


def test_the_season_form_offers_the_leagues_lengths_for_its_table_size_starting_from_its_preset(
    organiser: Any,
) -> None:
    league = league_of("baobei", organiser, 0, players_per_table=4, engine_options={"threshold": 40})

    form = SeasonCreateForm(league=league)

    assert dict(form.fields["length"].choices)["normal"] == "Normal: ends at 80 points with 4 players"
    assert form.fields["length"].initial == "short" and "threshold" in form.fields


def test_the_organiser_schedules_a_short_season_from_the_page_and_everyone_sees_its_length(
    organiser: Any,
) -> None:
    league = league_of("baohuang", organiser, 5)
    client = Client()
    client.force_login(organiser)

    page = client.get(f"/leagues/{league.slug}/manage/").content.decode()
    client.post(
        f"/leagues/{league.slug}/manage/season/",
        {"rounds": 3, "round_interval_days": 7, "length": "short", "target_score": "", "deal_limit": ""},
    )

    assert 'data-when="length=custom"' in page and "Short: 3 deals, or first to 30" in page
    season = league.seasons.get()
    assert season.length == "short"
    detail = Client().get(f"/leagues/{league.slug}/").content.decode()
    assert "Length of its games: Short: 3 deals, or first to 30." in detail


def test_the_season_form_explains_custom_values_given_with_a_named_length(organiser: Any) -> None:
    league = league_of("baohuang", organiser, 0)

    form = SeasonCreateForm({"rounds": 3, "round_interval_days": 7, "length": "short", "deal_limit": 5},
                            league=league)  # fmt: skip

    assert not form.is_valid()
    assert form.errors["length"] == ["You gave a deal limit: choose Custom to use it, or leave it empty."]


def test_the_api_schedules_a_season_with_a_length(organiser: Any) -> None:
    from rest_framework.test import APIClient

    from apps.api import services as api_services

    league = league_of("baohuang", organiser, 0)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_services.token_create(user=organiser, name='t')[1]}")

    created = client.post(
        f"/api/v1/leagues/{league.slug}/seasons/",
        {"length": "custom", "length_options": {"deal_limit": 4}},
        format="json",
    )
    refused = client.post(f"/api/v1/leagues/{league.slug}/seasons/", {"length": "normal"}, format="json")

    assert created.status_code == 201
    body = created.json()
    assert (body["length"], body["length_options"]) == ("custom", {"deal_limit": 4})
    assert body["length_text"] == "Custom: 4 deals, or first to 30"
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_length"
