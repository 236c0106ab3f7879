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


def _has_endpoints(game_id: int) -> bool:
    """Whether a seat of the game has an active webhook; after commit, so a failure is logged, not raised
    (a committed move must never answer an error)."""
    try:
        return bool(sqlrows.fetch(_has_endpoints_sql(connection.vendor), [game_id]))
    except Exception:  # noqa: BLE001
        log.exception("webhooks: could not look up the endpoints of game %s", game_id)
        return False


@cache
def _has_endpoints_sql(vendor: str) -> str:
    """Whether a seat of the game has an active endpoint, as one SELECT built once (every move runs it,
    and the ORM spent longer building it than the database running it)."""
    from apps.games.models import Seat

    from .models import WebhookEndpoint

    endpoint, seat = sqlrows.table(WebhookEndpoint), sqlrows.table(Seat)
    return (
        f"SELECT 1 FROM {endpoint} e INNER JOIN {seat} s "
        f"ON s.{sqlrows.column(Seat, 'user_id')} = e.{sqlrows.column(WebhookEndpoint, 'user_id')} "
        f"WHERE e.{sqlrows.column(WebhookEndpoint, 'active')} AND s.{sqlrows.column(Seat, 'game_id')} = %s "
        "LIMIT 1"
    )
