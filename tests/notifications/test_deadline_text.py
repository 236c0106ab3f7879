"""Mails give every deadline as a time in the reader's zone and as the time that was left."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from apps.notifications.compose import deadline_text
from tests.factories import UserFactory

from .conftest import mails_to
from .test_mail_names import _act, _start

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 6, 2, 8, 0, tzinfo=UTC)


def test_a_deadline_says_the_local_time_and_the_time_left_when_sent() -> None:
    user = UserFactory()
    user.profile.time_zone = "Europe/Paris"
    user.profile.save()

    text = deadline_text(NOW + timedelta(days=2, hours=3, minutes=10), user, now=NOW)

    assert text == "Thu 4 Jun 2026, 13:10 (France Time), 2 days 3 h after this mail was sent"


def test_a_stopped_clock_is_said_to_be_stopped() -> None:
    assert deadline_text(None, UserFactory(), now=NOW) == "no deadline (the clock is stopped)"


def test_the_window_mail_gives_the_time_left_of_its_deadline(django_capture_on_commit_callbacks):
    game, users = _start(django_capture_on_commit_callbacks, {})
    _act(game, users[2], 2, "draw", django_capture_on_commit_callbacks)

    _act(game, users[2], 2, "discard", django_capture_on_commit_callbacks)

    window = [m for m in mails_to(users[0]) if "plucking window" in m.subject][-1]
    assert re.search(r"Deadline: .+ \(UTC\), 3 h 59 min after this mail was sent", window.body)


def test_a_your_move_mail_states_the_readers_own_clock_and_the_control(django_capture_on_commit_callbacks):
    """Seat 2 owes its turn on a daily bank (3 days, +1 day per move, up to 5 days)."""
    game, users = _start(django_capture_on_commit_callbacks, {})
    _act(game, users[2], 2, "draw", django_capture_on_commit_callbacks)

    _act(game, users[2], 2, "discard", django_capture_on_commit_callbacks)

    window = [m for m in mails_to(users[0]) if "plucking window" in m.subject][-1]
    # a plucking window does not run the bank: seat 0's bank is still its initial 3 days
    assert "Your clock: 3 d left (+1 day per move, up to 5 days)" in window.body
    turn = [m for m in mails_to(users[2]) if "Your clock:" in m.body][0]
    assert re.search(r"Your clock: 2 d 23 h left \(\+1 day per move, up to 5 days\)", turn.body)
