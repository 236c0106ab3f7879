"""Receivers that keep the reliability record (``apps.games.reliability``) from the games' signals.

They run after the move's commit: a failure here is logged and never turns a committed move into an
error (the record is a statistic, the move is the truth).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, transaction
from django.dispatch import receiver

from . import reliability
from .signals import game_ended, game_started, move_applied

log = logging.getLogger(__name__)


def _safely(what: str, game_id: int, record: Callable[[], None]) -> None:
    try:
        with transaction.atomic():
            record()
    except DatabaseError:
        log.exception("reliability record: %s of game %s not recorded", what, game_id)


@receiver(game_started, dispatch_uid="games.reliability.started")
def _started(sender: Any, game_id: int, **kwargs: Any) -> None:
    _safely("the start", game_id, lambda: reliability.game_started(game_id=game_id))


@receiver(move_applied, dispatch_uid="games.reliability.answered")
def _answered(
    sender: Any, game_id: int, move_id: int, in_person_seat: int | None = None, **kwargs: Any
) -> None:
    if in_person_seat is None:
        return
    try:  # one UPDATE, outside a transaction of its own (every move in person runs this)
        reliability.answered_in_seat(move_id=move_id, game_id=game_id, position=in_person_seat)
    except DatabaseError:
        log.exception("reliability record: %s of game %s not recorded", "an answer", game_id)


@receiver(game_ended, dispatch_uid="games.reliability.ended")
def _ended(sender: Any, game_id: int, **kwargs: Any) -> None:
    _safely("the end", game_id, lambda: reliability.game_ended(game_id=game_id))
