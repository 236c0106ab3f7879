"""Deadline rules: when a decision is due, and what repeated timeouts do (DESIGN.md, "Deadlines")."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from .timing import duration

if TYPE_CHECKING:
    from .models import Game, Seat


def deadline_for(game: Game, seat: int, timing_class: str, now: datetime) -> datetime | None:
    """The deadline of a decision of ``timing_class`` opened now for ``seat``.

    ``None`` means the clock is stopped (a paused game).
    """
    if game.status == game.Status.PAUSED:
        return None
    return now + duration(game.timing, timing_class)


def record_timeout(game: Game, seat: Seat) -> None:
    """Count a timeout; after ``game.absent_limit`` in a row the server's bot takes the seat."""
    if seat.played_by_bot:
        return
    seat.consecutive_timeouts += 1
    fields = ["consecutive_timeouts"]
    if seat.consecutive_timeouts >= game.absent_limit:
        seat.bot_takeover = True
        fields.append("bot_takeover")
    seat.save(update_fields=fields)
