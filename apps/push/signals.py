"""Receivers: a move that opens decisions for people with a subscribed browser writes its push row in
the outbox (``apps.notifications.outbox``, channel ``push``), in the move's own transaction; the
``push_decisions`` task it queues on commit (and the sweep queues again while the row is left) starts or
joins their bursts. A broker that was down after the commit so loses no notice."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.dispatch import receiver

from apps.accounts.closing import account_closing
from apps.games.signals import RecordedMove, dev_server_starting, recorded_move_receiver
from apps.notifications import outbox

log = logging.getLogger(__name__)


@recorded_move_receiver("push.move_recorded")
def on_move_recorded(move: RecordedMove) -> None:
    """In the move's transaction, as for mail: people only, not the one who just moved in person; and
    only when a player of the game has a subscribed browser (looked up with the other receivers'
    statements, one round trip)."""
    from . import services

    wanted = [
        list(o)
        for o in move.opened
        if (move.in_person_seat is None or o[0] != move.in_person_seat)
        and (move.people is None or o[0] in move.people)
    ]
    if not wanted or not services.enabled():
        return
    outbox.record(  # only for a game with a subscribed browser: asked in the same statement
        game_id=move.game_id,
        version=move.version,
        move_id=move.move_id,
        opened=wanted,
        channel=outbox.Channel.PUSH,
        statements=move.statements,
        when=_subscriptions,
    )


def _subscriptions(game_id: int) -> QuerySet[Any]:
    """The subscribed browsers of the game's seated players."""
    from .models import PushSubscription

    return PushSubscription.objects.filter(user__seats__game_id=game_id)


@receiver(dev_server_starting, dispatch_uid="push.dev_server_starting")
def on_dev_server_starting(sender: Any, *, var_dir: Path, **kwargs: Any) -> str | None:
    """Write development Web Push (VAPID) keys, read by the processes ``rundev`` starts, unless set."""
    if settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY:
        return None
    from .vapid import ensure_dev_keys  # cryptography: loaded only here

    if ensure_dev_keys(var_dir / "vapid.json"):
        return f"Wrote development Web Push (VAPID) keys to {var_dir / 'vapid.json'}"
    return None


@receiver(account_closing, dispatch_uid="push.account_closing")
def on_account_closing(sender: Any, *, user: Any, **kwargs: Any) -> None:
    """A closed account's browsers are forgotten: no notice is pushed to them again."""
    from .models import PushSubscription

    PushSubscription.objects.filter(user=user).delete()
