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


@shared_task(acks_late=True)
def mail_join_request(membership_id: int) -> int:
    """Mail a league's organisers that someone asks to join."""
    from . import joinmail

    return joinmail.join_request_mail_send(membership_id=membership_id)


@shared_task(acks_late=True)
def mail_join_approved(membership_id: int) -> int:
    """Mail a member that their request to join was approved."""
    from . import joinmail

    return joinmail.approval_mail_send(membership_id=membership_id)


@shared_task(acks_late=True)
def mail_join_declined(declined_id: int) -> int:
    """Mail the one who asked to join that their request was declined."""
    from . import joinmail

    return joinmail.decline_mail_send(declined_id=declined_id)


@shared_task(acks_late=True)
def recover_join_request_mails() -> int:
    """Beat: queue again the mails of requests to join, approvals and declines still untold, and delete
    the declines told (or given up) long ago."""
    from . import joinmail

    return joinmail.join_requests_recover()
