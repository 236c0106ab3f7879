"""Time left before a deadline, in words people read at a glance ("4 min 12 s", "2 days 3 h").

``static/js/countdown.js`` writes the same words in the browser each second; the server writes them
once, so a page without JavaScript still says how long is left.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from apps.games.clock import banks
from apps.games.clock.controls import Control
from apps.games.clock.deadlines import vacation_left
from apps.games.clock.words import control_name as control_name  # pages import it from here too

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR

#: A deadline turns urgent when this share of its decision's time is left, or less (never under a minute).
URGENT_SHARE = 0.2
URGENT_MIN_SECONDS = 60


#: The short units of a time left; ``static/js/countdown.js`` gets the same words from the page.
UNITS = {
    "d": pgettext_lazy("days left, short", "%(n)s d"),
    "h": pgettext_lazy("hours left, short", "%(n)s h"),
    "min": pgettext_lazy("minutes left, short", "%(n)s min"),
    "s": pgettext_lazy("seconds left, short", "%(n)s s"),
}
DUE_NOW = gettext_lazy("due now")
LEFT = gettext_lazy("%(time)s left")


def _days(n: int) -> str:
    return ngettext("%(n)s day", "%(n)s days", n) % {"n": n}


def _unit(unit: str, n: int) -> str:
    return str(UNITS[unit]) % {"n": n}


def time_left_words(seconds: float) -> str:
    """The two largest units of what is left: ``42 s``, ``4 min 12 s``, ``3 h 5 min``, ``2 days 3 h``."""
    left = int(seconds)
    if left <= 0:
        return str(DUE_NOW)
    days, rest = divmod(left, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    if days:
        return _days(days) + (f" {_unit('h', hours)}" if hours else "")
    if hours:
        return _unit("h", hours) + (f" {_unit('min', minutes)}" if minutes else "")
    if minutes:
        return _unit("min", minutes) + (f" {_unit('s', secs)}" if secs else "")
    return _unit("s", secs)


def time_left_phrase(seconds: float) -> str:
    """``4 min 12 s left``, or ``due now`` once the deadline has passed."""
    words = time_left_words(seconds)
    return words if int(seconds) <= 0 else str(LEFT) % {"time": words}


def bank_words(span: timedelta) -> str:
    """A bank left, short: ``2 d 4 h``, ``5 h 30 min``, ``12 min``, ``40 s``, ``0 s``."""
    seconds = max(0, int(span.total_seconds()))
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    if days:
        return _unit("d", days) + (f" {_unit('h', hours)}" if hours else "")
    if hours:
        return _unit("h", hours) + (f" {_unit('min', minutes)}" if minutes else "")
    if minutes:
        return _unit("min", minutes)
    return _unit("s", secs)


def span_text(span: timedelta) -> str:
    """``3 days``, ``1 day``, ``12 hours``, ``90 minutes``, ``30 s`` …: a control's values in words.

    A value that is not a whole number of days, hours or minutes is written as the clocks write time
    (``time_left_words``: ``1 min 12 s``, ``1 day 1 h``), never rounded to a misleading whole unit.
    """
    seconds = int(span.total_seconds())
    if seconds < MINUTE:
        return _unit("s", max(0, seconds))
    if seconds % DAY == 0:
        return _days(seconds // DAY)
    if seconds % HOUR == 0:
        return ngettext("%(n)s hour", "%(n)s hours", seconds // HOUR) % {"n": seconds // HOUR}
    if seconds % MINUTE == 0:
        return ngettext("%(n)s minute", "%(n)s minutes", seconds // MINUTE) % {"n": seconds // MINUTE}
    return time_left_words(seconds)


def per_move_text(control: Control) -> str:
    """``+1 day per move, up to 5 days`` in the reader's language."""
    return _("+%(increment)s per move, up to %(cap)s") % {
        "increment": span_text(control.increment),
        "cap": span_text(control.cap),
    }


def control_summary(control: Control) -> str:
    """``3 days, +1 day per move, up to 5 days`` (and ``, weekends off``) in the reader's language."""
    text = pgettext("time control summary", "%(initial)s, %(per_move)s") % {
        "initial": span_text(control.initial),
        "per_move": per_move_text(control),
    }
    return _("%(summary)s, weekends off") % {"summary": text} if control.weekends_off else text


def urgent_seconds(length: timedelta | None) -> int:
    """From how many seconds left a deadline of a decision lasting ``length`` is shown as urgent."""
    if length is None:
        return URGENT_MIN_SECONDS
    return max(URGENT_MIN_SECONDS, int(length.total_seconds() * URGENT_SHARE))


def seconds_until(deadline: datetime, now: datetime) -> int:
    """Whole seconds from ``now`` to ``deadline`` (0 once it has passed)."""
    return max(0, int((deadline - now).total_seconds()))


def vacation_left_words(profile: Any, now: datetime | None = None) -> str:
    """What is left of this year's vacation, in words ("29 days 4 h"; "no time" when spent)."""
    left = vacation_left(profile, now).total_seconds()
    return time_left_words(left) if left >= 1 else _("no time")


def clock_line(*, game: Any, seat: Any, decision: Any | None, now: datetime | None = None) -> str:
    """The recipient's own bank in a "your move" mail: ``Your clock: 2 d 4 h left (+1 day per move, up
    to 5 days)``. ``seat``: their Seat row; ``decision``: their open Decision row (None: none)."""
    control = game.seat_control(seat.position)
    if decision is not None and banks.runs_on_bank(decision.timing):
        if decision.deadline is not None:
            left = banks.left_before(decision.deadline, now or datetime.now(UTC), seat, control)
        else:
            left = decision.remaining or timedelta(0)
    else:
        left = banks.bank_left(seat, control)
    words = {"left": bank_words(left), "per_move": per_move_text(control)}
    return _("Your clock: %(left)s left (%(per_move)s)") % words
