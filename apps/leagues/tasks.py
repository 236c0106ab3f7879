"""Celery tasks of the leagues app."""

from __future__ import annotations

from celery import shared_task

from . import seasons


@shared_task(acks_late=True)
def start_due_rounds() -> int:
    """Beat: start every league round whose scheduled time has come."""
    return seasons.rounds_start_due()


@shared_task(acks_late=True)
def confirm_due_results() -> int:
    """Beat: confirm every provisional league result whose confirmation period has ended."""
    from . import confirmation

    return confirmation.confirm_due()
