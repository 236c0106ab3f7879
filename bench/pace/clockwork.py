"""The clock as the pace simulation uses it: named controls and a seat's bank in simulated seconds.

Simulated time is seconds since ``EPOCH`` (a Monday morning, UTC). Everything a bank does — what an
answer is charged, when a bank runs out, what it holds after an answer, a control's worst case — is
the clock's own logic (``apps.games.clock.controls``); this module only converts between simulated
seconds and the clock's datetimes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from apps.games.clock import controls

from .model import DAY

#: Simulated time 0: Monday 4 January 2027, 09:00 UTC.
EPOCH = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)
TZ = UTC


@dataclass(frozen=True)
class PaceControl:
    """A time control in seconds (the clock's ``Control``, kept beside it as ``source``)."""

    name: str
    initial: float
    increment: float
    cap: float
    reaction: float
    weekends_off: bool
    source: Any = None


def at(t: float) -> datetime:
    """The datetime of simulated second ``t``."""
    return EPOCH + timedelta(seconds=t)


def seconds(value: Any) -> float:
    """Seconds of a timedelta or a number of seconds."""
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _adapt(control: Any) -> PaceControl:
    return PaceControl(
        name=control.name,
        initial=seconds(control.initial),
        increment=seconds(control.increment),
        cap=seconds(control.cap),
        reaction=seconds(control.reaction),
        weekends_off=bool(control.weekends_off),
        source=control,
    )


def _controls() -> Any:
    """The clock's pure module of controls and banks."""
    return controls


def make_control(
    name: str, *, initial: float, increment: float, cap: float, reaction: float, weekends_off: bool = False
) -> PaceControl:
    """A custom control (seconds), as the clock would build it."""
    control = _controls().Control(
        name=name,
        initial=timedelta(seconds=initial),
        increment=timedelta(seconds=increment),
        cap=timedelta(seconds=cap),
        reaction=timedelta(seconds=reaction),
        weekends_off=weekends_off,
    )
    return _adapt(control)


def named_controls() -> dict[str, PaceControl]:
    """The site's named controls, by name, in the clock's order."""
    controls = _controls()
    return {name: _adapt(control) for name, control in controls.NAMED_CONTROLS.items()}


def default_control() -> str:
    """The name of the control a new game gets when nobody chooses one."""
    default = _controls().DEFAULT_CONTROL
    return str(getattr(default, "name", default))


class Bank:
    """One seat's time bank in simulated seconds."""

    def __init__(self, control: PaceControl) -> None:
        self._controls = _controls()
        self.control = control
        self.left = control.initial

    def runs_out_at(self, start: float) -> float:
        """The simulated second at which the bank is empty if the decision opened at ``start`` is owed."""
        c = self.control
        end = self._controls.runs_out_at(
            timedelta(seconds=self.left), at(start), weekends_off=c.weekends_off, tz=TZ
        )
        return (end - EPOCH).total_seconds()

    def answer(self, start: float, end: float, *, timed_out: bool) -> None:
        """Charge the decision owed from ``start`` to ``end``, then add the increment (capped)."""
        c = self.control
        used = seconds(self._controls.charged(at(start), at(end), weekends_off=c.weekends_off, tz=TZ))
        left = 0.0 if timed_out else max(0.0, self.left - used)
        self.left = seconds(self._controls.after_answer(timedelta(seconds=left), c.source))

    def charge(self, start: float, end: float) -> None:
        """Charge the bank time used from ``start`` to ``end`` without an answer's increment: the bank
        stopped there (a sitting's start: the player plays on a live bank and gets this one back)."""
        c = self.control
        used = seconds(self._controls.charged(at(start), at(end), weekends_off=c.weekends_off, tz=TZ))
        self.left = max(0.0, self.left - used)


def worst_case_days(control: PaceControl, decisions_per_seat: int, seats: int) -> float:
    """The clock's worst case for a game with this many decisions per seat, in days."""
    return seconds(_controls().worst_case(control.source, decisions_per_seat, seats)) / DAY
