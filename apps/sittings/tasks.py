"""Celery tasks of the sittings: thin, idempotent, each calls one service."""

from __future__ import annotations

from celery import shared_task

from . import lifecycle, reminders


@shared_task
def send_invitations(sitting_ids: list[int]) -> int:
    return reminders.invitations_send(sitting_ids=sitting_ids)


@shared_task
def send_reminders() -> int:
    return reminders.reminders_send_due()


@shared_task
def send_calendar_updates(sitting_id: int) -> int:
    return reminders.calendar_updates_send(sitting_id=sitting_id)


@shared_task
def advance_sittings() -> int:
    return lifecycle.advance()


@shared_task
def send_starting(sitting_id: int) -> int:
    return reminders.starting_send(sitting_id=sitting_id)
