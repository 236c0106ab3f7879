"""A proposed sitting reaches the table: every other person at it gets one mail saying who proposed which
times (in the reader's time zone) and how to answer, on the game page or by replying ``sitting yes`` /
``sitting no``; under "Invitations", with its preference and quiet hours, once per proposal and person."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from apps.accounts.models import Profile
from apps.games.models import Game
from apps.notifications import notify, send
from apps.notifications.models import Category, MailSettings, Mode, Notification
from apps.sittings import services
from apps.sittings.acceptance import Recurrence
from apps.sittings.models import ProposedTime, Sitting, SittingProposal
from tests.factories import GameFactory, UserFactory
from tests.notifications.conftest import mails_to, process_reply, reply_to
from tests.sittings.setup_helpers import three_at_a_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> tuple[Game, list[Any]]:
    return three_at_a_table()


def _propose(game: Game, user: Any, capture: Any, *times: datetime, **kwargs: Any) -> SittingProposal:
    mail.outbox.clear()
    with capture(execute=True):
        return services.proposal_create(game=game, user=user, times=list(times), **kwargs)


def _ahead(hours: float) -> datetime:
    return (timezone.now() + timedelta(hours=hours)).replace(second=0, microsecond=0)


def test_every_other_player_gets_one_mail_with_the_times_and_how_to_answer(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    Profile.objects.filter(user=people[1]).update(time_zone="Asia/Tokyo")
    start = (timezone.now() + timedelta(days=2)).astimezone(UTC).replace(hour=19, minute=0, second=0)
    tokyo = [(start + timedelta(days=d)).astimezone(ZoneInfo("Asia/Tokyo")) for d in (0, 1)]

    _propose(game, people[0], django_capture_on_commit_callbacks, start, start + timedelta(days=1))

    assert mails_to(people[0]) == []  # the proposer knows
    (message,) = mails_to(people[1])
    assert len(mails_to(people[2])) == 1
    assert people[0].username in message.subject and "proposes a sitting" in message.subject
    body = " ".join(message.body.split())
    # 19:00 UTC is 04:00 the next day in Tokyo, the reader's zone; each time with its number.
    assert f"1. {tokyo[0]:%a} {tokyo[0].day} {tokyo[0]:%b %Y}, 04:00" in body and "to 05:00" in body
    assert f"2. {tokyo[1]:%a} {tokyo[1].day} {tokyo[1]:%b %Y}, 04:00" in body
    assert "/mail/go/" in body and "sitting yes" in body and "sitting no 2" in body
    assert message.reply_to  # replying answers it
    html = message.alternatives[0][0]
    assert "Sitting proposed" in html and "sitting yes" in html


def test_the_mail_is_recorded_once_per_proposal_and_person(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """Recorded again (a retried task, a second signal) or sent again (the sweep), it goes out once."""
    game, people = table
    proposal = _propose(game, people[0], django_capture_on_commit_callbacks, _ahead(30))

    with django_capture_on_commit_callbacks(execute=True):
        again = notify.notify_sitting_proposed(proposal=proposal)
        for note in Notification.objects.filter(kind=Notification.Kind.SITTING_PROPOSAL):
            send.notification_send(notification_id=note.pk)

    assert again == 0
    notes = Notification.objects.filter(kind=Notification.Kind.SITTING_PROPOSAL)
    assert sorted(n.user_id for n in notes) == sorted(p.pk for p in people[1:])
    assert {(n.category, n.status, n.version) for n in notes} == {(Category.INVITATION, "sent", proposal.pk)}
    assert len(mail.outbox) == 2


def test_replying_sitting_yes_to_the_mail_answers_the_proposal(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    proposal = _propose(game, people[0], django_capture_on_commit_callbacks, _ahead(30))
    mails = {p.pk: mails_to(p)[0] for p in people[1:]}

    for person in people[1:]:
        process_reply(reply_to(mails[person.pk], "sitting yes"), django_capture_on_commit_callbacks)

    assert ProposedTime.objects.get(proposal=proposal).status == ProposedTime.Status.ACCEPTED
    assert Sitting.objects.filter(game=game).count() == 1


def test_no_mail_to_bots_nor_to_a_player_who_switched_invitations_off(
    django_capture_on_commit_callbacks: Any,
) -> None:
    people = [UserFactory(), UserFactory(), UserFactory()]
    game = GameFactory(engine="baobei", players=4, bots=1, seated=people)
    MailSettings.objects.create(user=people[2], modes={Category.INVITATION: Mode.OFF})

    _propose(game, people[0], django_capture_on_commit_callbacks, _ahead(30))

    assert [m.to for m in mail.outbox] == [[people[1].email]]
    assert Notification.objects.filter(kind=Notification.Kind.SITTING_PROPOSAL).count() == 1


def test_an_organisers_proposal_goes_to_every_player(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The proposer outside the table (a league's organiser) says no yes: everyone at it is told."""
    from apps.sittings import organisers

    game, people = table
    organiser = UserFactory(username="organiser")
    monkeypatch.setattr(organisers, "is_organiser", lambda g, u: u == organiser)

    _propose(game, organiser, django_capture_on_commit_callbacks, _ahead(30))

    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.email for p in people)
    assert all("organiser" in m.subject for m in mail.outbox)


