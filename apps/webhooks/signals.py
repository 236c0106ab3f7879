"""Receivers: every committed move (and a game's start) is fanned out to its seats' webhooks."""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

from django.db import connection
from django.dispatch import receiver

from apps.games import sql
from apps.games.signals import batch_lookup, game_ended, move_applied
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
    (a committed move must never answer an error). For a game of a batch settled together (the sweep),
    one query answers for every game of the batch."""
    try:
        in_batch = batch_lookup("webhooks.endpoints", game_id, _games_with_endpoints)
        if in_batch is not None:
            return game_id in in_batch
        if not sql.hand_sql():
            from .models import WebhookEndpoint

            return WebhookEndpoint.objects.filter(active=True, user__seats__game_id=game_id).exists()
        statement = _has_endpoints_select(connection.vendor).statement(game_id=game_id)
        sql.batch([statement])
        return bool(statement.rows)
    except Exception:  # noqa: BLE001
        log.exception("webhooks: could not look up the endpoints of game %s", game_id)
        return False


def _games_with_endpoints(game_ids: frozenset[int]) -> frozenset[int]:
    """Which of these games have a seat whose player has an active webhook (one query)."""
    from .models import WebhookEndpoint

    found = WebhookEndpoint.objects.filter(active=True, user__seats__game_id__in=game_ids)
    return frozenset(found.values_list("user__seats__game_id", flat=True).distinct())


@cache
def _has_endpoints_select(vendor: str) -> sql.Select:
    """Whether a seat of the game has an active endpoint: one SELECT compiled once from the queryset
    (every move runs it, and the ORM spent longer compiling it each time than the database running it)."""
    from .models import WebhookEndpoint

    marker = -7301
    endpoints = WebhookEndpoint.objects.filter(active=True, user__seats__game_id=marker)[:1]
    return sql.compile_select(endpoints, game_id=marker)
