"""A game that ends (or is aborted) closes its sittings (docs/playing.md "Sittings").

Those still to come are cancelled, and everyone their invitation went to is mailed a calendar
cancellation (the same UID, a higher SEQUENCE, METHOD:CANCEL, STATUS:CANCELLED), once, under the
"Invitations" preference: one mail per person for the sittings of a game (a weekly series was one
invitation). The sitting under way ends. Nothing is sent in the game's end itself: a task queued when
the end commits does it, and the sittings' beat and minute sweep do it if that task is lost.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import OperationalError, transaction
from django.utils import timezone
from icalendar import Calendar

from apps.games import lifecycle as game_lifecycle
from apps.games.models import Game
from apps.games.store import lock_game
from apps.notifications.preferences import preferences_set
from apps.sittings import ics, lifecycle, receivers, reminders, services
from apps.sittings.models import Sitting, SittingReminder
from tests.sittings.setup_helpers import three_at_a_table, week_of_evenings

pytestmark = pytest.mark.django_db

CANCELLED = "the game is over, its sittings are cancelled"


@pytest.fixture
def table() -> tuple[Game, list[Any]]:
    return three_at_a_table()


def _agree(game: Game, people: list[Any], capture: Any, *, series: bool = False) -> list[Sitting]:
    """Every player says yes to a time in 30 minutes, or to a week of evenings from tomorrow."""
    with capture(execute=True):
        if series:
            week = week_of_evenings()
            proposal = services.proposal_create(game=game, user=people[0], recurrence=week)
        else:
            soon = timezone.now() + timedelta(minutes=30)
            proposal = services.proposal_create(game=game, user=people[0], times=[soon])
        for user in people[1:]:
            services.answer(game=game, user=user, proposal_id=proposal.pk, accept=True)
    return list(Sitting.objects.filter(game=game).order_by("starts_at"))


def _abort(game: Game, capture: Any) -> None:
    with capture(execute=True), transaction.atomic():
        game_lifecycle.game_abort(lock_game(game.pk), reason="Aborted by the league's organisers")


def _calendar(message: Any) -> Any:
    [(name, content, mimetype)] = message.attachments
    assert (name, mimetype) == ("sitting.ics", "text/calendar")
    return Calendar.from_ical(content)


def _cancellations() -> list[Any]:
    return [m for m in mail.outbox if CANCELLED in m.subject]


def test_the_end_of_a_game_cancels_its_sittings_in_the_calendars_of_those_invited(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    [sitting] = _agree(game, people, django_capture_on_commit_callbacks)
    [invitation] = [m for m in mail.outbox if m.to[0] == people[1].email and "sitting agreed" in m.subject]
    [invited] = _calendar(invitation).walk("VEVENT")
    mail.outbox.clear()

    _abort(game, django_capture_on_commit_callbacks)

    assert Sitting.objects.get(pk=sitting.pk).status == Sitting.Status.CANCELLED
    cancellations = _cancellations()
    assert sorted(m.to[0] for m in cancellations) == sorted(u.email for u in people)
    calendar = _calendar(next(m for m in cancellations if m.to[0] == people[1].email))
    [event] = calendar.walk("VEVENT")
    assert str(calendar["method"]) == "CANCEL"
    assert str(event["status"]) == "CANCELLED"
    assert str(event["uid"]) == str(invited["uid"])
    assert int(event["sequence"]) > int(invited["sequence"])
    assert str(event["attendee"]) == f"mailto:{people[1].email}"
    assert "will not take place" in cancellations[0].body
    assert Sitting.objects.filter(game=game, status=Sitting.Status.SCHEDULED).count() == 0


def test_a_weekly_series_is_cancelled_in_one_mail_per_person_once(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """One invitation covered the week's seven sittings: one cancellation covers them, each claimed."""
    game, people = table
    week = _agree(game, people, django_capture_on_commit_callbacks, series=True)
    mail.outbox.clear()

    _abort(game, django_capture_on_commit_callbacks)
    again = reminders.sweep() + reminders.calendar_changes_send(sitting_ids=[s.pk for s in week])

    cancellations = _cancellations()
    assert len(week) == 7 and again == 0
    assert sorted(m.to[0] for m in cancellations) == sorted(u.email for u in people)
    events = _calendar(cancellations[0]).walk("VEVENT")
    assert sorted(str(e["uid"]) for e in events) == sorted(ics.uid(s) for s in week)
    assert SittingReminder.objects.filter(kind=SittingReminder.Kind.CANCEL).count() == 7 * 3


