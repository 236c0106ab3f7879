"""Receivers: every committed move (and a game's end) is fanned out to its seats' webhooks."""

from __future__ import annotations

import logging
from collections.abc import Callable
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
    """In the move's transaction: if a seat of the game has an active webhook (looked up with the other
    receivers' statements, one round trip), queue the fan-out when the move commits. Inside the
    transaction, a failing look-up fails the move (it rolls back whole) rather than leaving the
    transaction broken."""
    _when_endpoints(
        game_id, lambda: transaction.on_commit(partial(publish, FANOUT, (game_id, move_id))), statements
    )


@receiver(game_ended, dispatch_uid="webhooks.game_ended")
def on_game_ended(sender: Any, *, game_id: int, **kwargs: Any) -> None:
    """Queue the end event (finished, adjudicated or aborted): a bot stops waiting for its turn. After
    commit, so a failed look-up is logged, not raised (a committed change must never answer an error)."""
    try:
        _when_endpoints(game_id, lambda: publish(FANOUT, (game_id, None, True)))
    except Exception:  # noqa: BLE001
        log.exception("webhooks: could not look up the endpoints of game %s", game_id)


def _when_endpoints(game_id: int, then: Callable[[], object], statements: list[Any] | None = None) -> None:
    """Call ``then`` if a seat of the game has an active webhook. For a game of a batch settled together
    (the sweep), one query answers for every game of the batch; else, on the hand path, one SELECT
    compiled once, appended to ``statements`` for the caller to run (``move_recorded``) or run now."""
    in_batch = batch_lookup("webhooks.endpoints", game_id, _games_with_endpoints)
    if in_batch is not None:
        if game_id in in_batch:
            then()
        return
    if not sql.hand_sql():
        from .models import WebhookEndpoint

        if WebhookEndpoint.objects.filter(active=True, user__seats__game_id=game_id).exists():
            then()
        return
    statement = _has_endpoints_select(connection.vendor).statement(game_id=game_id)

    def found(rows: list[tuple[Any, ...]]) -> None:
        if rows:
            then()

    statement.on_rows = found
    if statements is None:
        sql.batch([statement])
    else:
        statements.append(statement)


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
