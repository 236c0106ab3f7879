"""Receivers: every committed move (and a game's start) is fanned out to its seats' webhooks."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from apps.games.signals import game_ended, move_applied
from baogame.celery import publish


@receiver(move_applied, dispatch_uid="webhooks.move_applied")
def on_move_applied(sender: Any, *, game_id: int, move_id: int | None, **kwargs: Any) -> None:
    """Queue the fan-out (it finds no endpoint quickly when nobody registered one)."""
    from .models import WebhookEndpoint

    if WebhookEndpoint.objects.filter(active=True, user__seats__game_id=game_id).exists():
        publish("apps.webhooks.tasks.webhooks_fanout", (game_id, move_id))


@receiver(game_ended, dispatch_uid="webhooks.game_ended")
def on_game_ended(sender: Any, *, game_id: int, **kwargs: Any) -> None:
    """Queue the end event (finished, adjudicated or aborted): a bot stops waiting for its turn."""
    from .models import WebhookEndpoint

    if WebhookEndpoint.objects.filter(active=True, user__seats__game_id=game_id).exists():
        publish("apps.webhooks.tasks.webhooks_fanout", (game_id, None, True))
