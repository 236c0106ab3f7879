"""Times on pages: in the reader's zone, the zone as its offset ("UTC+8"), never an abbreviation that
names two zones ("CST": China and US Central) (``apps.accounts.local_times``)."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime

import pytest
from django.utils import timezone, translation

from apps.accounts.local_times import format_local, utc_offset

MOMENT = datetime(2026, 1, 15, 12, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("zone", "offset"),
    [
        ("Asia/Shanghai", "UTC+8"),
        ("America/Chicago", "UTC-6"),
        ("Asia/Kolkata", "UTC+5:30"),
        ("America/St_Johns", "UTC-3:30"),
        ("Asia/Kathmandu", "UTC+5:45"),
        ("Europe/London", "UTC"),
    ],
)
def test_the_offset_names_one_time_where_the_abbreviation_names_two(zone: str, offset: str) -> None:
    assert utc_offset(MOMENT.astimezone(zoneinfo.ZoneInfo(zone))) == offset


def test_shanghai_and_chicago_no_longer_read_alike() -> None:
    """Both zones abbreviate to "CST"; the page wrote "Thu 15 Jan, 20:30 CST" for Shanghai."""
    with timezone.override("Asia/Shanghai"):
        shanghai = format_local(MOMENT, "D j M, H:i T")
    with timezone.override("America/Chicago"):
        chicago = format_local(MOMENT, "D j M, H:i T")

    assert shanghai == "Thu 15 Jan, 20:30 UTC+8"
    assert chicago == "Thu 15 Jan, 06:30 UTC-6"


def test_the_offset_follows_summer_time() -> None:
    summer = datetime(2026, 7, 15, 12, 30, tzinfo=UTC)

    with timezone.override("Europe/Berlin"):
        assert format_local(MOMENT, "H:i T") == "13:30 UTC+1"
        assert format_local(summer, "H:i T") == "14:30 UTC+2"


def test_the_translated_format_places_the_offset_and_keeps_its_escaped_letters() -> None:
    """The Chinese format ("n月j日 D H:i T") puts the zone where the translator wants it; an escaped
    ``\\T`` stays a letter."""
    with timezone.override("Asia/Shanghai"), translation.override("zh-hans"):
        chinese = format_local(MOMENT, "n月j日 D H:i T")
    with timezone.override("Asia/Shanghai"):
        escaped = format_local(MOMENT, "Y-m-d\\TH:i T")

    assert chinese == "1月15日 星期四 20:30 UTC+8"
    assert escaped == "2026-01-15T20:30 UTC+8"
