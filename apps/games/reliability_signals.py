"""Receivers that keep the reliability record (``apps.games.reliability``) from the games' signals.

They run after the commit of a game's start or end: a failure here is logged and never turns a
committed change into an error (the record is a statistic, the game is the truth). A move made in
person is counted by the pipeline itself, in the move's own writes (``reliability.answer_counted``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, transaction
from django.dispatch import receiver

from . import reliability
from .signals import game_ended, game_started

log = logging.getLogger(__name__)


def _safely(what: str, game_id: int, record: Callable[[], None], *, atomic: bool = True) -> None:
    """``record()``, in a transaction of its own when it writes more than one statement (``atomic``)."""
    try:
        if atomic:
            with transaction.atomic():
                record()
        else:
            record()
    except DatabaseError:
        log.exception("reliability record: %s of game %s not recorded", what, game_id)


@receiver(game_started, dispatch_uid="games.reliability.started")
def _started(sender: Any, game_id: int, **kwargs: Any) -> None:
    own_transaction = not reliability.start_writes_one_statement()  # one statement is atomic by itself
    _safely("the start", game_id, lambda: reliability.game_started(game_id=game_id), atomic=own_transaction)


@receiver(game_ended, dispatch_uid="games.reliability.ended")
def _ended(sender: Any, game_id: int, **kwargs: Any) -> None:
    _safely("the end", game_id, lambda: reliability.game_ended(game_id=game_id), atomic=False)
