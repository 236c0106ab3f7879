"""Web Push tasks: thin wrappers around the services, sent by name."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from . import services


@shared_task(name="apps.push.tasks.push_decisions", ignore_result=True, acks_late=True)
def push_decisions(game_id: int, version: int, opened: list[list[Any]]) -> int:
    """Start or join the bursts of the people for whom a move opened a decision."""
    return services.push_decisions(game_id=game_id, version=version, opened=opened)


@shared_task(name="apps.push.tasks.send_burst", ignore_result=True)
def send_burst(burst_id: int) -> int:
    """Send one burst's notices when it is due (at most once)."""
    return services.burst_send(burst_id=burst_id)


@shared_task(name="apps.push.tasks.send_due_bursts", ignore_result=True)
def send_due_bursts() -> int:
    """Beat: queue again the bursts past their due time (a lost task, or held by quiet hours)."""
    return services.bursts_send_due()


@shared_task(name="apps.push.tasks.deliver_push", bind=True, ignore_result=True, max_retries=None)
def deliver_push(self: Any, message_id: int) -> bool:
    """Send one notice again; retried with backoff until accepted or ``WEBHOOKS_MAX_ATTEMPTS``."""
    try:
        return services.message_attempt(message_id=message_id)
    except services.PushFailed as exc:
        if exc.retry_in is None:
            return False
        raise self.retry(exc=exc, countdown=exc.retry_in) from None
