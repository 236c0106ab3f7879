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


def _windows(
    *, start: time, end: time, zone: zoneinfo.ZoneInfo, moment: datetime
) -> list[tuple[datetime, datetime]]:
    """The windows (begin, end in UTC) beginning on the local day before ``moment``'s and on its own."""
    local_day = moment.astimezone(zone).date()
    return [
        (_at(first, start, zone), _at(first + timedelta(days=1) if end <= start else first, end, zone))
        for first in (local_day - timedelta(days=1), local_day)
    ]


def window_end(
    *, start: time | None, end: time | None, zone: zoneinfo.ZoneInfo, moment: datetime
) -> datetime | None:
    """When the quiet window holding ``moment`` ends (UTC), or None when ``moment`` is not inside one."""
    if start is None or end is None or start == end:
        return None
    moment = moment.astimezone(UTC)
    for begins, ends in _windows(start=start, end=end, zone=zone, moment=moment):
        if begins <= moment < ends:
            return ends
    return None


def window_began(
    *, start: time | None, end: time | None, zone: zoneinfo.ZoneInfo, moment: datetime
) -> datetime | None:
    """When the last quiet window to begin at or before ``moment`` began (UTC): at a window's end, the
    start of the window just over; None without quiet hours."""
    if start is None or end is None or start == end:
        return None
    moment = moment.astimezone(UTC)
    return max(
        begins for begins, _ in _windows(start=start, end=end, zone=zone, moment=moment) if begins <= moment
    )


def quiet_until(prefs: MailSettings, zone: zoneinfo.ZoneInfo, moment: datetime) -> datetime | None:
    """The end of the person's quiet hours if ``moment`` falls inside them."""
    return window_end(start=prefs.quiet_start, end=prefs.quiet_end, zone=zone, moment=moment)


def quiet_began(prefs: MailSettings, zone: zoneinfo.ZoneInfo, moment: datetime) -> datetime | None:
    """When the person's last quiet hours to begin at or before ``moment`` began."""
    return window_began(start=prefs.quiet_start, end=prefs.quiet_end, zone=zone, moment=moment)


def reminder_may_break(deadline: datetime | None, quiet_end: datetime) -> bool:
    """A reminder is sent inside quiet hours when its deadline falls inside them or within an hour after."""
    return deadline is not None and deadline <= quiet_end + REMINDER_GRACE
