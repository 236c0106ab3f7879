"""Receivers: a league game that ended updates the season's standings and ratings."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db.models import QuerySet
from django.dispatch import receiver

from apps.games import sql
from apps.games.signals import game_ended

from . import results
from .models import Fixture


@receiver(game_ended, dispatch_uid="leagues.record_result")
def record_result(sender: Any, game_id: int, **kwargs: Any) -> None:
    """Count the game's result if it is a league game (idempotent). Most games are not: one SELECT
    compiled once asks first, and only a league game's end opens the transaction that counts it."""
    sql.when_any(_fixtures, game_id, partial(results.fixture_record_result, game_id=game_id))


def _fixtures(game_id: int) -> QuerySet[Fixture]:
    return Fixture.objects.filter(game_id=game_id)