def test_a_finished_game_cancels_its_sittings_too(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    [sitting] = _agree(game, people, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game_lifecycle.game_adjudicate(lock_game(game.pk), places={0: 1, 1: 2, 2: 3}, reason="Adjudicated")

    assert Sitting.objects.get(pk=sitting.pk).status == Sitting.Status.CANCELLED
    assert len(_cancellations()) == 3


def test_the_cancellation_follows_the_invitations_preference(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    _agree(game, people, django_capture_on_commit_callbacks)
    preferences_set(user=people[2], category="invitation", mode="off")
    mail.outbox.clear()

    _abort(game, django_capture_on_commit_callbacks)

    assert sorted(m.to[0] for m in _cancellations()) == sorted(u.email for u in people[:2])


def test_the_sitting_under_way_ends_with_the_game_and_nothing_is_mailed(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """It took place: it ends (the game back on its own control); only sittings to come are cancelled."""
    game, people = table
    now = timezone.now()
    for user in people:
        services.presence_seen(game=game, user=user, now=now)
    under_way = Sitting.objects.create(game=game, starts_at=now, ends_at=now + timedelta(hours=1))
    lifecycle.advance(now=now, game=game)
    mail.outbox.clear()

    _abort(game, django_capture_on_commit_callbacks)
    game.refresh_from_db()

    assert Sitting.objects.get(pk=under_way.pk).status == Sitting.Status.ENDED
    assert game.control == "daily" and game.live_clock is None
    assert [m.subject for m in mail.outbox if "sitting" in m.subject] == []


def test_with_the_broker_down_at_the_end_the_beat_and_the_sweep_cancel_once(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every publish fails (logged, never an error for the committed end): the sittings' beat
    (``advance``) cancels them and the minute sweep mails the cancellations, once."""
    game, people = table
    [sitting] = _agree(game, people, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    for module in (receivers, lifecycle):
        monkeypatch.setattr(module, "publish", lambda *args, **kwargs: False)

    _abort(game, django_capture_on_commit_callbacks)
    still = Sitting.objects.get(pk=sitting.pk).status
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.advance()
    swept = reminders.sweep()
    again = reminders.sweep()

    assert still == Sitting.Status.SCHEDULED
    assert Sitting.objects.get(pk=sitting.pk).status == Sitting.Status.CANCELLED
    assert (swept, again) == (3, 0)
    assert len(_cancellations()) == 3


@pytest.mark.parametrize(
    ("sitting", "queued"),
    [("scheduled", True), ("live", True), (None, False), ("ended", False), ("cancelled", False)],
)
def test_the_end_queues_the_closing_task_only_for_a_game_with_a_sitting_to_close(
    sitting: str | None,
    queued: bool,
    table: tuple[Game, list[Any]],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sitting still to come or under way: the end queues its task. None, or only sittings over: it
    queues nothing (most games have no sitting: no task for each of their ends)."""
    game, _people = table
    now = timezone.now()
    if sitting is not None:
        Sitting.objects.create(game=game, starts_at=now, ends_at=now + timedelta(hours=1), status=sitting)
    published: list[tuple[Any, ...]] = []
    monkeypatch.setattr(receivers, "publish", lambda *args, **kwargs: published.append(args))

    _abort(game, django_capture_on_commit_callbacks)

    expected = [("apps.sittings.tasks.close_sittings_of_game", (game.pk,))]
    assert published == (expected if queued else [])


def test_a_failed_look_up_at_the_end_queues_the_task_and_the_end_stands(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The open-sittings look-up runs after the end committed: were it to fail, the end must not turn
    into an error; the task is queued anyway (it looks for itself)."""
    game, _people = table
    published: list[tuple[Any, ...]] = []
    monkeypatch.setattr(receivers, "publish", lambda *args, **kwargs: published.append(args))

    def failing(**kwargs: Any) -> bool:
        raise OperationalError("the database went away")

    monkeypatch.setattr(receivers.selectors, "has_open_sittings", failing)

    _abort(game, django_capture_on_commit_callbacks)

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert published == [("apps.sittings.tasks.close_sittings_of_game", (game.pk,))]
