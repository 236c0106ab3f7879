"""Receivers: every committed move (and a game's end) is fanned out to its seats' webhooks.

In the move's transaction, a game with an active webhook gets the move's webhook row in the outbox
(``apps.notifications.outbox``, channel ``webhook``): the fan-out task is queued on commit, and queued
again by the sweep while the row is left, so a broker that was down after the commit loses nothing. A
game's end is written the same way, in the transaction that ends it (``game_ending``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.db.models import QuerySet
from django.dispatch import receiver

from apps.accounts.closing import account_closing
from apps.games import sql
from apps.games.signals import RecordedMove, batch_lookup, game_ending, recorded_move_receiver
from apps.notifications import outbox


@recorded_move_receiver("webhooks.move_recorded")
def on_move_recorded(move: RecordedMove) -> None:
    """In the move's transaction: if a seat of the game has an active webhook, write the move's webhook
    outbox row, whose fan-out task is queued when the move commits (on the hand path the look-up and
    the write are one statement, in the move's writes' round trip: ``outbox.record``'s ``when``).
    Inside the transaction, a failing look-up fails the move (it rolls back whole) rather than leaving
    the transaction broken."""
    record = partial(
        outbox.record,
        game_id=move.game_id,
        version=move.version,
        move_id=move.move_id,
        opened=[],
        channel=outbox.Channel.WEBHOOK,
    )
    in_batch = batch_lookup("webhooks.endpoints", move.game_id, _games_with_endpoints)
    if in_batch is None:  # the look-up and the row's write in one statement with the move's writes
        record(statements=move.statements, when=_active_endpoints)
    elif move.game_id in in_batch:
        record()


@receiver(game_ending, dispatch_uid="webhooks.game_ending")
def on_game_ending(sender: Any, *, game_id: int, **kwargs: Any) -> None:
    """In the end's transaction (finished, adjudicated or aborted): if a seat of the game has an active
    webhook, write the end event's outbox row, queued when the end commits: a bot stops waiting for its
    turn. As for a move, a failing look-up fails the end (it rolls back whole)."""
    _when_endpoints(game_id, partial(outbox.record_game_end, game_id=game_id, channel=outbox.Channel.WEBHOOK))


def _when_endpoints(game_id: int, then: Callable[[], object]) -> None:
    """Call ``then`` if a seat of the game has an active webhook. For a game of a batch settled together
    (the sweep), one query answers for every game of the batch; else, on the hand path, one SELECT
    compiled once."""
    in_batch = batch_lookup("webhooks.endpoints", game_id, _games_with_endpoints)
    if in_batch is not None:
        if game_id in in_batch:
            then()
        return
    sql.when_any(_active_endpoints, game_id, then)


def _active_endpoints(game_id: int) -> QuerySet[Any]:
    """The active webhooks of the game's seated players."""
    from .models import WebhookEndpoint

    return WebhookEndpoint.objects.filter(active=True, user__seats__game_id=game_id)


def _games_with_endpoints(game_ids: frozenset[int]) -> frozenset[int]:
    """Which of these games have a seat whose player has an active webhook (one query)."""
    from .models import WebhookEndpoint

    found = WebhookEndpoint.objects.filter(active=True, user__seats__game_id__in=game_ids)
    return frozenset(found.values_list("user__seats__game_id", flat=True).distinct())


@receiver(account_closing, dispatch_uid="webhooks.account_closing")
def on_account_closing(sender: Any, *, user: Any, **kwargs: Any) -> None:
    """A closed account's webhooks go, with their deliveries: no event is sent for it again."""
    from .models import WebhookEndpoint

    WebhookEndpoint.objects.filter(user=user).delete()
