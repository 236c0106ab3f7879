"""Web Push tasks: thin wrappers around the services, sent by name."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from . import services


@shared_task(name="apps.push.tasks.push_decisions", ignore_result=True)
def push_decisions(game_id: int, version: int, opened: list[list[Any]]) -> int:
    """Notify the browsers of the people for whom a move opened a decision."""
    return services.push_decisions(game_id=game_id, version=version, opened=opened)
