"""Receivers: a committed move that opens decisions for people starts (or joins) their push bursts."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from django.conf import settings
from django.dispatch import receiver

from apps.games.signals import dev_server_starting, move_applied
from baogame.celery import publish

log = logging.getLogger(__name__)


@receiver(move_applied, dispatch_uid="push.move_applied")
def on_move_applied(
    sender: Any,
    *,
    game_id: int,
    version: int,
    opened: list[list[Any]],
    in_person_seat: int | None = None,
    people: frozenset[int] | None = None,
    **kwargs: Any,
) -> None:
    """Queue the notices, as for mail: people only, not the one who just moved in person."""
    from . import services
    from .models import PushSubscription

    wanted = [
        list(o)
        for o in opened
        if (in_person_seat is None or o[0] != in_person_seat) and (people is None or o[0] in people)
    ]
    if not wanted or not services.enabled():
        return
    try:  # after commit: never turn a committed move into an error
        subscribed = PushSubscription.objects.filter(user__seats__game_id=game_id).exists()
    except Exception:  # noqa: BLE001
        log.exception("push: could not look up the subscriptions of game %s", game_id)
        return
    if subscribed:
        publish("apps.push.tasks.push_decisions", (game_id, version, wanted))


@receiver(dev_server_starting, dispatch_uid="push.dev_server_starting")
def on_dev_server_starting(sender: Any, *, var_dir: Path, **kwargs: Any) -> str | None:
    """Write development Web Push (VAPID) keys, read by the processes ``rundev`` starts, unless set."""
    if settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY:
        return None
    from .vapid import ensure_dev_keys  # cryptography: loaded only here

    if ensure_dev_keys(var_dir / "vapid.json"):
        return f"Wrote development Web Push (VAPID) keys to {var_dir / 'vapid.json'}"
    return None
