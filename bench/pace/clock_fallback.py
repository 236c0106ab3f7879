"""A stand-in for the clock's controls module while it is not there yet (same names, same meaning)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

H = timedelta(hours=1)
D = timedelta(days=1)


@dataclass(frozen=True)
class Control:
    name: str
    initial: timedelta
    increment: timedelta
    cap: timedelta
    reaction: timedelta
    weekends_off: bool = False


NAMED_CONTROLS = {
    "live": Control(
        "live",
        15 * timedelta(minutes=1),
        30 * timedelta(seconds=1),
        15 * timedelta(minutes=1),
        timedelta(seconds=20),
    ),
    "daily": Control("daily", 3 * D, 1 * D, 3 * D, 4 * H),
    "relaxed": Control("relaxed", 7 * D, 2 * D, 7 * D, 12 * H),
    "weekly": Control("weekly", 14 * D, 7 * D, 14 * D, 1 * D),
}
DEFAULT_CONTROL = NAMED_CONTROLS["daily"]


def _weekend(t: datetime) -> bool:
    return t.weekday() >= 5


def charged(
    start: datetime,
    end: datetime,
    *,
    weekends_off: bool,
    tz: str,
    away: Sequence[tuple[datetime, datetime]] = (),
) -> timedelta:
    total = end - start
    if not weekends_off:
        return total
    t, off = start, timedelta(0)
    while t < end:
        nxt = min(end, (t + D).replace(hour=0, minute=0, second=0, microsecond=0))
        if _weekend(t):
            off += nxt - t
        t = nxt
    return total - off


def runs_out_at(
    bank: timedelta,
    start: datetime,
    *,
    weekends_off: bool,
    tz: str,
    away: Sequence[tuple[datetime, datetime]] = (),
) -> datetime:
    if not weekends_off:
        return start + bank
    t, left = start, bank
    while True:
        nxt = (t + D).replace(hour=0, minute=0, second=0, microsecond=0)
        if not _weekend(t):
            if t + left <= nxt:
                return t + left
            left -= nxt - t
        t = nxt


def after_answer(bank_left: timedelta, control: Control) -> timedelta:
    return min(control.cap, bank_left + control.increment)


def worst_case(control: Control, decisions_per_seat: int, seats: int) -> timedelta:
    per_seat = min(
        control.initial + control.increment * max(0, decisions_per_seat - 1), control.cap * decisions_per_seat
    )
    return per_seat * seats
