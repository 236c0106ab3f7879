"""What others are told about a player on vacation: the planned return if given, else since when.

The end of the yearly budget is never shown to others: read as "away until", it looks like a month
away. The player's own pages show their budget.
"""

from __future__ import annotations

from datetime import date, datetime

from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from baogame.rules.core import RuleError

from .models import Profile


def planned_return_set(*, profile: Profile, returns_on: date | None, now: datetime | None = None) -> Profile:
    """Record (or clear, with None) the planned return of a vacation; refused for a day already past
    in the player's time zone (``invalid_return_date``)."""
    today = timezone.localtime(now or timezone.now(), profile.zone).date()
    if returns_on is not None and returns_on < today:
        raise RuleError("invalid_return_date", "the planned return is a day already past")
    profile.vacation_returns_on = returns_on
    profile.save(update_fields=["vacation_returns_on"])
    return profile


def planned_return(profile: Profile, now: datetime | None = None) -> date | None:
    """The planned return of a running vacation, while it is today or later (a stale one: None)."""
    if profile.vacation_started_at is None or profile.vacation_returns_on is None:
        return None
    today = timezone.localtime(now or timezone.now(), profile.zone).date()
    return profile.vacation_returns_on if profile.vacation_returns_on >= today else None


def day_words(day: date, today: date) -> str:
    """``Tue 8 Dec``, with the year when it is not ``today``'s (a return planned for next June)."""
    if day.year == today.year:
        return dateformat.format(day, pgettext("weekday and date", "D j M"))
    return dateformat.format(day, pgettext("weekday, date and year", "D j M Y"))


def away_words(profile: Profile, now: datetime | None = None) -> str | None:
    """``away until Tue 8 Dec`` (the planned return), else ``away since Sat 5 Dec``; None when home."""
    if profile.vacation_started_at is None:
        return None
    back = planned_return(profile, now)
    today = timezone.localtime(now or timezone.now(), profile.zone).date()
    if back is not None:
        return _("away until %(date)s") % {"date": day_words(back, today)}
    since = timezone.localtime(profile.vacation_started_at, profile.zone)
    return _("away since %(date)s") % {"date": day_words(since.date(), today)}
