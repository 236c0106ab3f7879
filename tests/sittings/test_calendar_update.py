"""A sitting that ends early sends its updated calendar entry to those its invitation went to.

The invitation's .ics put the sitting in their calendars with its agreed end; when the table ends it
early, each gets the entry again (same UID, a higher SEQUENCE, the new end), once, by mail like the
invitation. A sitting that ends at its time changes nothing, so sends nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from icalendar import Calendar

from apps.games.models import Game
from apps.sittings import lifecycle, reminders, services
from apps.sittings.models import Sitting, SittingReminder
from tests.sittings.setup_helpers import agree, three_at_a_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> tuple[Game, list[Any]]:
    return three_at_a_table()


def _agree(game: Game, people: list[Any], capture: Any) -> Sitting:
    """The table agrees a sitting in 30 minutes."""
    return agree(game, people, capture, hours=0.5)


def _event(message: Any) -> tuple[Any, Any]:
    """The calendar and its one event attached to ``message``."""
    [(name, content, mimetype)] = message.attachments
    assert (name, mimetype) == ("sitting.ics", "text/calendar")
    calendar = Calendar.from_ical(content)
    [event] = calendar.walk("VEVENT")
    return calendar, event


def _end_early(game: Game, people: list[Any], sitting: Sitting, capture: Any) -> Any:
    """Everyone at the table asks to end the sitting 20 minutes into it; returns that moment."""
    now = sitting.starts_at + timedelta(minutes=20)
    with capture(execute=True):
        lifecycle.advance(now=sitting.starts_at, game=game)
        for user in people:
            services.presence_seen(game=game, user=user, now=now)
        for user in people:
            lifecycle.end_vote(game=game, user=user, now=now)
    return now


def test_an_early_end_mails_the_invited_the_updated_calendar_entry(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    sitting = _agree(game, people, django_capture_on_commit_callbacks)
    [invitation] = [m for m in mail.outbox if m.to[0] == people[0].email and "sitting agreed" in m.subject]
    _, invited = _event(invitation)
    mail.outbox.clear()

    ended = _end_early(game, people, sitting, django_capture_on_commit_callbacks)

    updates = [m for m in mail.outbox if "ended early" in m.subject]
    assert sorted(m.to[0] for m in updates) == sorted(u.email for u in people)
    calendar, event = _event(updates[0])
    assert str(calendar["method"]) == "PUBLISH"  # as the invitation: the entry is replaced
    assert str(event["uid"]) == str(invited["uid"])
    assert int(event["sequence"]) > int(invited["sequence"])
    assert event.decoded("dtstart") == invited.decoded("dtstart")
    assert event.decoded("dtend") == ended < invited.decoded("dtend")
    assert "ended" in updates[0].body and "calendar" in updates[0].body


def test_the_update_is_sent_once(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    sitting = _agree(game, people, django_capture_on_commit_callbacks)
    _end_early(game, people, sitting, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    again = reminders.calendar_updates_send(sitting_id=sitting.pk)

    assert again == 0 and mail.outbox == []
    assert SittingReminder.objects.filter(sitting=sitting, kind=SittingReminder.Kind.UPDATE).count() == 3


def test_only_those_invited_get_the_update(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """An invitation claimed for two of the three (the third joined the table later, say)."""
    game, people = table
    sitting = _agree(game, people, django_capture_on_commit_callbacks)
    SittingReminder.objects.filter(user=people[2], kind=SittingReminder.Kind.INVITATION).delete()
    mail.outbox.clear()

    _end_early(game, people, sitting, django_capture_on_commit_callbacks)

    updates = [m for m in mail.outbox if "ended early" in m.subject]
    assert sorted(m.to[0] for m in updates) == sorted(u.email for u in people[:2])


def test_a_sitting_ending_at_its_time_sends_no_update(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    sitting = _agree(game, people, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.advance(now=sitting.starts_at, game=game)
        lifecycle.advance(now=sitting.ends_at, game=game)

    assert Sitting.objects.get(pk=sitting.pk).status == Sitting.Status.ENDED
    assert [m for m in mail.outbox if "ended early" in m.subject] == []
