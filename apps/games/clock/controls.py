"""Time controls: Fischer time banks, pure (standard library only).

Each seat has a bank that runs only while the seat owes a decision. Answering adds the control's
increment, never past its cap. When a bank is empty, the decision times out (the engine's timeout
action). A plucking window is the table's, not a seat's: it lasts the control's fixed ``reaction``.
With ``weekends_off`` a bank does not run on Saturday and Sunday in the owner's own time zone; away
spans (vacation) do not count either.

Why these named defaults. The model of a person playing by correspondence (the one the pace
benchmark uses): the delay before each answer is log-normal with median 2 h and p90 12 h, so
sigma = ln(12 / 2) / 1.2816 = 1.40 and the mean delay is 2 h x exp(sigma^2 / 2) = 5.3 h. A bank
whose increment is well above the mean delay stays near its cap, so a decision times out only when
one delay exceeds what is left, roughly P(delay > bank):

- ``daily``: 3 days to start, +1 day per answer, up to 5 days. P(delay > 72 h) = P(z > 2.56) =
  0.5 % for a first decision; once the bank sits near its cap, P(delay > 120 h) = P(z > 2.93) =
  0.2 %. Far under the 10 % target, and a game still moves at about one answer a day at worst.
- ``relaxed``: 5 days, +2 days, up to 10 days: P(delay > 120 h) = 0.2 %, later 0.03 %.
- ``weekly``: 7 days, +3 days, up to 14 days: P(delay > 168 h) = 0.08 %, later < 0.01 %.
- ``live``: 15 minutes, +30 s, up to 15 minutes: for a table that is all present (a sitting);
  under the correspondence model almost every decision would time out (P(delay > 15 min) = 93 %),
  so it is not offered as a correspondence control's replacement.

The increment is also what bounds a game: a seat that always answers at the last moment uses its
initial bank plus one increment per later decision (``worst_case``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
ZERO = timedelta(0)


class ControlError(ValueError):
    """A time control that cannot be built; ``code`` is stable (``invalid_control``)."""

    def __init__(self, message: str, code: str = "invalid_control") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Control:
    """A Fischer time control."""

    name: str  # "live" | "daily" | "relaxed" | "weekly" | "custom"
    initial: timedelta  # the bank each seat starts with
    increment: timedelta  # added to the seat's bank when it answers a decision
    cap: timedelta  # the bank never exceeds this after an increment
    reaction: timedelta  # fixed length of a plucking window (the table's, not a seat's)
    weekends_off: bool = False

    def seconds(self) -> dict[str, int | str | bool]:
        """Plain data (for JSON and the database)."""
        data = asdict(self)
        for key in ("initial", "increment", "cap", "reaction"):
            data[key] = int(data[key].total_seconds())
        return data

    def values(self) -> dict[str, int]:
        """The four lengths in seconds (``initial``, ``increment``, ``cap``, ``reaction``): what a game
        stores (``Game.control_values``)."""
        return {key: int(getattr(self, key).total_seconds()) for key in CUSTOM_KEYS}

    def summary(self) -> str:
        """``"3 days, +1 day per move, up to 5 days"`` (and ``", weekends off"``)."""
        text = f"{span_words(self.initial)}, {self.per_move()}"
        return text + (", weekends off" if self.weekends_off else "")

    def per_move(self) -> str:
        """``"+1 day per move, up to 5 days"`` (a mail's clock line)."""
        return f"+{span_words(self.increment)} per move, up to {span_words(self.cap)}"


NAMED_CONTROLS: dict[str, Control] = {
    "live": Control("live", 15 * MINUTE, timedelta(seconds=30), 15 * MINUTE, 1 * MINUTE),
    "daily": Control("daily", 3 * DAY, 1 * DAY, 5 * DAY, 4 * HOUR),
    "relaxed": Control("relaxed", 5 * DAY, 2 * DAY, 10 * DAY, 12 * HOUR),
    "weekly": Control("weekly", 7 * DAY, 3 * DAY, 14 * DAY, 24 * HOUR),
}
DEFAULT_CONTROL = "daily"
CONTROL_NAMES = (*NAMED_CONTROLS, "custom")
CUSTOM_KEYS = ("initial", "increment", "cap", "reaction")
#: Bounds of a custom control, in seconds (the forms ask for at least a minute; tests and the
#: rehearsal use seconds).
CUSTOM_MAX = int((60 * DAY).total_seconds())
REACTION_MAX = int((7 * DAY).total_seconds())


def control_from(name: str, custom: Mapping[str, int] | None = None, weekends_off: bool = False) -> Control:
    """The control called ``name``; ``custom`` (seconds per key of ``CUSTOM_KEYS``) overrides a named
    control's values, and is required in full (``reaction`` optional) for ``"custom"``."""
    if name not in CONTROL_NAMES:
        raise ControlError(f"unknown time control {name!r}; choose one of {', '.join(CONTROL_NAMES)}")
    values = dict(custom or {})
    unknown = sorted(set(values) - set(CUSTOM_KEYS))
    if unknown:
        raise ControlError(f"unknown time control value {unknown[0]!r}")
    if name == "custom":
        missing = [key for key in ("initial", "increment", "cap") if key not in values]
        if missing:
            raise ControlError(f"a custom time control needs {', '.join(missing)}")
        base = NAMED_CONTROLS[DEFAULT_CONTROL]
    else:
        base = NAMED_CONTROLS[name]
    seconds = {key: int(getattr(base, key).total_seconds()) for key in CUSTOM_KEYS}
    for key, value in values.items():
        try:
            seconds[key] = int(value)
        except (TypeError, ValueError):
            raise ControlError(f"time control {key} must be a whole number of seconds") from None
    if name == "custom" and "reaction" not in values:
        seconds["reaction"] = default_reaction(seconds["initial"])
    _check(seconds)
    return Control(
        name=name,
        initial=timedelta(seconds=seconds["initial"]),
        increment=timedelta(seconds=seconds["increment"]),
        cap=timedelta(seconds=seconds["cap"]),
        reaction=timedelta(seconds=seconds["reaction"]),
        weekends_off=bool(weekends_off),
    )


def control_of(values: Mapping[str, int], name: str = "custom", weekends_off: bool = False) -> Control:
    """The control stored as plain seconds (``Control.seconds()``; a game's ``control_values``)."""
    return Control(
        name=name,
        initial=timedelta(seconds=int(values["initial"])),
        increment=timedelta(seconds=int(values["increment"])),
        cap=timedelta(seconds=int(values["cap"])),
        reaction=timedelta(seconds=int(values["reaction"])),
        weekends_off=weekends_off,
    )


def fixed_per_decision(seconds: int, reaction: int | None = None) -> dict[str, int]:
    """A custom control's values that give every decision the same time, as the old per-decision
    presets did: the increment and the cap equal the initial bank, so an answer refills the bank."""
    return {
        "initial": seconds,
        "increment": seconds,
        "cap": seconds,
        "reaction": reaction if reaction is not None else default_reaction(seconds),
    }


def default_reaction(initial_seconds: int) -> int:
    """A custom control's plucking window: 1/18 of the initial bank, between 1 minute (or the
    initial bank, when shorter) and 1 day (daily's 3 days give its 4 hours)."""
    return max(min(60, initial_seconds), min(int(DAY.total_seconds()), initial_seconds // 18))


def _check(seconds: Mapping[str, int]) -> None:
    if not 1 <= seconds["initial"] <= CUSTOM_MAX:
        raise ControlError("the initial bank must be between 1 second and 60 days")
    if not 0 <= seconds["increment"] <= CUSTOM_MAX:
        raise ControlError("the increment must be between 0 and 60 days")
    if not seconds["initial"] <= seconds["cap"] <= CUSTOM_MAX:
        raise ControlError("the cap must be at least the initial bank and at most 60 days")
    if not 1 <= seconds["reaction"] <= REACTION_MAX:
        raise ControlError("a reaction window must be between 1 second and 7 days")


def after_answer(bank_left: timedelta, control: Control) -> timedelta:
    """The bank after answering with ``bank_left`` remaining: ``min(bank_left + increment, cap)``
    (an empty bank, after a timeout, gets the increment too)."""
    return min(max(bank_left, ZERO) + control.increment, control.cap)


# --- time that counts ---------------------------------------------------------------------------------


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("clock times must be aware datetimes")
    return moment.astimezone(UTC)


def _weekends(start: datetime, end: datetime, tz: tzinfo) -> Iterator[tuple[datetime, datetime]]:
    """Saturday 00:00 to Monday 00:00 in ``tz``, as UTC spans, for every weekend meeting [start, end]."""
    first: date = start.astimezone(tz).date() - timedelta(days=7)
    last: date = end.astimezone(tz).date() + timedelta(days=1)
    day = first + timedelta(days=(5 - first.weekday()) % 7)
    while day <= last:
        begin = datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)
        finish = datetime.combine(day + timedelta(days=2), time(0), tzinfo=tz).astimezone(UTC)
        yield begin, finish
        day += timedelta(days=7)


def _stops(
    start: datetime,
    end: datetime,
    *,
    weekends_off: bool,
    tz: tzinfo,
    away: Sequence[tuple[datetime, datetime]],
) -> list[tuple[datetime, datetime]]:
    """The spans within [start, end] when a bank does not run, merged and sorted (UTC)."""
    spans = [(_utc(a), _utc(b)) for a, b in away]
    if weekends_off:
        spans.extend(_weekends(start, end, tz))
    clipped = sorted((max(a, start), min(b, end)) for a, b in spans if b > start and a < end and b > a)
    merged: list[tuple[datetime, datetime]] = []
    for a, b in clipped:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def charged(
    start: datetime,
    end: datetime,
    *,
    weekends_off: bool,
    tz: tzinfo,
    away: Sequence[tuple[datetime, datetime]] = (),
) -> timedelta:
    """The bank time used between ``start`` and ``end``: the span, less Saturdays and Sundays in
    ``tz`` when ``weekends_off``, less the ``away`` spans (each counted once)."""
    start, end = _utc(start), _utc(end)
    if end <= start:
        return ZERO
    stopped = sum((b - a for a, b in _stops(start, end, weekends_off=weekends_off, tz=tz, away=away)), ZERO)
    return (end - start) - stopped


def runs_out_at(
    bank: timedelta,
    start: datetime,
    *,
    weekends_off: bool,
    tz: tzinfo,
    away: Sequence[tuple[datetime, datetime]] = (),
) -> datetime:
    """When a bank of ``bank`` owed from ``start`` is empty: the decision's deadline (UTC). The
    inverse of ``charged``: ``charged(start, runs_out_at(bank, start, ...), ...) == bank``."""
    cursor = _utc(start)
    left = max(bank, ZERO)
    away_total = sum((_utc(b) - _utc(a) for a, b in away if b > a), ZERO)
    horizon = cursor + left * 2 + away_total + 7 * DAY
    while True:
        for a, b in _stops(cursor, horizon, weekends_off=weekends_off, tz=tz, away=away):
            if a - cursor >= left:
                return cursor + left
            left -= a - cursor
            cursor = b
        if horizon - cursor >= left:
            return cursor + left
        left -= horizon - cursor
        cursor = horizon
        horizon = cursor + left * 2 + 7 * DAY


def worst_case(control: Control, decisions_per_seat: int, seats: int) -> timedelta:
    """The longest a game with ``decisions_per_seat`` sequential decisions per seat can last if every
    seat always runs its bank out: each seat uses its initial bank, then one increment per later
    decision (an empty bank gets only the increment, ``after_answer``), one seat after another.
    With weekends off, every 5 days of bank can take 7 days of calendar, plus one weekend at the
    edge. Plucking windows are not counted (each lasts ``reaction`` at most)."""
    if decisions_per_seat <= 0 or seats <= 0:
        return ZERO
    per_seat = control.initial + (decisions_per_seat - 1) * min(control.increment, control.cap)
    bank_time = per_seat * seats
    if not control.weekends_off:
        return bank_time
    weeks, rest = divmod(bank_time, 5 * DAY)
    return weeks * 7 * DAY + rest + (2 * DAY if rest else ZERO)


# --- words --------------------------------------------------------------------------------------------


def span_words(span: timedelta) -> str:
    """``3 days``, ``1 day``, ``12 hours``, ``90 minutes``, ``30 s`` …: a control's values in words.

    A value that is not a whole number of days, hours or minutes is written as the clocks write time
    (its two largest units: ``1 min 12 s``, ``1 day 1 h``), never rounded to a misleading whole unit.
    """
    seconds = max(0, int(span.total_seconds()))
    if seconds >= 60:
        for unit, name in ((86400, "day"), (3600, "hour"), (60, "minute")):
            if seconds % unit == 0:
                count = seconds // unit
                return f"{count} {name}{'' if count == 1 else 's'}"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} day{'' if days == 1 else 's'}" + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    if minutes:
        return f"{minutes} min" + (f" {secs} s" if secs else "")
    return f"{secs} s"


def bank_words(span: timedelta) -> str:
    """A bank left, short: ``2 d 4 h``, ``5 h 30 min``, ``12 min``, ``40 s``, ``0 s``."""
    seconds = max(0, int(span.total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"
