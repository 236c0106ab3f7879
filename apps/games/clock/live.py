"""Live play for a while (a sitting, ``apps.sittings``): the game runs on the live control, then goes
back to its own control with the banks of the players who played live as they were.

``live_begin`` saves the game's control and the bank of every present seat, switches the game to the
live control and gives each present seat a fresh live bank (an open decision of theirs gets the live
deadline). What it saved is also kept on the game (``Game.live_clock``): it says which seats play live.
Every other seat (an absent player) keeps its bank and deadlines and stays on the game's own control
for the whole sitting (``Game.seat_control``): its increment, cap and weekends off, so its bank is
what it would have been without the sitting, and a sitting cannot be used to rush it. A plucking
window stays the table's: it lasts the live control's ``reaction``. ``live_end`` restores the control
and the saved banks; a saved seat that owes a decision then restarts its saved bank from that moment.
A live seat whose player leaves during the sitting goes back to the game's own control before then
(``clock.leaving``): it is no longer in ``Game.live_clock``, and joins again like a late arrival.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from .. import pipeline, scheduling
from ..models import Game, stored_control
from ..store import LockedGame, lock_game
from . import banks
from .controls import NAMED_CONTROLS, Control

LIVE = "live"


def _own_control(saved: dict[str, Any]) -> Control:
    """The game's own control, as ``live_begin`` saved it."""
    return stored_control(saved["control"], saved["control_values"], saved["weekends_off"])


def _bank_rows(locked: LockedGame, position: int) -> list[Any]:
    return [r for r in locked.decisions if r.seat == position and banks.runs_on_bank(r.timing)]


@transaction.atomic
def live_begin(
    *, game_id: int, present: set[int], now: datetime, saved: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """Switch an active game to the live control for the ``present`` seats; returns what ``live_end``
    needs to restore (None: the game is not in play, or already live). With ``saved`` (the game is
    live already), the ``present`` seats that arrive later join: their banks are saved into it."""
    locked = lock_game(game_id)
    pipeline.settle(locked, now)
    game = locked.game
    if game.status != Game.Status.ACTIVE or (game.control == LIVE) != (saved is not None):
        return saved
    live = NAMED_CONTROLS[LIVE]
    if saved is not None:  # the game's own copy says who plays live now: a seat that left is gone there
        saved = {**saved, **(game.live_clock or {})}
    else:
        saved = {
            "control": game.control,
            "control_values": game.control_values,
            "weekends_off": game.weekends_off,
            "banks": {},
        }
        game.control, game.control_values, game.weekends_off = LIVE, live.values(), False
    old = _own_control(saved)
    for position in sorted(p for p in present if str(p) not in saved["banks"]):
        seat = locked.seats.get(position)
        if seat is None or seat.bank_pending_seconds is not None:
            continue  # a hidden answer's bank stays as the others see it (BB-30.6)
        rows = [r for r in _bank_rows(locked, position) if r.deadline is not None]
        left = (
            max(banks.left_before(rows[0].deadline, now, seat, old), timedelta(0))
            if rows
            else banks.bank_left(seat, old)
        )
        saved["banks"][str(position)] = left.total_seconds()  # from now on the seat plays live
        if rows:
            deadline = banks.restart(seat, live, now, live.initial)
            seat.bank_since = now
            for row in rows:
                row.deadline = deadline
                row.save(update_fields=["deadline"])
        else:
            seat.bank_seconds, seat.bank_runs_out_at = live.initial.total_seconds(), None
        seat.save(update_fields=banks.BANK_FIELDS)
    game.live_clock = saved
    game.save(update_fields=["control", "control_values", "weekends_off", "live_clock"])
    scheduling.queue_game_tasks(locked)
    return saved


@transaction.atomic
def live_end(*, game_id: int, saved: dict[str, Any], now: datetime) -> bool:
    """Back to the game's own control, the saved seats' banks as they were; False if nothing to do.

    The seats that did not play live ran on the game's own control all along: nothing changes for them.
    """
    locked = lock_game(game_id)
    pipeline.settle(locked, now)
    game = locked.game
    if game.control != LIVE:
        return False
    saved = game.live_clock or saved
    game.control, game.control_values = saved["control"], saved["control_values"]
    game.weekends_off, game.live_clock = saved["weekends_off"], None
    game.save(update_fields=["control", "control_values", "weekends_off", "live_clock"])
    own = game.time_control
    for key, seconds in saved["banks"].items():
        seat = locked.seats.get(int(key))
        if seat is None or seat.bank_pending_seconds is not None:
            continue
        rows = [r for r in _bank_rows(locked, seat.position) if r.deadline is not None]
        if rows:
            deadline = banks.restart(seat, own, now, timedelta(seconds=seconds))
            seat.bank_since = now
            for row in rows:
                row.deadline = deadline
                row.save(update_fields=["deadline"])
        else:
            seat.bank_seconds, seat.bank_runs_out_at = seconds, None
        seat.save(update_fields=banks.BANK_FIELDS)
    if game.status == Game.Status.ACTIVE:
        scheduling.queue_game_tasks(locked)
    return True
