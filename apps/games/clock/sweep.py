"""The beat sweep."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from .. import heartbeats, scheduling
from .settlement import settle_overdue
from .vacation import vacation_end_exhausted


def sweep(*, now: datetime | None = None) -> int:
    """The beat sweep, every ``GAMES_SWEEP_INTERVAL``: end spent vacations, settle every overdue game,
    queue near deadlines and the bot tasks that were lost, then record its heartbeat (/healthz).

    Returns the number of timeouts applied. Safe to run twice or concurrently with deadline tasks.
    """
    started = timezone.now()
    vacation_end_exhausted(now=now)
    settled = settle_overdue(now=now)
    scheduling.queue_upcoming_deadlines(now=now)  # a task at each deadline of the coming minutes
    scheduling.queue_stalled_bots(now=now)
    heartbeats.record(name=heartbeats.SWEEP, now=started)  # what was overdue when it began is settled
    return settled
