"""Celery tasks: each takes ids and calls one service function; running one twice is harmless."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.utils import timezone

from . import services


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def play_bots(game_id: int) -> int:
    """Let bots (and seats that skip pluck windows) answer their decisions."""
    return services.play_bots(game_id)


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def settle_game(game_id: int) -> int:
    """Apply every timeout due in one game."""
    return services.settle_due(game_id)


@shared_task(acks_late=True)
def sweep_due() -> int:
    """Beat, every minute: settle every game with an overdue decision."""
    from .selectors import game_ids_with_due_decisions

    settled = 0
    for game_id in game_ids_with_due_decisions(now=timezone.now()):
        settled += services.settle_due(game_id)
    return settled


def schedule_settle(game_id: int, deadline: datetime) -> None:
    """Run ``settle_game`` at ``deadline`` (the beat sweep catches anything this misses)."""
    settle_game.apply_async((game_id,), eta=deadline)
