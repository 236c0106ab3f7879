"""Receivers: every committed move (and a game's start) is fanned out to its seats' webhooks."""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

from django.db import connection
from django.dispatch import receiver

from apps.games.signals import game_ended, move_applied
from baogame import sqlrows
from baogame.celery import publish
from baogame.sqlrows import column, table

log = logging.getLogger(__name__)


@receiver(move_applied, dispatch_uid="webhooks.move_applied")
def on_move_applied(sender: Any, *, game_id: int, move_id: int | None, **kwargs: Any) -> None:
    """Queue the fan-out (it finds no endpoint quickly when nobody registered one)."""
    if _has_endpoints(game_id):
        publish("apps.webhooks.tasks.webhooks_fanout", (game_id, move_id))


@receiver(game_ended, dispatch_uid="webhooks.game_ended")
def on_game_ended(sender: Any, *, game_id: int, **kwargs: Any) -> None:
    """Queue the end event (finished, adjudicated or aborted): a bot stops waiting for its turn."""
    if _has_endpoints(game_id):
        publish("apps.webhooks.tasks.webhooks_fanout", (game_id, None, True))


@cache
def _endpoints_sql(vendor: str) -> str:
    """``WebhookEndpoint.objects.filter(active=True, user__seats__game_id=…).exists()`` as plain SQL:
    it runs after every move (a sweep's batch commits hundreds), and compiling the queryset each time
    cost more than the query."""
    from apps.games.models import Seat

    from .models import WebhookEndpoint

    return (
        f"SELECT 1 FROM {table(WebhookEndpoint)} e INNER JOIN {table(Seat)} s "
        f"ON s.{column(Seat, 'user_id')} = e.{column(WebhookEndpoint, 'user_id')} "
        f"WHERE e.{column(WebhookEndpoint, 'active')} = %s AND s.{column(Seat, 'game_id')} = %s LIMIT 1"
    )


def _has_endpoints(game_id: int) -> bool:
    """Whether a seat of the game has an active webhook; after commit, so a failure is logged, not raised
    (a committed move must never answer an error)."""
    try:
        return bool(sqlrows.fetch(_endpoints_sql(connection.vendor), [True, game_id]))
    except Exception:  # noqa: BLE001
        log.exception("webhooks: could not look up the endpoints of game %s", game_id)
        return False
