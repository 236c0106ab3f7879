"""The organisers hear of a request to join by mail (``apps.leagues.joinmail``): each organiser with an
address, in their language, once per request, and again only for a new request; a request whose mail
was lost is mailed by the recovery sweep. The one who asked hears of the approval the same way."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from apps.accounts.models import Profile
from apps.leagues import joinmail, services
from apps.leagues.models import League
from tests.factories import UserFactory
from tests.leagues.conftest import NO_PASSWORD, ask_to_join

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_league(open_league: League) -> League:
    """The shared league with two more organisers: one who reads Chinese, one with no address."""
    league = open_league
    co = UserFactory(username="co", password=NO_PASSWORD)
    Profile.objects.filter(user=co).update(language="zh-hans")
    league.organisers.add(co)
    league.organisers.add(UserFactory(username="silent", email="", password=NO_PASSWORD))
    return league


def test_a_request_to_join_mails_each_organiser_in_their_language(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    anna = UserFactory(username="anna", password=NO_PASSWORD)
    Profile.objects.filter(user=anna).update(display_name="Anna K")

    membership = ask_to_join(open_league, anna, django_capture_on_commit_callbacks)

    by_address = {m.to[0]: m for m in mail.outbox}
    assert set(by_address) == {organiser.email, open_league.organisers.get(username="co").email}
    english = by_address[organiser.email]
    assert english.subject == "[baogame] Open Court: Anna K asks to join"
    assert f"/leagues/{open_league.slug}/manage/" in english.body
    assert "no decisions yet" in english.body  # the record the organiser page shows
    chinese = by_address[open_league.organisers.get(username="co").email]
    assert "Anna K" in chinese.subject and chinese.subject != english.subject
    membership.refresh_from_db()
    assert membership.organisers_told_at is not None


def test_asking_again_while_waiting_mails_nobody_but_a_new_request_after_withdrawing_does(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    bo = UserFactory(username="bo", password=NO_PASSWORD)
    membership = ask_to_join(open_league, bo, django_capture_on_commit_callbacks)
    ask_to_join(open_league, bo, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2  # the two organisers with an address, once

    services.membership_approve(league=open_league, membership_id=membership.pk, by=organiser)
    services.membership_withdraw(league=open_league, user=bo)
    ask_to_join(open_league, bo, django_capture_on_commit_callbacks)

    assert len(mail.outbox) == 4


def test_a_request_answered_before_its_mail_went_out_is_not_mailed(
    open_league: League, organiser: Any
) -> None:
    cy = UserFactory(username="cy", password=NO_PASSWORD)
    membership = services.membership_request(league=open_league, user=cy)  # its task not run yet
    services.membership_approve(league=open_league, membership_id=membership.pk, by=organiser)

    assert joinmail.join_request_mail_send(membership_id=membership.pk) == 0
    assert mail.outbox == []


def test_the_sweep_mails_a_request_whose_mail_was_lost_once_it_is_late(
    open_league: League, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    dee = UserFactory(username="dee", password=NO_PASSWORD)
    services.membership_request(league=open_league, user=dee)  # its after-commit task never ran
    now = timezone.now()

    early = joinmail.join_requests_recover(now=now)
    late = joinmail.join_requests_recover(
        now=now + timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY + 1)
    )
    again = joinmail.join_requests_recover(now=now + timedelta(hours=1))

    assert (early, late, again) == (0, 1, 0)
    assert len(mail.outbox) == 2


def test_an_approved_request_is_mailed_to_the_new_member_once(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    eve = UserFactory(username="eve", password=NO_PASSWORD)
    membership = ask_to_join(open_league, eve, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        services.membership_approve(league=open_league, membership_id=membership.pk, by=organiser)
    again = joinmail.approval_mail_send(membership_id=membership.pk)

    (told,) = mail.outbox
    assert (
        told.to == [eve.email] and told.subject == "[baogame] Open Court: your request to join was approved"
    )
    assert f"/leagues/{open_league.slug}/" in told.body
    assert again == 0


def test_joining_by_the_link_while_a_request_waits_mails_no_approval(
    open_league: League, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    fay = UserFactory(username="fay", password=NO_PASSWORD)
    ask_to_join(open_league, fay, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = True

    services.membership_join_by_link(league=open_league, user=fay, token=open_league.invite_token)
    later = timezone.now() + timedelta(hours=1)

    assert joinmail.join_requests_recover(now=later) == 0
    assert mail.outbox == []


def test_the_sweep_mails_an_approval_whose_mail_was_lost(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    gus = UserFactory(username="gus", password=NO_PASSWORD)
    membership = ask_to_join(open_league, gus, django_capture_on_commit_callbacks)
    services.membership_approve(league=open_league, membership_id=membership.pk, by=organiser)  # task lost
    mail.outbox.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = True

    queued = joinmail.join_requests_recover(now=timezone.now() + timedelta(hours=1))

    assert queued == 1 and [m.to for m in mail.outbox] == [[gus.email]]
