"""Time left before a deadline, in words people read at a glance ("4 min 12 s", "2 days 3 h").

``static/js/countdown.js`` writes the same words in the browser each second; the server writes them
once, so a page without JavaScript still says how long is left.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from apps.games.clock import banks
from apps.games.clock.controls import bank_words
from apps.games.clock.deadlines import vacation_left

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR

#: A deadline turns urgent when this share of its decision's time is left, or less (never under a minute).
URGENT_SHARE = 0.2
URGENT_MIN_SECONDS = 60


def time_left_words(seconds: float) -> str:
    """The two largest units of what is left: ``42 s``, ``4 min 12 s``, ``3 h 5 min``, ``2 days 3 h``."""
    left = int(seconds)
    if left <= 0:
        return "due now"
    days, rest = divmod(left, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    if days:
        return f"{days} day{'s' if days != 1 else ''}" + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    if minutes:
        return f"{minutes} min" + (f" {secs} s" if secs else "")
    return f"{secs} s"


def time_left_phrase(seconds: float) -> str:
    """``4 min 12 s left``, or ``due now`` once the deadline has passed."""
    words = time_left_words(seconds)
    return words if int(seconds) <= 0 else f"{words} left"


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
    return time_left_words(left) if left >= 1 else "no time"


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
    return f"Your clock: {bank_words(left)} left ({control.per_move()})"
