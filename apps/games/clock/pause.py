"""Stopping and restarting clocks: pausing and resuming a game, extending a decision.

A stopped decision keeps the time it had left in ``Decision.remaining`` (``deadline`` is null) and
gets its deadline back when its clock restarts. Callers authorise (the leagues app lets an organiser
act); these services check the game's state and refuse (``own_game``) an actor who holds a seat in
the game: nobody pauses, resumes or extends a game they play in.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .. import people, pipeline, scheduling, signals
from ..errors import ServiceError
from ..models import Decision, Game, Move, Seat
from ..store import LockedGame, lock_game
from . import banks, deadlines
from .deadlines import SIMULTANEOUS_TIMINGS

log = logging.getLogger(__name__)

# --- stopping and restarting clocks ----------------------------------------------------------------------


def stop_clocks(locked: LockedGame, now: datetime, *, away: set[int] | None = None) -> int:
    """Stop the running clocks of ``game``; returns how many.

    ``away`` None: every clock (a pause). Otherwise the clocks that vacations stop, ``away`` being the
    seats whose player is on vacation (``deadlines.stopped_by_absence``): a setup peek's one clock for
    all its owners, and any other decision of an away seat but a plucking window. A decision on a bank
    keeps the bank time left (weekends off not counted) and its seat's bank stops with it.
    """
    game = locked.game
    stopped = 0
    for row in locked.decisions:
        if row.deadline is None:
            continue
        if away is not None and not deadlines.stopped_by_absence(row.timing, row.seat, away):
            continue
        seat = locked.seats.get(row.seat)
        if banks.runs_on_bank(row.timing) and seat is not None:
            control = game.seat_control(seat.position)
            left = max(banks.left_before(row.deadline, now, seat, control), timedelta(0))
            seat.bank_seconds, seat.bank_runs_out_at = left.total_seconds(), None
            seat.save(update_fields=banks.BANK_FIELDS)
        else:
            left = max(row.deadline - now, timedelta(0))
        row.remaining, row.deadline = left, None
        row.save(update_fields=["remaining", "deadline"])
        stopped += 1
    for seat in _answered_hidden(locked, away):  # shown as owing still: they stop like the others
        if seat.bank_runs_out_at is not None:
            banks.stop(seat, game.seat_control(seat.position), now)
            seat.save(update_fields=banks.BANK_FIELDS)
    return stopped


def restart_clocks(locked: LockedGame, now: datetime) -> int:
    """Restart every stopped clock of the game that nothing stops any more; a paused game restarts none.

    A setup peek's clock restarts for all its owners at once, when no seat of the game is away.
    """
    if locked.game.status != Game.Status.ACTIVE:
        return 0
    game = locked.game
    away = locked.away()
    restarted = 0
    for row in locked.decisions:
        if row.deadline is not None or deadlines.stopped_by_absence(row.timing, row.seat, away):
            continue
        left = row.remaining or timedelta(0)
        seat = locked.seats.get(row.seat)
        if banks.runs_on_bank(row.timing) and seat is not None:
            row.deadline = banks.restart(seat, game.seat_control(seat.position), now, left)
            seat.save(update_fields=banks.BANK_FIELDS)
        else:
            row.deadline = now + left
        row.remaining = None
        row.save(update_fields=["deadline", "remaining"])
        restarted += 1
    for seat in _answered_hidden(locked, away, stopping=False):
        if seat.bank_since is not None and seat.bank_runs_out_at is None:
            control = game.seat_control(seat.position)
            banks.restart(seat, control, now, banks.bank_left_public(seat, control))
            seat.save(update_fields=banks.BANK_FIELDS)
    return restarted


def _answered_hidden(locked: LockedGame, away: set[int] | None, *, stopping: bool = True) -> list[Seat]:
    """Seats that answered a simultaneous decision still open, whose bank the others see as running
    (``banks``): when stopping, those whose clock this stop would have stopped had they not answered;
    when restarting, those that nothing stops any more."""
    timing = next((r.timing for r in locked.decisions if r.timing in SIMULTANEOUS_TIMINGS), "setup")
    out = []
    for position, seat in locked.seats.items():
        if seat.bank_pending_seconds is None:
            continue
        held = away is None or deadlines.stopped_by_absence(timing, position, away)
        if held == stopping:
            out.append(seat)
    return out


# --- a whole game -------------------------------------------------------------------------------------


def game_pause(*, game_id: int, by: User | None, reason: str = "") -> Game:
    """Stop every clock of an active game; nothing can be played until ``game_resume``.

    What was already overdue is settled first. ``by`` is recorded in the log; the caller authorises.
    """
    with transaction.atomic():
        locked = lock_game(game_id)
        game = locked.game
        people.refuse_own_game(game=game, user=by)
        now = timezone.now()
        pipeline.settle(locked, now)
        if game.status != Game.Status.ACTIVE:
            raise ServiceError("game_not_active", "only a game in play can be paused", status=409)
        game.status, game.paused_at, game.status_reason = Game.Status.PAUSED, now, reason
        game.save(update_fields=["status", "paused_at", "status_reason"])
        stop_clocks(locked, now)
        log.info("game %s paused by %s: %s", game.pk, getattr(by, "pk", None), reason)
        transaction.on_commit(partial(signals.game_paused.send, sender=Game, game_id=game.pk))
    return game


def game_resume(*, game_id: int, by: User | None) -> Game:
    """Restart a paused game's clocks with the time each decision had left."""
    with transaction.atomic():
        locked = lock_game(game_id)
        game = locked.game
        people.refuse_own_game(game=game, user=by)
        if game.status != Game.Status.PAUSED:
            raise ServiceError("game_not_paused", "this game is not paused", status=409)
        game.status, game.paused_at, game.status_reason = Game.Status.ACTIVE, None, ""
        game.save(update_fields=["status", "paused_at", "status_reason"])
        restart_clocks(locked, timezone.now())
        scheduling.queue_game_tasks(locked)
        log.info("game %s resumed by %s", game.pk, getattr(by, "pk", None))
        transaction.on_commit(partial(signals.game_resumed.send, sender=Game, game_id=game.pk))
    return game


