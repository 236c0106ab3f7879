"""A player who leaves a sitting: their seat goes back to the game's own control (``leave_live``).

During a sitting the seats whose players are at the table play on live banks (``clock.live``). When a
live seat's bank runs out while its player is away (their game page stopped asking the server), the
live timeout is not applied: the seat is treated as gone, exactly like a player who never came. It
leaves ``Game.live_clock``, its open decision runs again on the bank it had when it joined, restarted
from the live deadline on the game's own control (its increment, cap and weekends off), and its player
is mailed their turn as in correspondence (``signals.seat_left_live``). Nothing is counted towards the
take-over after repeated timeouts, nor against the reliability record; a sitting still returns every
bank as it was, since the live bank is thrown away as at the sitting's end. The seat's standing orders
and the sittings' "if I miss a sitting" order then apply as to any absent seat, and the player joins
the live play again when their page next asks (``apps.sittings.lifecycle.arrive``).

A player still at the table whose live bank runs out times out as usual: otherwise every live timeout
would hand them back their correspondence bank and the next poll a fresh live one, and a player could
hold the table for as long as they liked. Whether a player is here is the sittings' knowledge (their
presence): they register the check (``register_presence_check``); without one nobody counts as here.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from .. import scheduling, signals, store
from . import banks

if TYPE_CHECKING:
    from ..models import Decision, Seat
    from ..store import LockedGame

#: ``check(game_id, position, user_id, now)``: whether the seat's player has the game page open now.
PresenceCheck = Callable[[int, int, int, datetime], bool]
_presence: list[PresenceCheck] = []


def register_presence_check(check: PresenceCheck) -> None:
    """The sittings' answer to "is this seat's player at the table now?"."""
    _presence[:] = [check]


def _here(locked: LockedGame, seat: Seat, now: datetime) -> bool:
    if not _presence or seat.user_id is None:
        return False
    return _presence[0](locked.pk, seat.position, seat.user_id, now)


def leaves_live(locked: LockedGame, due: Decision, now: datetime) -> bool:
    """Whether the timeout of ``due`` (its deadline passed) is a live seat's whose player has gone: a
    bank decision of a seat that plays live in a sitting, played by its person, who is not here."""
    saved = locked.game.live_clock
    seat = locked.seats.get(due.seat)
    return (
        saved is not None
        and seat is not None
        and str(due.seat) in saved.get("banks", {})
        and banks.runs_on_bank(due.timing)
        and not seat.played_by_bot
        and seat.bank_pending_seconds is None
        and not _here(locked, seat, now)
    )


def leave_live(locked: LockedGame, seat: Seat, *, at: datetime, now: datetime) -> datetime:
    """Put ``seat`` back on the game's own control from ``at`` (its live deadline), with the bank it had
    when it joined the sitting; its open bank decisions get that bank's deadline. Writes it at once,
    so that the player's mail, recorded in this transaction, reads the seat as it now is, then tells
    the higher apps (``signals.seat_left_live``). Returns the new deadline, which may be due already."""
    game = locked.game
    assert game.live_clock is not None
    joined = dict(game.live_clock["banks"])
    bank = timedelta(seconds=joined.pop(str(seat.position)))
    game.live_clock = {**game.live_clock, "banks": joined}
    own = game.seat_control(seat.position)
    rows = [
        r
        for r in locked.decisions
        if r.seat == seat.position and banks.runs_on_bank(r.timing) and r.deadline is not None
    ]
    if any(r.pk is None for r in rows):
        locked.flush()  # a row still waiting in the batch to be inserted
    deadline = banks.restart(seat, own, at, bank)
    seat.bank_since = at
    for row in rows:
        # reminded: its live reminder was never mailed; the correspondence one is due as usual
        row.deadline, row.remaining, row.reminded_at = deadline, None, None
        locked.writes.append(store.reuse_decision_row(row.pk, row))
    locked.writes.append(store.update_seat(seat, banks.BANK_FIELDS))
    locked.write_game(["live_clock"])
    locked.flush()
    signals.seat_left_live.send(
        sender=type(game),
        game_id=game.pk,
        seat=seat.position,
        version=game.version,
        opened=[[row.seat, row.kind, row.decision_id] for row in rows],
    )
    scheduling.queue_moved_deadline(locked, deadline=deadline, now=now)
    return deadline
