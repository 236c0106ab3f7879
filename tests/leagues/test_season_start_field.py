"""The manage page's season start: a date-time field read in the organiser's own time zone."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from apps.leagues.models import League, Season

pytestmark = pytest.mark.django_db


def test_a_season_start_picked_on_the_page_is_read_in_the_organisers_time_zone(
    toy_league: League, organiser: Any
) -> None:
    organiser.profile.time_zone = "Asia/Shanghai"
    organiser.profile.save()
    client = Client()
    client.force_login(organiser)

    page = client.get(f"/leagues/{toy_league.slug}/manage/").content.decode()
    client.post(
        f"/leagues/{toy_league.slug}/manage/season/",
        {"starts_at": "2030-01-05T19:30", "rounds": 3, "round_interval_days": 7},
    )

    assert 'type="datetime-local" name="starts_at"' in page
    assert "In your time zone (China (Shanghai) Time)." in page
    season = Season.objects.get(league=toy_league)
    assert season.starts_at == datetime(2030, 1, 5, 19, 30, tzinfo=ZoneInfo("Asia/Shanghai"))
