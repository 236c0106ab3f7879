"""Receivers: game signals (sent on commit) and anymail's inbound signal.

A notification problem must never break a move, so the game receivers only enqueue a task and log
any failure to do so.
"""

from __future__ import annotations

import logging
from typing import Any

from anymail.signals import inbound
from django.dispatch import receiver

from apps.games.signals import game_ended, move_applied

log = logging.getLogger(__name__)


@receiver(move_applied, dispatch_uid="notifications.move_applied")
def on_move_applied(
    sender: Any, *, game_id: int, version: int, move_id: int | None, opened: list[list[Any]], **kwargs: Any
) -> None:
    """Enqueue the decision and round-result mails of a move."""
    from . import tasks

    try:
        tasks.notify_move_applied.delay(game_id, version, move_id, [list(o) for o in opened])
    except Exception:
        log.exception("could not enqueue notifications for game %s v%s", game_id, version)


@receiver(game_ended, dispatch_uid="notifications.game_ended")
def on_game_ended(sender: Any, *, game_id: int, **kwargs: Any) -> None:
    """Enqueue the final-result mails."""
    from . import tasks

    try:
        tasks.notify_game_ended.delay(game_id)
    except Exception:
        log.exception("could not enqueue result mails for game %s", game_id)


@receiver(inbound, dispatch_uid="notifications.anymail_inbound")
def on_inbound(sender: Any, event: Any, esp_name: str, **kwargs: Any) -> None:
    """An inbound mail from the ESP's (signature-verified) webhook: play by email."""
    from .inbound import inbound_process

    inbound_process(message=event.message)
