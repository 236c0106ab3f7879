"""A reminder comes at 75% of a decision's time, at most a sweep late, and never after the deadline.

The decision's opening and deadline are set on its row (a custom clock of that length); the
notifications' clock is moved instead of sleeping. Sending runs eagerly (``send_notification``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core import mail

from apps.games.models import Decision, Game
from apps.notifications import notify, send
from apps.notifications.models import Notification
from tests.notifications.conftest import mails_to
from tests.support.notify_clock import MovableClock  # its fixture `clock` is a plugin (conftest.py)

pytestmark = pytest.mark.django_db


def _decision_lasting(game: Game, clock: MovableClock, minutes: float) -> Decision:
    """Seat 0's decision, opened now on ``clock`` with ``minutes`` to its deadline."""
    decision = Decision.objects.get(game=game, seat=0)
    Decision.objects.filter(pk=decision.pk).update(
        opened_at=clock.now, deadline=clock.now + timedelta(minutes=minutes), reminded_at=None
    )
    decision.refresh_from_db()
    return decision


def _sweep(capture: Any) -> int:
    with capture(execute=True):
        return notify.reminders_send_due()


@pytest.fixture
def one_player(started: Any, django_capture_on_commit_callbacks: Any) -> Game:
    """A toy game whose seat 0 must act; the mails of its start are left behind."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    mail.outbox.clear()
    return game


def test_the_reminder_sweep_runs_every_minute() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["notifications-reminders"]
    assert entry["schedule"] == django_settings.NOTIFY_REMINDER_SWEEP_SECONDS == 60


def test_a_20_minute_decision_is_reminded_within_a_sweep_of_its_75_percent(
    one_player: Game, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    decision = _decision_lasting(one_player, clock, 20)
    clock.advance(15 * 60 - 1)
    assert _sweep(django_capture_on_commit_callbacks) == 0

    clock.advance(django_settings.NOTIFY_REMINDER_SWEEP_SECONDS)  # the next sweep, a minute later
    assert _sweep(django_capture_on_commit_callbacks) == 1

    [reminder] = mails_to(users[0])
    assert "reminder" in reminder.subject
    assert decision.deadline is not None and decision.deadline - clock.now >= notify.REMINDER_MIN_LEFT


def test_a_decision_too_short_for_a_useful_reminder_gets_none(
    one_player: Game, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    """A 4-minute custom clock: at 75% one minute is left, and the sweep may come up to a minute late;
    the reminder is skipped for good rather than come with seconds left (or after the deadline)."""
    decision = _decision_lasting(one_player, clock, 4)
    clock.advance(3 * 60)

    assert _sweep(django_capture_on_commit_callbacks) == 0
    clock.advance(30)
    assert _sweep(django_capture_on_commit_callbacks) == 0

    assert mails_to(users[0]) == []
    assert Decision.objects.get(pk=decision.pk).reminded_at is not None  # no later sweep looks again


def test_a_late_sweep_with_less_than_a_minute_left_sends_nothing(
    one_player: Game, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    """The beat was down: the sweep finds a 20-minute decision with 40 seconds left."""
    _decision_lasting(one_player, clock, 20)
    clock.advance(20 * 60 - 40)

    assert _sweep(django_capture_on_commit_callbacks) == 0
    assert mails_to(users[0]) == []


def test_a_reminder_whose_send_comes_after_the_deadline_is_not_sent(
    one_player: Game,
    users: list,
    clock: MovableClock,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reminder is recorded in time, but its send task runs only after the deadline (a busy queue,
    a retry), while the decision is still open until the clock settles it: nothing is mailed."""
    decision = _decision_lasting(one_player, clock, 20)
    clock.advance(15 * 60)
    monkeypatch.setattr(send, "queue_send", lambda note, *, now: None)  # the send task is held back
    assert _sweep(django_capture_on_commit_callbacks) == 1
    assert decision.deadline is not None
    clock.now = decision.deadline + timedelta(seconds=5)
    assert Decision.objects.filter(pk=decision.pk).exists()  # not settled yet

    note = Notification.objects.get(user=users[0], kind=Notification.Kind.REMINDER)
    assert send.notification_send(notification_id=note.pk) is False

    assert mails_to(users[0]) == []
    assert Notification.objects.get(pk=note.pk).status == Notification.Status.SKIPPED
