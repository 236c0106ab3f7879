"""Receivers that keep the reliability record (``apps.games.reliability``) from the games' signals."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from . import reliability
from .signals import game_ended, game_started, move_applied


@receiver(game_started, dispatch_uid="games.reliability.started")
def _started(sender: Any, game_id: int, **kwargs: Any) -> None:
    reliability.game_started(game_id=game_id)


@receiver(move_applied, dispatch_uid="games.reliability.answered")
def _answered(sender: Any, move_id: int, in_person_seat: int | None = None, **kwargs: Any) -> None:
    if in_person_seat is not None:
        reliability.answered(move_id=move_id)


@receiver(game_ended, dispatch_uid="games.reliability.ended")
def _ended(sender: Any, game_id: int, **kwargs: Any) -> None:
    reliability.game_ended(game_id=game_id)
