"""Webhook tasks: thin wrappers around the services, sent by name."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from . import services


@shared_task(name="apps.webhooks.tasks.webhooks_fanout", ignore_result=True, acks_late=True)
def webhooks_fanout(
    game_id: int, move_id: int | None, ended: bool = False, version: int | None = None
) -> int:
    """Record and queue the events of one move (or the game's end) for its seats' endpoints."""
    return services.webhooks_fanout(game_id=game_id, move_id=move_id, ended=ended, version=version)


@shared_task(name="apps.webhooks.tasks.deliver_webhook", bind=True, ignore_result=True, max_retries=None)
def deliver_webhook(self: Any, delivery_id: int) -> bool:
    """POST one event; retried with exponential backoff until a 2xx or ``WEBHOOKS_MAX_ATTEMPTS`` (the
    attempts are counted on the event, so a retry the sweep queued counts as one too)."""
    try:
        return services.delivery_attempt(delivery_id=delivery_id)
    except services.DeliveryFailed as exc:
        if exc.retry_in is None:
            return False  # given up: the webhooks page counts it
        raise self.retry(exc=exc, countdown=exc.retry_in) from None


@shared_task(name="apps.webhooks.tasks.requeue_lost_webhooks", ignore_result=True)
def requeue_lost_webhooks() -> int:
    """Beat: queue again the events whose delivery task was lost."""
    return services.deliveries_requeue_lost()
