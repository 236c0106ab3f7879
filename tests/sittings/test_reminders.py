"""Agreed sittings reach people: an invitation mail with an .ics, the calendar feed, and a reminder
mail and push 15 minutes before, each sent once per (sitting, person, kind)."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone
from icalendar import Calendar

from apps.games.models import Game
from apps.notifications import calendar
from apps.sittings import reminders
from apps.sittings.models import Sitting, SittingReminder
from tests.conftest import requires_postgres
from tests.factories import UserFactory
from tests.sittings.setup_helpers import agree, three_at_a_table
from tests.support.catalogue import stand_in_chinese

pytestmark = pytest.mark.django_db

#: The calendar entry's words, with stand-ins for a catalogue that does not have them yet.
CALENDAR_WORDS = {
    "%(game)s: sitting (%(engine)s)": "%(game)s：约局（%(engine)s）",
    "An agreed sitting of %(game)s: the table plays together at live speed. "
    "Open the game page to join: %(url)s": "%(game)s 的约局：同桌以实时速度一起玩。打开对局页面加入：%(url)s",
}


@pytest.fixture
def table() -> tuple[Game, list[Any]]:
    return three_at_a_table()


def test_every_player_gets_one_invitation_with_a_calendar_file(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table

    sitting = agree(game, people, django_capture_on_commit_callbacks)
    again = reminders.invitations_send(sitting_ids=[sitting.pk])

    invitations = [m for m in mail.outbox if "sitting agreed" in m.subject]
    assert sorted(m.to[0] for m in invitations) == sorted(u.email for u in people)
    assert again == 0
    attached = invitations[0].attachments[0]
    events = list(Calendar.from_ical(attached[1]).walk("VEVENT"))
    assert [e.decoded("dtstart") for e in events] == [sitting.starts_at]
    assert attached[2] == "text/calendar"


def test_the_reminders_go_out_15_minutes_before_once_each(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    sitting = agree(game, people, django_capture_on_commit_callbacks, quiet=True)

    early = reminders.reminders_send_due(now=sitting.starts_at - timedelta(minutes=20))
    due = reminders.reminders_send_due(now=sitting.starts_at - timedelta(minutes=14))
    repeated = reminders.reminders_send_due(now=sitting.starts_at - timedelta(minutes=5))

    assert (early, due, repeated) == (0, 6, 0)  # a mail and a push for each of three players
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in people)
    assert all("starts at" in m.subject for m in mail.outbox)
    assert SittingReminder.objects.filter(sitting=sitting, kind=SittingReminder.Kind.PUSH).count() == 3


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_two_beats_at_once_remind_each_person_once(table: tuple[Game, list[Any]]) -> None:
    """Two workers run the beat at the same moment: the claim rows' unique constraint lets one send."""
    game, people = table
    start = timezone.now() + timedelta(minutes=10)
    sitting = Sitting.objects.create(game=game, starts_at=start, ends_at=start + timedelta(hours=1))
    counts: list[int] = []
    barrier = threading.Barrier(2)

    def beat() -> None:
        try:
            barrier.wait()
            counts.append(reminders.reminders_send_due())
        finally:
            connection.close()

    threads = [threading.Thread(target=beat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sum(counts) == 6
    assert SittingReminder.objects.filter(sitting=sitting).count() == 6
    assert len([m for m in mail.outbox if "starts at" in m.subject]) == 3


def test_an_agreed_sitting_is_in_the_players_calendar_feed_only(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    sitting = agree(game, people, django_capture_on_commit_callbacks)
    watcher = UserFactory()

    mine = Calendar.from_ical(calendar.feed_ics(user=people[1]))
    theirs = Calendar.from_ical(calendar.feed_ics(user=watcher))

    entries = [e for e in mine.walk("VEVENT") if str(e["uid"]).startswith("sitting-")]
    assert [(e.decoded("dtstart"), e.decoded("dtend")) for e in entries] == [
        (sitting.starts_at, sitting.ends_at)
    ]
    assert not [e for e in theirs.walk("VEVENT") if str(e["uid"]).startswith("sitting-")]


def test_a_reminder_respects_an_unsubscribed_reminder_category(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    from apps.notifications import preferences

    game, people = table
    sitting = agree(game, people, django_capture_on_commit_callbacks)
    preferences.cell_set(user=people[2], category="reminders", channel="mail", mode="off")
    mail.outbox.clear()

    reminders.reminders_send_due(now=sitting.starts_at - timedelta(minutes=10))

    assert people[2].email not in [m.to[0] for m in mail.outbox]
    assert len(mail.outbox) == 2


def test_a_sitting_agreed_a_few_minutes_ahead_is_reminded_with_how_soon_it_starts(
    table: tuple[Game, list[Any]],
) -> None:
    """Agreed 3 minutes before its start, the sitting is reminded at the next beat: the mail said it
    "starts in 15 minutes", which was false; it says how many minutes are left."""
    game, people = table
    start = timezone.now() + timedelta(minutes=3)
    Sitting.objects.create(game=game, starts_at=start, ends_at=start + timedelta(hours=1))
    mail.outbox.clear()

    reminders.reminders_send_due()

    bodies = [m.body for m in mail.outbox]
    assert len(bodies) == 3
    assert all("starts in 3 minutes:" in b and "15 minutes" not in b for b in bodies)


def test_the_invitations_calendar_entry_is_in_the_readers_language(
    table: tuple[Game, list[Any]],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Chinese reader's calendar file names the sitting in Chinese, as the mail around it does (the
    entry's words are marked strings, not English built in code)."""
    game, people = table
    people[1].profile.language = "zh-hans"
    people[1].profile.save()
    stand_in_chinese(monkeypatch, CALENDAR_WORDS)

    agree(game, people, django_capture_on_commit_callbacks)

    (invitation,) = [m for m in mail.outbox if m.to == [people[1].email]]
    (event,) = Calendar.from_ical(invitation.attachments[0][1]).walk("VEVENT")
    assert "宝贝" in str(event["summary"]) and "sitting" not in str(event["summary"])
    assert "agreed sitting" not in str(event["description"])
    assert game.get_absolute_url() in str(event["description"]).replace("\n ", "")
