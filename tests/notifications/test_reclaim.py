"""Stale claims: a notification left ``sending`` by a worker that died is re-queued, or given up."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from apps.notifications import send, tasks
from apps.notifications.models import Notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def claimed(started: Any, django_capture_on_commit_callbacks: Any) -> Any:
    """A decision mail recorded but not sent, then claimed by a worker ``age`` ago that never finished."""
    with (
        mock.patch("apps.notifications.tasks.send_notification.delay"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        started(2)
    note = Notification.objects.get()

    def claim(age: timedelta, attempts: int = 1) -> Notification:
        Notification.objects.filter(pk=note.pk).update(
            status=Notification.Status.SENDING, claimed_at=timezone.now() - age, attempts=attempts
        )
        return note

    return claim


def _stale() -> timedelta:
    return timedelta(seconds=settings.NOTIFICATIONS_CLAIM_TIMEOUT + 60)


def test_a_stale_claim_is_requeued_and_then_sent_once(
    claimed: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The sweep puts the row back to pending and queues the send, which sends it; the dead worker's
    own message, redelivered later by the broker, then finds nothing to send."""
    note = claimed(_stale())

    with django_capture_on_commit_callbacks(execute=True):
        requeued = send.notifications_reclaim_stale()
    redelivered = tasks.send_notification(note.pk)

    row = Notification.objects.get(pk=note.pk)
    assert requeued == 1
    assert (row.status, row.attempts) == (Notification.Status.SENT, 2)
    assert row.last_error.startswith("Reclaimed: ")  # kept: the record that it may have gone out twice
    assert redelivered is False
    assert len(mail.outbox) == 1


def test_a_fresh_claim_is_left_to_its_worker(claimed: Any, django_capture_on_commit_callbacks: Any) -> None:
    note = claimed(timedelta(seconds=settings.NOTIFICATIONS_CLAIM_TIMEOUT - 60))

    with django_capture_on_commit_callbacks() as callbacks:
        requeued = send.notifications_reclaim_stale()

    assert requeued == 0
    assert callbacks == []
    assert Notification.objects.get(pk=note.pk).status == Notification.Status.SENDING
    assert mail.outbox == []


def test_the_claim_timeout_is_a_setting(
    claimed: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A claim two minutes old is stale under a one-minute timeout."""
    settings.NOTIFICATIONS_CLAIM_TIMEOUT = 60
    claimed(timedelta(minutes=2))

    with (
        mock.patch("apps.notifications.tasks.send_notification.delay"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        requeued = send.notifications_reclaim_stale()

    assert requeued == 1


def test_a_stale_claim_past_the_attempt_limit_is_failed_with_the_reason(
    claimed: Any, django_capture_on_commit_callbacks: Any
) -> None:
    note = claimed(_stale(), attempts=send.SEND_MAX_ATTEMPTS)

    with django_capture_on_commit_callbacks() as callbacks:
        requeued = send.notifications_reclaim_stale()

    row = Notification.objects.get(pk=note.pk)
    assert requeued == 0
    assert callbacks == []
    assert row.status == Notification.Status.FAILED
    assert f"Gave up after {send.SEND_MAX_ATTEMPTS} attempts" in row.last_error
    assert mail.outbox == []


def test_a_stale_claim_one_below_the_limit_still_gets_its_last_attempt(
    claimed: Any, django_capture_on_commit_callbacks: Any
) -> None:
    note = claimed(_stale(), attempts=send.SEND_MAX_ATTEMPTS - 1)

    with django_capture_on_commit_callbacks(execute=True):
        send.notifications_reclaim_stale()

    row = Notification.objects.get(pk=note.pk)
    assert (row.status, row.attempts) == (Notification.Status.SENT, send.SEND_MAX_ATTEMPTS)
    assert len(mail.outbox) == 1


def test_running_the_sweep_twice_queues_the_send_once(
    claimed: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The first sweep takes the row back to pending; the second finds no stale claim."""
    note = claimed(_stale())

    with (
        mock.patch("apps.notifications.tasks.send_notification.delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        first = send.notifications_reclaim_stale()
        second = send.notifications_reclaim_stale()

    assert (first, second) == (1, 0)
    delay.assert_called_once_with(note.pk)
    assert Notification.objects.get(pk=note.pk).status == Notification.Status.PENDING


def test_the_sweep_runs_on_the_beat_schedule() -> None:
    """Every five minutes: a stale claim waits at most the timeout plus one beat period."""
    name = tasks.reclaim_stale_notifications.name

    entries = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == name]

    assert len(entries) == 1
    assert entries[0]["schedule"] < settings.NOTIFICATIONS_CLAIM_TIMEOUT


def test_a_row_given_up_is_not_sent_by_a_late_redelivered_task(
    claimed: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The broker may still deliver the dead worker's task after the sweep gave the row up."""
    note = claimed(_stale(), attempts=send.SEND_MAX_ATTEMPTS)
    with django_capture_on_commit_callbacks(execute=True):
        send.notifications_reclaim_stale()

    sent = send.notification_send(notification_id=note.pk)

    assert sent is False and mail.outbox == []
    assert Notification.objects.get(pk=note.pk).status == Notification.Status.FAILED
