"""Celery tasks: each takes ids and calls one service function; running one twice is harmless.

Every task is ``acks_late`` (a worker killed mid-task leaves the message to be delivered again) and
retries with exponential backoff; the services are idempotent under the game row lock, so a repeat
applies nothing twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from celery import shared_task

from . import clock, services

RETRYING: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (Exception,),
    "retry_backoff": True,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 5,
}


@shared_task(**RETRYING)
def play_bots(game_id: int) -> int:
    """Let the server-played seats (bots, absent players' seats) answer their decisions."""
    return services.play_bots(game_id)


@shared_task(**RETRYING)
def settle_game(game_id: int) -> int:
    """Apply every timeout due in one game (queued for each deadline)."""
    return services.settle_due(game_id)


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=2)
def sweep_due() -> int:
    """Beat, every minute: end spent vacations and settle every game with an overdue decision."""
    return clock.sweep()


def schedule_settle(game_id: int, deadline: datetime) -> None:
    """Run ``settle_game`` at ``deadline`` (the beat sweep catches anything this misses)."""
    settle_game.apply_async((game_id,), eta=deadline)
