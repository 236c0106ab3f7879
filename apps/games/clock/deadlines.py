"""Deadline rules: when a decision is due, and what repeated timeouts do (DESIGN.md, "Deadlines").

A decision's clock either runs (``deadline`` set) or is stopped (``deadline`` null, ``remaining`` the
time it had left): stopped while the game is paused and while the seat's player is on vacation.
The read helpers at the bottom are what pages and the API show about clocks; they never reveal which
owners of a multi-owner decision have already answered (BB-30.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils import timezone

from .. import reliability, signals, store
from .controls import Control

if TYPE_CHECKING:
    from ..models import Game, Seat
    from ..store import Write

#: Decisions of this timing class are optional reactions (plucking windows): a timeout there is the
#: normal "no, thanks", so it does not count towards absence, and the "don't wait for me" switch and
#: vacation answer them with an immediate ``pass``.
REACTION = "reaction"


def decision_length(control: Control, timing_class: str) -> timedelta:
    """How long a decision of ``timing_class`` can last: a plucking window the control's fixed
    ``reaction``, any other decision its owner's bank, at most the cap."""
    return control.reaction if timing_class == REACTION else control.cap


def clock_for(
    game: Game, timing_class: str, now: datetime, *, away: bool = False
) -> tuple[datetime | None, timedelta | None]:
    """``(deadline, remaining)`` of a decision of ``timing_class`` opened now that does not run on a
    bank (a plucking window: the control's fixed ``reaction``; banks: ``clock.banks``).

    The clock starts stopped (``deadline`` None, the full duration ``remaining``) in a paused game or
    for a player on vacation.
    """
    length = decision_length(game.time_control, timing_class)
    if game.status == game.Status.PAUSED or away:
        return None, length
    return now + length, None


#: Timings of decisions that several seats answer at once. Who has already answered one is published
#: only when it closes (BB-30.6), so the public sees the decision, not its remaining owners.
SIMULTANEOUS_TIMINGS = frozenset({"setup", "reaction", "tribute", "declare"})

#: Simultaneous decisions whose answers stay hidden until they close (BB-30.6: the setup peek, a
#: plucking window) run on one clock for all their owners: every owner's row has the same deadline (or
#: the same time left) at all times, so what anyone sees of the decision's deadline, the countdown and
#: the "clock stopped" mark, never depends on who has answered.
SHARED_CLOCK = frozenset({"setup", REACTION})

#: Of those, the decisions a player on vacation does not answer at once: the setup peek. Its one clock
#: stops while any seat of the game is away (whether that seat has answered is hidden, so its vacation
#: must hold the decision either way) and runs again when nobody is away. A plucking window never
#: stops for a vacation: an away owner passes it at once.
HELD_BY_ANY_ABSENCE = frozenset({"setup"})


def stopped_by_absence(timing_class: str, seat: int, away: set[int] | frozenset[int]) -> bool:
    """Whether vacations stop the clock of ``seat``'s decision of ``timing_class``; ``away``: the seats
    of the game whose player is on vacation."""
    if timing_class in HELD_BY_ANY_ABSENCE:
        return bool(away)
    if timing_class in SHARED_CLOCK:
        return False
    return seat in away


def counts_as_absence(timing_class: str) -> bool:
    """Whether a timeout of this timing class counts towards handing the seat to the bot."""
    return timing_class != REACTION


