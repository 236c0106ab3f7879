"""Celery tasks of the sittings: thin, idempotent, each calls one service."""

from __future__ import annotations

from celery import shared_task

from . import lifecycle, reminders


@shared_task
def send_invitations(sitting_ids: list[int]) -> int:
    return reminders.invitations_send(sitting_ids=sitting_ids)


@shared_task
def send_reminders() -> int:
    """The beat's minute: reminders due, and calendar changes whose own task was lost."""
    return reminders.sweep()


@shared_task
def send_calendar_updates(sitting_id: int) -> int:
    """A sitting ended early: its calendar update (the fast path; the minute sweep is the other)."""
    return reminders.calendar_changes_send(sitting_ids=[sitting_id])


@shared_task
def send_calendar_cancellations(sitting_ids: list[int]) -> int:
    """Sittings were cancelled: their calendar cancellations (the fast path; the minute sweep is the
    other)."""
    return reminders.calendar_changes_send(sitting_ids=sitting_ids)


@shared_task
def close_sittings_of_game(game_id: int) -> int:
    return lifecycle.game_over(game_id=game_id)


@shared_task
def advance_sittings() -> int:
    return lifecycle.advance()


@shared_task
def send_starting(sitting_id: int) -> int:
    return reminders.starting_send(sitting_id=sitting_id)
