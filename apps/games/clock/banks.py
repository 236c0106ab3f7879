"""Seats' time banks on a locked game: opening a decision on the owner's bank, debiting it when the
decision closes, stopping and restarting it (pause, vacation).

A seat's bank runs only while the seat owes a decision other than a plucking window (those last the
control's fixed ``reaction``). The decision's deadline is the moment the owner's bank runs out
(``controls.runs_out_at``, weekends off in the owner's own time zone); the bank left when it closes is
the bank time up to that deadline (``controls.charged``), plus the increment, never past the cap
(``controls.after_answer``). A timeout closes it with nothing left: the seat gets the increment only.

What the others see of a bank (``Seat.bank_seconds``, ``bank_since``, ``bank_runs_out_at``) must not
tell who has answered a simultaneous decision that is still open (BB-30.6: the setup peek): a hidden
answer puts the new bank in the private ``bank_pending_seconds`` and leaves the public bank running as
if the seat still owed; the next public move makes it the bank.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from .. import store
from . import controls
from .controls import Control

if TYPE_CHECKING:
    from ..models import Decision, Seat
    from ..store import LockedGame

#: The seat fields a bank change writes.
BANK_FIELDS = ["bank_seconds", "bank_since", "bank_runs_out_at", "bank_pending_seconds"]


def runs_on_bank(timing_class: str) -> bool:
    """Whether a decision of this timing class runs on its owner's bank (all but plucking windows)."""
    return timing_class != "reaction"


def zone_of(seat: Seat, control: Control) -> tzinfo:
    """The seat's player's time zone, when weekends are off (else UTC: it does not matter)."""
    if not control.weekends_off or seat.user_id is None:
        return UTC
    profile = getattr(seat.user, "profile", None)
    return profile.zone if profile is not None else UTC


def bank_left(seat: Seat, control: Control) -> timedelta:
    """The seat's bank as it stands between decisions (the private one after a hidden answer)."""
    if seat.bank_pending_seconds is not None:
        return timedelta(seconds=seat.bank_pending_seconds)
    if seat.bank_seconds is None:
        return control.initial
    return timedelta(seconds=seat.bank_seconds)


def deadline_after(bank: timedelta, now: datetime, seat: Seat, control: Control) -> datetime:
    """When ``bank``, running from ``now``, is empty (the owner's weekends off)."""
    return controls.runs_out_at(bank, now, weekends_off=control.weekends_off, tz=zone_of(seat, control))


def left_before(deadline: datetime, now: datetime, seat: Seat, control: Control) -> timedelta:
    """The bank time left from ``now`` to a running bank's ``deadline``."""
    return controls.charged(now, deadline, weekends_off=control.weekends_off, tz=zone_of(seat, control))


class BankBook:
    """The bank changes of one move on a locked game; ``write`` adds one UPDATE per seat changed."""

    def __init__(self, locked: LockedGame, now: datetime) -> None:
        self.locked = locked
        self.now = now
        self.control = locked.game.time_control
        self.changed: dict[int, Seat] = {}

    def control_for(self, seat: Seat) -> Control:
        """The control of the seat's bank: during a sitting, the live control only for the seats that
        play live; an absent seat stays on the game's own control (``Game.seat_control``)."""
        if self.locked.game.live_clock is None:
            return self.control
        return self.locked.game.seat_control(seat.position)

    def open(
        self, seat: Seat, *, held: bool, paused: bool, sharing: Decision | None
    ) -> tuple[datetime | None, timedelta | None]:
        """``(deadline, remaining)`` of a decision the seat starts to owe now, on its bank; ``sharing``:
        a bank decision of the seat still open (its clock is the same bank)."""
        if sharing is not None:
            return sharing.deadline, sharing.remaining
        control = self.control_for(seat)
        bank = bank_left(seat, control)
        seat.bank_seconds, seat.bank_since, seat.bank_pending_seconds = bank.total_seconds(), self.now, None
        if held or paused:
            seat.bank_runs_out_at = None
            self.changed[seat.position] = seat
            return None, bank
        seat.bank_runs_out_at = deadline_after(bank, self.now, seat, control)
        self.changed[seat.position] = seat
        return seat.bank_runs_out_at, None

    def close(self, row: Decision, seat: Seat, *, hidden: bool) -> None:
        """The seat no longer owes ``row`` (answered, timed out, or the decision went): debit the
        bank time it used and add the increment. ``hidden``: the answer stays unknown to the others."""
        control = self.control_for(seat)
        if row.deadline is not None:
            left = left_before(row.deadline, self.now, seat, control)
        else:
            left = row.remaining or timedelta(0)
        new = controls.after_answer(left, control).total_seconds()
        if hidden:
            seat.bank_pending_seconds = new
        else:
            seat.bank_seconds, seat.bank_since, seat.bank_runs_out_at = new, None, None
            seat.bank_pending_seconds = None
        self.changed[seat.position] = seat

    def publish(self) -> None:
        """A public move: every bank changed by a hidden answer becomes the public bank."""
        for seat in self.locked.seats.values():
            if seat.bank_pending_seconds is not None:
                seat.bank_seconds, seat.bank_since, seat.bank_runs_out_at = (
                    seat.bank_pending_seconds,
                    None,
                    None,
                )
                seat.bank_pending_seconds = None
                self.changed[seat.position] = seat

    def write(self) -> None:
        for seat in self.changed.values():
            self.locked.writes.append(store.update_seat(seat, BANK_FIELDS))
        self.changed = {}


# --- stopping and restarting (pause, vacation) ---------------------------------------------------------


def stop(seat: Seat, control: Control, now: datetime) -> timedelta:
    """Stop the seat's running public bank; returns the bank left."""
    if seat.bank_runs_out_at is None:
        return timedelta(seconds=seat.bank_seconds or 0)
    left = left_before(seat.bank_runs_out_at, now, seat, control)
    seat.bank_seconds, seat.bank_runs_out_at = left.total_seconds(), None
    return left


def restart(seat: Seat, control: Control, now: datetime, left: timedelta) -> datetime:
    """Run the seat's bank again from ``now`` with ``left``; returns its new deadline."""
    seat.bank_seconds = left.total_seconds()
    seat.bank_runs_out_at = deadline_after(left, now, seat, control)
    return seat.bank_runs_out_at


def shown(seat: Seat, control: Control, *, own: bool) -> tuple[timedelta, datetime | None]:
    """``(bank, runs out at)`` of a seat as a viewer may see it: the bank when it last started or
    stopped running, and while it runs the moment it is empty (None otherwise), so a read does not
    change as time passes. ``own``: the viewer is the seat's player, who sees the bank their hidden
    answer left."""
    if own and seat.bank_pending_seconds is not None:
        return timedelta(seconds=seat.bank_pending_seconds), None
    return bank_left_public(seat, control), seat.bank_runs_out_at


def bank_left_public(seat: Seat, control: Control) -> timedelta:
    """The public bank of a seat whose bank is not running."""
    return control.initial if seat.bank_seconds is None else timedelta(seconds=seat.bank_seconds)