def test_quiet_hours_hold_the_mail(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    now = timezone.now().astimezone(UTC)
    Profile.objects.filter(user=people[1]).update(time_zone="UTC")
    MailSettings.objects.create(
        user=people[1],
        quiet_start=(now - timedelta(hours=1)).time().replace(second=0, microsecond=0),
        quiet_end=(now + timedelta(hours=2)).time().replace(second=0, microsecond=0),
    )

    _propose(game, people[0], django_capture_on_commit_callbacks, _ahead(30))

    assert mails_to(people[1]) == [] and len(mails_to(people[2])) == 1
    held = Notification.objects.get(user=people[1], kind=Notification.Kind.SITTING_PROPOSAL)
    assert held.held and held.status == "pending"


def test_a_proposal_decided_before_its_mail_goes_out_is_not_mailed(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """Everyone answered on the page first (the mail waited): nothing is left to answer, no mail."""
    game, people = table
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        proposal = services.proposal_create(game=game, user=people[0], times=[_ahead(30)])
        for person in people[1:]:
            services.answer(game=game, user=person, proposal_id=proposal.pk, accept=True)

    assert not [m for m in mail.outbox if "proposes" in m.subject]
    statuses = set(
        Notification.objects.filter(kind=Notification.Kind.SITTING_PROPOSAL).values_list("status", flat=True)
    )
    assert statuses == {"skipped"}


def test_a_weekly_series_names_its_weeks_and_its_first_weeks_times(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    game, people = table
    first_day = timezone.now().date() + timedelta(days=3)
    series = Recurrence(weekdays=(1, 4), at=time(20), weeks=6, first_day=first_day, time_zone="UTC")

    _propose(game, people[0], django_capture_on_commit_callbacks, recurrence=series)

    (message,) = mails_to(people[1])
    body = " ".join(message.body.split())
    assert "every week for 6 weeks" in body and "answered as a whole" in body
    assert body.count(", 20:00 (") == 2  # Tuesday and Friday of the first week
    assert "sitting yes" in body and "sitting no 2" not in body


def test_only_the_latest_open_proposal_offers_the_reply(
    table: tuple[Game, list[Any]], django_capture_on_commit_callbacks: Any
) -> None:
    """A reply answers the game's latest open proposal: the mail of an older one, sent after a newer one
    was made, sends the reader to the game page instead."""
    game, people = table
    capture = django_capture_on_commit_callbacks
    with capture(execute=False):  # the first proposal's mails are not sent yet
        services.proposal_create(game=game, user=people[0], times=[_ahead(30)])
    _propose(game, people[1], capture, _ahead(60))
    mail.outbox.clear()

    with capture(execute=True):
        for note in Notification.objects.filter(status="pending"):
            send.notification_send(notification_id=note.pk)

    (older,) = mails_to(people[1])
    assert "sitting yes" not in older.body and "/mail/go/" in older.body
    assert not older.reply_to
