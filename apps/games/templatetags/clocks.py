"""``{% countdown deadline %}``: a deadline as the time left and the absolute time in the viewer's zone.

The element carries ``data-deadline`` (ISO 8601) and ``data-urgent`` (seconds) for
``static/js/countdown.js``, which ticks it each second; the words written here are what a page without
JavaScript shows. The absolute time is rendered in the active time zone: the signed-in player's
profile zone (``UserTimezoneMiddleware``). When that is UTC (a visitor, or a player who has not chosen a
zone) the script rewrites it in the browser's own zone, so nobody reads UTC unless it is theirs.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone

from apps.games.presenters.timeleft import seconds_until, time_left_phrase, time_left_words, urgent_seconds

register = template.Library()


@register.inclusion_tag("games/_countdown.html")
def countdown(deadline: datetime | None, length: timedelta | int | None = None) -> dict[str, object]:
    """A countdown to ``deadline`` ("4 min 12 s left (Tue 2 Dec, 14:03 CET)"); ``length``: the decision's
    whole time (seconds or a timedelta), which sets when it turns urgent."""
    if deadline is None:
        return {"deadline": None}
    if isinstance(length, int):
        length = timedelta(seconds=length)
    left = seconds_until(deadline, timezone.now())
    urgent_at = urgent_seconds(length)
    return {
        "deadline": deadline,
        "iso": deadline.isoformat(),
        "words": time_left_phrase(left),
        "urgent_at": urgent_at,
        "urgent": left <= urgent_at,
        "zone": timezone.get_current_timezone_name(),
    }


@register.filter
def time_left(seconds: float | int | None) -> str:
    """``{{ seconds|time_left }}``: seconds in words (``2 days 3 h``)."""
    return "" if seconds is None else time_left_words(seconds)
