"""Celery tasks: each takes ids and calls one service; running one twice sends nothing twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from . import inbound, mails, moderation, notify, outbox, send


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def notify_move_applied(game_id: int, version: int, move_id: int | None, opened: list[list[Any]]) -> int:
    """Record (and send) the mails a move calls for."""
    return notify.notify_move_applied(game_id=game_id, version=version, move_id=move_id, opened=opened)


@shared_task(acks_late=True)
def drain_outbox() -> int:
    """Do the work of every move's outbox row not taken yet (mail, webhooks, push); woken after commits."""
    return outbox.drain()


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def notify_game_ended(game_id: int) -> int:
    """Record (and send) the final-result mails."""
    return notify.notify_game_ended(game_id=game_id)


@shared_task(
    acks_late=True,
    autoretry_for=(send.SendFailed,),
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=send.SEND_MAX_ATTEMPTS - 1,
)
def send_notification(notification_id: int) -> bool:
    """Send one notification (claimed first, so a retry or a duplicate task never sends twice)."""
    return send.notification_send(notification_id=notification_id)


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=5)
def send_answer(inbound_id: int) -> bool:
    """Answer one processed inbound mail."""
    return inbound.answer_send(inbound_id=inbound_id)


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=5)
def mail_talk_report(message_id: int) -> int:
    """Mail the site's staff that a table-talk message got its first report."""
    return moderation.talk_report_mail_send(message_id=message_id)


@shared_task(acks_late=True)
def send_reminders() -> int:
    """Beat: remind the owners of decisions whose time is 75% gone."""
    return notify.reminders_send_due()


@shared_task(acks_late=True)
def send_digests() -> int:
    """Beat: the daily digests of users whose local digest hour it is."""
    return notify.digests_send_due()


@shared_task(acks_late=True)
def reclaim_stale_notifications() -> int:
    """Beat: re-queue (or give up) notifications whose sending worker died after claiming them, and
    re-queue those whose send task was lost."""
    return send.notifications_recover()


@shared_task(acks_late=True)
def expire_reply_addresses() -> int:
    """Beat, daily: forget reply-address nonces past their lifetime."""
    return mails.expire_reply_addresses()