def decision_extend(
    *, game_id: int, seat: int | Seat, by: timedelta, actor: User | None = None
) -> list[Decision]:
    """Give ``seat``'s open decision ``by`` more time; returns the decision rows changed.

    A multi-owner decision (a plucking window) has one deadline for all its owners, so every owner's
    clock moves: the countdown others see then never tells who has answered. A stopped clock gets the
    time added to what it has left.
    """
    position = seat.position if isinstance(seat, Seat) else int(seat)
    if by <= timedelta(0):
        raise ServiceError("invalid_extension", "an extension must be positive")
    with transaction.atomic():
        locked = lock_game(game_id)
        game = locked.game
        people.refuse_own_game(game=game, user=actor)
        pipeline.settle(locked, timezone.now())
        ids = list(Decision.objects.filter(game=game, seat=position).values_list("decision_id", flat=True))
        if not ids and _answered_an_open_decision(game, position):
            # Refusing would tell the organiser, who may be playing, that this seat has answered a
            # window still open for others (BB-30.6): extend that decision as for any owner.
            ids = list(
                Decision.objects.filter(game=game, timing__in=SIMULTANEOUS_TIMINGS)
                .values_list("decision_id", flat=True)
                .distinct()
            )
        if not ids:
            raise ServiceError("no_open_decision", f"seat {position} has no open decision", status=409)
        rows = Decision.objects.filter(game=game, decision_id__in=ids)
        rows.filter(deadline__isnull=False).update(deadline=F("deadline") + by)
        for row in rows.filter(deadline__isnull=True):
            row.remaining = (row.remaining or timedelta(0)) + by
            row.save(update_fields=["remaining"])
        locked.reload_decisions()
        _extend_banks(locked, {r.seat for r in rows if banks.runs_on_bank(r.timing)}, by)
        scheduling.queue_game_tasks(locked)
        log.info("game %s seat %s extended by %s (%s)", game.pk, position, by, getattr(actor, "pk", None))
        return list(rows)


def _extend_banks(locked: LockedGame, owners: set[int], by: timedelta) -> None:
    """The banks the others see move with an extension: the owners' of the extended decisions, and,
    when it was a simultaneous one, the seats that answered it already (so nobody can tell them)."""
    simultaneous = any(r.timing in SIMULTANEOUS_TIMINGS for r in locked.decisions if r.seat in owners)
    for position, seat in locked.seats.items():
        if position not in owners and not (simultaneous and seat.bank_pending_seconds is not None):
            continue
        if seat.bank_runs_out_at is not None:
            seat.bank_runs_out_at += by
        else:
            control = locked.game.seat_control(position)
            seat.bank_seconds = (banks.bank_left_public(seat, control) + by).total_seconds()
        seat.save(update_fields=banks.BANK_FIELDS)


def _answered_an_open_decision(game: Game, position: int) -> bool:
    """Whether the seat's answer to a simultaneous decision is still unknown to the others: a hidden
    move of that seat since the last public move (the move that closes a decision is public)."""
    return Move.objects.filter(game=game, seat=position, hidden=True, public_seq=game.public_version).exists()
