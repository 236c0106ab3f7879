"""Celery tasks: each takes ids and calls one service function; running one twice is harmless.

Every task is ``acks_late`` (a worker killed mid-task leaves the message to be delivered again) and
retries with exponential backoff; the services are idempotent under the game row lock, so a repeat
applies nothing twice. Nothing imports this module but Celery: the apps send tasks by name
(``apps.games.scheduling``). Each task's queue is set in ``baogame.celery``.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from . import autoplay, clock, closing, heartbeats

RETRYING: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (Exception,),
    "retry_backoff": True,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 5,
}


@shared_task(**RETRYING)
def play_bots(game_id: int, version: int | None = None) -> int:
    """Let the server-played seats (bots, absent players' seats) answer their decisions; a task whose
    ``version`` is stale does nothing."""
    return autoplay.play_bots(game_id, version)


@shared_task(**RETRYING)
def settle_game(game_id: int) -> int:
    """Apply every timeout due in one game (queued for each deadline)."""
    return clock.settle_game(game_id)


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=2)
def sweep_due() -> int:
    """Beat, every ``GAMES_SWEEP_INTERVAL``: settle overdue games, queue near deadlines and lost bots."""
    return clock.sweep()


@shared_task(acks_late=True)
def heartbeat(queue: str) -> None:
    """Beat, every ``GAMES_SWEEP_INTERVAL``, to each queue: its worker is alive (/healthz)."""
    heartbeats.record(name=f"worker:{queue}")


@shared_task(**RETRYING)
def let_go_of_closed_account(user_id: int) -> int:
    """Let go of a closed account's games, one transaction each (queued when the closing commits)."""
    return closing.closed_account_let_go(user_id=user_id)


@shared_task(acks_late=True)
def sweep_closed_accounts() -> int:
    """Beat: let go of any game a closed account still holds a seat in (a crashed or lost closing task)."""
    return closing.closed_accounts_sweep()
