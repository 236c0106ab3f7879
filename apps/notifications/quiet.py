"""Quiet hours: a daily window, in the person's own time zone, in which no mail goes out.

A window may run across midnight (22:00-07:00). Times are local wall-clock times, so on the night a
clock changes the window lasts an hour more or less in real time; a local start or end that does not
exist that night (skipped by the change) is read as the same wall time after the change.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, date, datetime, time, timedelta

from .models import MailSettings

#: A reminder is sent inside quiet hours when its deadline falls before they end plus this much.
REMINDER_GRACE = timedelta(hours=1)


def _at(day: date, moment: time, zone: zoneinfo.ZoneInfo) -> datetime:
    """The UTC instant of a local wall-clock time on ``day`` (fold 0 for a repeated hour)."""
    return datetime.combine(day, moment, tzinfo=zone).astimezone(UTC)


def window_end(
    *, start: time | None, end: time | None, zone: zoneinfo.ZoneInfo, moment: datetime
) -> datetime | None:
    """When the quiet window holding ``moment`` ends (UTC), or None when ``moment`` is not inside one."""
    if start is None or end is None or start == end:
        return None
    moment = moment.astimezone(UTC)
    local_day = moment.astimezone(zone).date()
    for first in (local_day - timedelta(days=1), local_day):
        begins = _at(first, start, zone)
        ends = _at(first + timedelta(days=1) if end <= start else first, end, zone)
        if begins <= moment < ends:
            return ends
    return None


def quiet_until(prefs: MailSettings, zone: zoneinfo.ZoneInfo, moment: datetime) -> datetime | None:
    """The end of the person's quiet hours if ``moment`` falls inside them."""
    return window_end(start=prefs.quiet_start, end=prefs.quiet_end, zone=zone, moment=moment)


def reminder_may_break(deadline: datetime | None, quiet_end: datetime) -> bool:
    """A reminder is sent inside quiet hours when its deadline falls inside them or within an hour after."""
    return deadline is not None and deadline <= quiet_end + REMINDER_GRACE
