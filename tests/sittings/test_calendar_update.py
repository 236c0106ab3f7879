"""A sitting that ends early sends its updated calendar entry to those its invitation went to.

The invitation's .ics put the sitting in their calendars with its agreed end; when the table ends it
early, each gets the entry again (same UID, a higher SEQUENCE, the new end), once, by mail like the
invitation. A sitting that ends at its time changes nothing, so sends nothing. The update goes to those
the invitation of that very sitting went to (a weekly series' one invitation covers each of its
sittings), by a task queued when the end commits and by the minute sweep if that task is lost.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from icalendar import Calendar

from apps.games.models import Game
from apps.sittings import lifecycle, reminders, services, tasks
from apps.sittings.models import Sitting, SittingReminder
from tests.sittings.setup_helpers import agree, three_at_a_table, week_of_evenings

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> tuple[Game, list[Any]]:
    return three_at_a_table()


def _agree(game: Game, people: list[Any], capture: Any, *, quiet: bool = False) -> Sitting:
    """The table agrees a sitting in 30 minutes (``quiet``: the outbox emptied after)."""
    return agree(game, people, capture, hours=0.5, quiet=quiet)


def _agree_each(
    game: Game, people: list[Any], capture: Any, *, indexes: tuple[int | None, ...] = (None,), **proposed: Any
) -> list[Sitting]:
    """``people[0]`` proposes ``proposed`` (times, or a weekly recurrence) and the others say yes to each
    time of ``indexes`` in turn (``None``: every open time at once); the game's sittings by start."""
    with capture(execute=True):
        proposal = services.proposal_create(game=game, user=people[0], **proposed)
        for index in indexes:
            for user in people[1:]:
                services.answer(game=game, user=user, proposal_id=proposal.pk, accept=True, index=index)
    return list(Sitting.objects.filter(game=game).order_by("starts_at"))


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

    again = reminders.calendar_changes_send(sitting_ids=[sitting.pk])

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
    sitting = _agree(game, people, django_capture_on_commit_callbacks, quiet=True)

    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.advance(now=sitting.starts_at, game=game)
        lifecycle.advance(now=sitting.ends_at, game=game)

    assert Sitting.objects.get(pk=sitting.pk).status == Sitting.Status.ENDED
    assert [m for m in mail.outbox if "ended early" in m.subject] == []


def _updates() -> list[Any]:
    return [m for m in mail.outbox if "ended early" in m.subject]


def test_with_the_broker_down_at_the_early_end_the_minute_sweep_sends_the_update_once(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The update's task is published once, on commit; the publish fails (logged, never an error for the
    committed end): the sittings' minute sweep sends it, and a second sweep sends nothing."""
    game, people = table
    sitting = _agree(game, people, django_capture_on_commit_callbacks, quiet=True)
    monkeypatch.setattr(lifecycle, "publish", lambda *args, **kwargs: False)

    _end_early(game, people, sitting, django_capture_on_commit_callbacks)
    lost = _updates()
    swept = tasks.send_reminders()
    again = tasks.send_reminders()

    assert lost == []
    assert (swept, again) == (3, 0)
    assert sorted(m.to[0] for m in _updates()) == sorted(u.email for u in people)


def test_the_task_and_the_sweep_together_send_the_update_once(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    sitting = _agree(game, people, django_capture_on_commit_callbacks, quiet=True)

    _end_early(game, people, sitting, django_capture_on_commit_callbacks)
    swept = tasks.send_reminders()

    assert swept == 0
    assert sorted(m.to[0] for m in _updates()) == sorted(u.email for u in people)


def test_the_sweep_leaves_changes_older_than_a_day_and_sittings_that_ended_at_their_time(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, people = table
    sitting = _agree(game, people, django_capture_on_commit_callbacks)
    monkeypatch.setattr(lifecycle, "publish", lambda *args, **kwargs: False)
    ended = _end_early(game, people, sitting, django_capture_on_commit_callbacks)
    on_time = Sitting.objects.create(
        game=game, starts_at=ended, ends_at=ended, status=Sitting.Status.ENDED, ended_at=ended
    )
    SittingReminder.objects.bulk_create(
        SittingReminder(sitting=on_time, user=u, kind=SittingReminder.Kind.INVITATION, sent_at=ended)
        for u in people
    )
    mail.outbox.clear()

    late = reminders.calendar_changes_send_due(now=ended + reminders.CHANGE_RECOVERY + timedelta(seconds=1))
    in_time = reminders.calendar_changes_send_due(now=ended + timedelta(hours=1))

    assert (late, in_time) == (0, 3)
    assert {m.to[0] for m in _updates()} == {u.email for u in people}
    assert not SittingReminder.objects.filter(sitting=on_time, kind=SittingReminder.Kind.UPDATE).exists()


def test_an_update_goes_only_to_those_the_invitation_of_that_sitting_went_to(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """Two times of one proposal, agreed one after the other: the third player was at the table for the
    first (invited to it) but not when the second was agreed (no invitation of the second: their row is
    removed here). The second's early end is not theirs to hear of."""
    game, people = table
    start = timezone.now() + timedelta(minutes=30)
    times = [start, start + timedelta(hours=3)]
    first, second = _agree_each(game, people, django_capture_on_commit_callbacks, indexes=(1, 2), times=times)
    SittingReminder.objects.filter(
        sitting=second, user=people[2], kind=SittingReminder.Kind.INVITATION
    ).delete()
    mail.outbox.clear()

    _end_early(game, people, second, django_capture_on_commit_callbacks)

    assert SittingReminder.objects.filter(sitting=first, kind=SittingReminder.Kind.INVITATION).count() == 3
    assert sorted(m.to[0] for m in _updates()) == sorted(u.email for u in people[:2])


def test_each_sitting_of_a_weekly_series_has_its_invitation_and_its_update_goes_to_all_invited(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """One invitation mail for the series, recorded on each of its sittings: the second's early end is
    sent to everyone it went to."""
    game, people = table
    series = week_of_evenings()
    week = _agree_each(game, people, django_capture_on_commit_callbacks, recurrence=series)
    invitations = [m for m in mail.outbox if "sitting agreed" in m.subject]
    mail.outbox.clear()

    _end_early(game, people, week[1], django_capture_on_commit_callbacks)

    assert len(invitations) == 3
    assert all(
        SittingReminder.objects.filter(sitting=s, kind=SittingReminder.Kind.INVITATION).count() == 3
        for s in week
    )
    assert sorted(m.to[0] for m in _updates()) == sorted(u.email for u in people)


def test_the_update_claims_no_agreement_of_a_player_who_was_away(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """Two players end the sitting while the third is away: the third's update says when it ended, not
    that everyone agreed to end it (they never pressed "End it now"); its calendar file is the same."""
    game, people = table
    sitting = _agree(game, people, django_capture_on_commit_callbacks, quiet=True)
    now = sitting.starts_at + timedelta(minutes=20)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.advance(now=sitting.starts_at, game=game)
        for user in people[:2]:
            services.presence_seen(game=game, user=user, now=now)
        for user in people[:2]:
            lifecycle.end_vote(game=game, user=user, now=now)

    [away] = [m for m in mail.outbox if "ended early" in m.subject and m.to == [people[2].email]]
    ended = f"{timezone.localtime(now, people[2].profile.zone):%H:%M}"
    for text in (away.body, away.alternatives[0][0]):
        assert "agreed" not in text
        assert f"ended early, at {ended}" in " ".join(text.split())
    _, event = _event(away)
    assert event.decoded("dtend") == now
