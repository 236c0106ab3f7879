"""Leagues and single games share one default time control, daily; the new-league form states it and
what it means for one game's duration, the estimate."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from apps.games import estimates
from apps.games.clock.controls import DEFAULT_CONTROL
from apps.games.forms import GameCreateForm
from apps.games.models import Game
from apps.leagues import services
from apps.leagues.forms import LeagueCreateForm
from apps.leagues.models import League

pytestmark = pytest.mark.django_db


def test_a_league_and_a_game_default_to_the_same_daily_control() -> None:
    assert DEFAULT_CONTROL == "daily"
    assert League._meta.get_field("timing_preset").default == DEFAULT_CONTROL
    assert LeagueCreateForm().fields["timing_preset"].initial == DEFAULT_CONTROL
    assert GameCreateForm().fields["control"].initial == DEFAULT_CONTROL
    assert Game._meta.get_field("control").default == DEFAULT_CONTROL


def test_a_league_created_without_a_control_plays_daily(organiser: Any) -> None:
    league = services.league_create(creator=organiser, name="Court", game="baohuang")

    assert league.timing_preset == DEFAULT_CONTROL


def test_the_new_league_form_states_the_default_and_the_expected_duration_of_a_game(organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    form = LeagueCreateForm()
    game = form["game"].value() or Game.Engine.values[0]  # the first game listed, as the page shows
    players = int(form["players_per_table"].value())

    page = html.unescape(client.get("/leagues/new/").content.decode())

    assert re.search(r'<option value="daily" selected>Daily: ', page)
    assert "The default, Daily, is the same as for a single game." in page
    expected = estimates.estimate_for(engine=game, players=players, length=None, control=DEFAULT_CONTROL)
    assert f"Expected duration: {expected.text()}" in page
    assert 'data-control-field="timing_preset"' in page and 'data-estimate-url="/games/estimate/"' in page
