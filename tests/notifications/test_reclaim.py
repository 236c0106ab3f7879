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


@pytest.fixture
def burst(started: Any, django_capture_on_commit_callbacks: Any) -> tuple[Notification, Notification]:
    """Two pending decision mails of one person and game (one burst: one mail takes both), due now."""
    with (
        mock.patch("apps.notifications.tasks.send_notification.delay"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        started(2)
    first = Notification.objects.get()
    Notification.objects.filter(pk=first.pk).update(due_at=timezone.now() - timedelta(minutes=1))
    first.refresh_from_db()
    second = Notification.objects.create(
        user=first.user,
        game=first.game,
        version=first.version + 1,
        kind=first.kind,
        category=first.category,
        seat=first.seat,
        decision_id=first.decision_id,
        decision_kind=first.decision_kind,
        due_at=first.due_at,
    )
    return first, second


def _slow_send(during: Any) -> Any:
    """``mails.build_message`` whose first message, when sent, first lets ``during`` run: a worker that
    stalls in the middle of its send (an SMTP server that answers late) while others go on."""
    build = send.mails.build_message
    stalled: list[bool] = []

    def build_message(*args: Any, **kwargs: Any) -> Any:
        message = build(*args, **kwargs)
        if message is not None and not stalled:
            stalled.append(True)
            real_send = message.send

            def stalled_send(*a: Any, **k: Any) -> Any:
                during()
                return real_send(*a, **k)

            message.send = stalled_send
        return message

    return mock.patch.object(send.mails, "build_message", build_message)


def test_a_send_slower_than_the_claim_timeout_leaves_a_row_sent_again_by_another_worker_sent(
    burst: tuple[Notification, Notification], django_capture_on_commit_callbacks: Any
) -> None:
    """A worker claims a mail and the other mail of its burst, then stalls in its send past the claim
    timeout: the sweep takes both back and another worker sends them. When the slow worker's send
    finally goes out, it records its own mail as sent and leaves the row the other worker sent as that
    worker recorded it (sent, with its "Reclaimed" note), not "merged" into its own late mail: two
    mails went out for that row, and the row says so."""
    first, second = burst
    start = timezone.now()
    later = start + _stale()

    def meanwhile() -> None:
        with django_capture_on_commit_callbacks(execute=False):
            assert send.notifications_reclaim_stale(now=later) == 2
        assert send.notification_send(notification_id=second.pk, now=later) is True

    with _slow_send(meanwhile):
        assert send.notification_send(notification_id=first.pk, now=start) is True

    first.refresh_from_db()
    second.refresh_from_db()
    assert len(mail.outbox) == 2  # the slow worker's mail and the other worker's
    assert second.status == Notification.Status.SENT
    assert second.last_error.startswith("Reclaimed: ")  # the record that it may have gone out twice
    assert first.status == Notification.Status.SENT  # the slow worker's own mail did go out
    assert first.last_error.startswith("Reclaimed: ")


def test_a_send_that_fails_after_the_claim_timeout_leaves_the_rows_another_worker_sent(
    burst: tuple[Notification, Notification], django_capture_on_commit_callbacks: Any
) -> None:
    """As above, but the slow worker's send fails in the end: the rows another worker sent meanwhile
    stay sent (and merged into its mail), not put back to be sent a third time."""
    first, second = burst
    start = timezone.now()
    later = start + _stale()

    def meanwhile() -> None:
        with django_capture_on_commit_callbacks(execute=False):
            send.notifications_reclaim_stale(now=later)
        assert send.notification_send(notification_id=second.pk, now=later) is True
        raise ConnectionResetError("the SMTP server went away")

    with _slow_send(meanwhile), pytest.raises(send.SendFailed):
        send.notification_send(notification_id=first.pk, now=start)

    statuses = dict(Notification.objects.values_list("pk", "status"))
    assert statuses == {second.pk: Notification.Status.SENT, first.pk: Notification.Status.MERGED}
    assert len(mail.outbox) == 1