def record_timeout(
    game: Game, seat: Seat, *, timing: str = "turn", writes: list[Write] | None = None
) -> bool:
    """Count a timeout; after ``game.absent_limit`` in a row the server's bot takes the seat.

    Returns True when this timeout handed the seat to the bot; the player and a league game's organisers
    are then told through ``signals.seat_handed_to_bot`` (their mails recorded in this transaction) and
    the bot task is queued. With
    ``writes`` (a locked game's), the seat's UPDATE joins them instead of running now.
    """
    if seat.played_by_bot or not counts_as_absence(timing):
        return False
    seat.consecutive_timeouts += 1
    fields = ["consecutive_timeouts"]
    handed = seat.consecutive_timeouts >= max(1, game.absent_limit)
    if handed:
        seat.bot_takeover = True
        fields.append("bot_takeover")
    if writes is None:
        seat.save(update_fields=fields)
    else:
        writes.append(store.update_seat(seat, fields))
    reliability.timed_out(seat, handed=handed)
    if handed:  # in this transaction: the mails it calls for are recorded with it, or not at all
        signals.seat_handed_to_bot.send(
            sender=type(game), game_id=game.pk, seat=seat.position, version=game.version
        )
    return handed


def scheduling_enabled() -> bool:
    """Whether moves enqueue deadline and bot tasks (off only in the deadline benchmark)."""
    return bool(settings.GAMES_SCHEDULE_TASKS)


# --- vacation budget ------------------------------------------------------------------------------------


def vacation_budget() -> timedelta:
    """The yearly vacation budget (``settings.VACATION_DAYS_PER_YEAR``)."""
    return timedelta(days=int(settings.VACATION_DAYS_PER_YEAR))


def vacation_left(profile: Any, now: datetime | None = None) -> timedelta:
    """Vacation time the profile still has this year, counting a vacation in progress."""
    now = now or timezone.now()
    used = timedelta(seconds=profile.vacation_seconds_used) if profile.vacation_year == now.year else None
    if used is None:  # a new year: the budget is fresh, only the running vacation's days this year count
        used = timedelta(0)
        if profile.vacation_started_at is not None:
            year_start = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
            used = now - max(profile.vacation_started_at, year_start)
    elif profile.vacation_started_at is not None:
        used += now - profile.vacation_started_at
    return max(vacation_budget() - used, timedelta(0))


# --- what pages and the API show ------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisionClock:
    """One open decision as players may see it: no list of who has answered a multi-owner decision."""

    decision_id: str
    kind: str
    timing: str
    deadline: datetime | None
    seconds_left: int | None
    clock_stopped: bool
    mine: bool


def decision_clocks(*, game: Game, seat: int | None, now: datetime | None = None) -> list[DecisionClock]:
    """The open decisions with their countdowns, as ``seat`` (None: spectator) may see them.

    A multi-owner decision (a plucking window, the setup peek) appears once, with its one clock
    (``SHARED_CLOCK``: every owner's row has the same deadline), so owners, those who have answered and
    spectators all see the same countdown; which owners have answered is never shown (BB-30.6:
    individual responses are published when the decision closes).
    """
    from ..models import Decision

    now = now or timezone.now()
    grouped: dict[str, list[Decision]] = {}
    for row in Decision.objects.filter(game=game).order_by("opened_at", "decision_id", "seat"):
        grouped.setdefault(row.decision_id, []).append(row)
    out = []
    for decision_id, rows in grouped.items():
        own = next((r for r in rows if r.seat == seat), None)
        running = [r.deadline for r in rows if r.deadline is not None]
        deadline = own.deadline if own is not None else (max(running) if running else None)
        out.append(
            DecisionClock(
                decision_id=decision_id,
                kind=rows[0].kind,
                timing=rows[0].timing,
                deadline=deadline,
                seconds_left=max(0, int((deadline - now).total_seconds())) if deadline else None,
                clock_stopped=deadline is None,
                mine=own is not None,
            )
        )
    return out


def seats_away(*, game: Game, now: datetime | None = None) -> dict[int, datetime]:
    """Seats whose player is on vacation, with the time the vacation ends at the latest (budget)."""
    from ..models import Seat

    now = now or timezone.now()
    away = Seat.objects.filter(game=game, user__profile__vacation_started_at__isnull=False).select_related(
        "user__profile"
    )
    return {s.position: now + vacation_left(s.user.profile, now) for s in away if s.user is not None}
