"""A league's season page states how long a game of the season is expected to take (its length at
the league's table size and timing, BH-3.2, BB §2.3)."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client

from apps.games import estimates
from apps.leagues import seasons, services
from apps.leagues.season_length import season_estimate

pytestmark = pytest.mark.django_db


def test_the_season_page_states_the_expected_duration_of_its_games(organiser: Any) -> None:
    league = services.league_create(creator=organiser, name="Court", game="baohuang")
    season = seasons.season_create(league=league, by=organiser, rounds=3, length="short")

    page = html.unescape(Client().get(f"/leagues/{league.slug}/").content.decode())

    expected = estimates.estimate("baohuang", 5, "short", league.timing_preset)
    assert season_estimate(season) == expected
    assert f"Expected duration: {expected.text()}" in page


def test_a_custom_season_length_scales_the_estimate_bh_3_2(organiser: Any) -> None:
    league = services.league_create(creator=organiser, name="Court", game="baohuang")
    season = seasons.season_create(
        league=league, by=organiser, rounds=3, length="custom", length_options={"deal_limit": 6}
    )

    found = season_estimate(season)

    assert found is not None
    short = estimates.estimate("baohuang", 5, "short", league.timing_preset)
    assert found.days_typical == pytest.approx(2 * short.days_typical)
