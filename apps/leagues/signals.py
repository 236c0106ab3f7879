"""Receivers: a league game that ended updates the season's standings and ratings."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from apps.games.signals import game_ended

from . import services


@receiver(game_ended, dispatch_uid="leagues.record_result")
def record_result(sender: Any, game_id: int, **kwargs: Any) -> None:
    """Count the game's result if it is a league game (idempotent)."""
    services.fixture_record_result(game_id=game_id)
