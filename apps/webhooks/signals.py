"""Receivers: every committed move (and a game's end) is fanned out to its seats' webhooks."""

from __future__ import annotations

import logging
from functools import cache, partial
from typing import Any

from django.db import connection, transaction
from django.dispatch import receiver

from apps.games import sql
from apps.games.signals import batch_lookup, game_ended, move_recorded
from baogame.celery import publish

log = logging.getLogger(__name__)

FANOUT = "apps.webhooks.tasks.webhooks_fanout"


@receiver(move_recorded, dispatch_uid="webhooks.move_recorded")
def on_move_recorded(
    sender: Any, *, game_id: int, move_id: int | None, statements: list[Any] | None = None, **kwargs: Any
) -> None:
    """In the move's transaction: whether a seat of the game has an active webhook, looked up with the
    other receivers' statements (one round trip, ``move_recorded``); if one has, the fan-out is queued
    when the move commits. For a game of a batch settled together (the sweep), one query answers for
    every game of the batch. Inside the transaction, a failing look-up fails the move (it rolls back
    whole) rather than leaving the transaction broken."""

    def fan_out() -> None:
        transaction.on_commit(partial(publish, FANOUT, (game_id, move_id)))

    in_batch = batch_lookup("webhooks.endpoints", game_id, _games_with_endpoints)
    if in_batch is not None:
        if game_id in in_batch:
            fan_out()
        return
    if not sql.hand_sql() or statements is None:
        from .models import WebhookEndpoint

        if WebhookEndpoint.objects.filter(active=True, user__seats__game_id=game_id).exists():
            fan_out()
        return
    statement = _has_endpoints_select(connection.vendor).statement(game_id=game_id)
    statement.on_rows = lambda rows: fan_out() if rows else None
    statements.append(statement)


@receiver(game_ended, dispatch_uid="webhooks.game_ended")
def on_game_ended(sender: Any, *, game_id: int, **kwargs: Any) -> None:
    """Queue the end event (finished, adjudicated or aborted): a bot stops waiting for its turn."""
    if _has_endpoints(game_id):
        publish(FANOUT, (game_id, None, True))


def _has_endpoints(game_id: int) -> bool:
    """Whether a seat of the game has an active webhook; after commit (a game's end), so a failure is
    logged, not raised (a committed change must never answer an error). For a game of a batch settled
    together (the sweep), one query answers for every game of the batch."""
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
