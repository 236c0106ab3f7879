"""``{% countdown deadline %}``: a deadline as the time left and the absolute time in the viewer's zone.

The element carries ``data-deadline`` (ISO 8601) and ``data-urgent`` (seconds) for
``static/js/countdown.js``, which ticks it each second; the words written here are what a page without
JavaScript shows. The absolute time is rendered in the active time zone: the signed-in player's
profile zone (``UserTimezoneMiddleware``). When that is UTC (a visitor, or a player who has not chosen a
zone) the script rewrites it in the browser's own zone, so nobody reads UTC unless it is theirs.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from apps.games.clock.controls import Control
from apps.games.presenters import timeleft
from apps.games.presenters.timeleft import seconds_until, time_left_phrase, time_left_words, urgent_seconds

register = template.Library()


@register.inclusion_tag("games/_countdown.html")
def countdown(deadline: datetime | None, length: timedelta | int | None = None) -> dict[str, object]:
    """A countdown to ``deadline`` ("4 min 12 s left (Tue 2 Dec, 14:03 UTC+1)"); ``length``: the decision's
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


@register.filter
def control_summary(control: Control) -> str:
    """``{{ control|control_summary }}``: ``3 days, +1 day per move, up to 5 days``, translated."""
    return timeleft.control_summary(control)


@register.filter
def control_name(name: str) -> str:
    """``{{ control.name|control_name }}``: ``Daily`` in the reader's language."""
    return timeleft.control_name(name)


@register.simple_tag
def site_words() -> SafeString:
    """The words the page's scripts write (countdowns, the replay slider, the new-game form), in the
    page's language, as JSON in a ``<meta>`` the scripts read (``static/js/words.js``; no inline script
    under the page's Content-Security-Policy); placeholders as in the catalogue (``%(n)s``)."""
    words = {
        "due_now": timeleft.DUE_NOW,
        "left": timeleft.LEFT,
        "day": ngettext("%(n)s day", "%(n)s days", 1),
        "days": ngettext("%(n)s day", "%(n)s days", 2),
        "h": timeleft.UNITS["h"],
        "min": timeleft.UNITS["min"],
        "s": timeleft.UNITS["s"],
        "zone_title": _("your browser's time zone: %(zone)s"),
        "step_of": _("Step %(step)s of %(n)s"),
        "expected": _("Expected duration: %(text)s"),
        "no_estimate": _("No estimate for these settings: %(detail)s"),
        "you": pgettext("seat summary", "you"),
        "invited": _("%(n)s invited"),
        "bot": ngettext("%(n)s bot", "%(n)s bots", 1),
        "bots": ngettext("%(n)s bot", "%(n)s bots", 2),
        "open_seat": ngettext(
            "%(n)s seat open for players with the invitation link",
            "%(n)s seats open for players with the invitation link",
            1,
        ),
        "open_seats": ngettext(
            "%(n)s seat open for players with the invitation link",
            "%(n)s seats open for players with the invitation link",
            2,
        ),
        "listed_seat": ngettext(
            "%(n)s seat open for anybody from the open tables, or with the invitation link",
            "%(n)s seats open for anybody from the open tables, or with the invitation link",
            1,
        ),
        "listed_seats": ngettext(
            "%(n)s seat open for anybody from the open tables, or with the invitation link",
            "%(n)s seats open for anybody from the open tables, or with the invitation link",
            2,
        ),
        "table_full": _("An open table needs a free seat: choose people (or some bots) for the other seats."),
        "list_separator": pgettext("list separator", ", "),
        "seat_summary": _("%(n)s seats: %(parts)s."),
        "too_many": _("That is more than the seats: fewer bots or invitations."),
    }
    text = json.dumps({key: str(value) for key, value in words.items()})
    return format_html('<meta name="baogame-words" content="{}">', text)
