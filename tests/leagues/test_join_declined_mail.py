"""The one whose request to join is declined hears of it by mail (``apps.leagues.joinmail``), as the one
whose request is approved does: once, in their own language, recorded as sent, and sent by the recovery
sweep when its task was lost. The request's membership row goes as before, so asking again is a new
request and the league's members, pages and lists know nothing of the decline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from apps.accounts.closing import account_close
from apps.accounts.models import Profile
from apps.leagues import joinmail, services
from apps.leagues.models import DeclinedRequest, League, Membership
from tests.factories import UserFactory, signed_in
from tests.leagues.conftest import NO_PASSWORD, ask_to_join

pytestmark = pytest.mark.django_db


def _decline(league: League, membership: Membership, organiser: Any, capture: Any) -> None:
    with capture(execute=True):
        services.membership_approve(league=league, membership_id=membership.pk, by=organiser, approve=False)


def test_a_declined_request_is_mailed_to_the_one_who_asked_once(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = UserFactory(username="ann", password=NO_PASSWORD)
    membership = ask_to_join(open_league, ann, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    _decline(open_league, membership, organiser, django_capture_on_commit_callbacks)
    declined = DeclinedRequest.objects.get(league=open_league, user=ann)
    again = joinmail.decline_mail_send(declined_id=declined.pk)

    (told,) = mail.outbox
    assert told.to == [ann.email]
    assert told.subject == "[baogame] Open Court: your request to join was declined"
    assert "Your request to join Open Court was declined" in told.body
    assert f"/leagues/{open_league.slug}/" in told.body  # where they may ask again
    html, _ = told.alternatives[0]
    assert "Your request to join Open Court was declined" in html and 'lang="en"' in html
    assert again == 0
    declined.refresh_from_db()
    assert declined.applicant_told_at is not None


def test_the_decline_mail_is_written_in_the_language_of_the_one_who_asked(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Whoever declines, in whatever language: the mail is in the applicant's (``mail_language``)."""
    bo = UserFactory(username="bo", password=NO_PASSWORD)
    Profile.objects.filter(user=bo).update(language="zh-hans")
    membership = ask_to_join(open_league, bo, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    _decline(open_league, membership, organiser, django_capture_on_commit_callbacks)

    (told,) = mail.outbox
    html, _ = told.alternatives[0]
    assert told.to == [bo.email] and 'lang="zh-hans"' in html


def test_the_sweep_mails_a_decline_whose_mail_was_lost_once_it_is_late(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    cy = UserFactory(username="cy", password=NO_PASSWORD)
    membership = ask_to_join(open_league, cy, django_capture_on_commit_callbacks)
    services.membership_approve(  # its after-commit task never ran
        league=open_league, membership_id=membership.pk, by=organiser, approve=False
    )
    mail.outbox.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = True
    now = timezone.now()

    early = joinmail.join_requests_recover(now=now - timedelta(seconds=1))
    late = joinmail.join_requests_recover(
        now=now + timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY + 1)
    )
    again = joinmail.join_requests_recover(now=now + timedelta(hours=1))

    assert (early, late, again) == (0, 1, 0)
    assert [m.to for m in mail.outbox] == [[cy.email]]
    assert "declined" in mail.outbox[0].subject


def test_asking_again_after_a_decline_is_a_new_request_the_organisers_hear_of(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    dee = UserFactory(username="dee", password=NO_PASSWORD)
    first = ask_to_join(open_league, dee, django_capture_on_commit_callbacks)
    _decline(open_league, first, organiser, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    second = ask_to_join(open_league, dee, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.membership_approve(league=open_league, membership_id=second.pk, by=organiser)

    second.refresh_from_db()
    assert second.status == Membership.Status.ACTIVE and second.pk != first.pk
    assert [m.to for m in mail.outbox] == [[organiser.email], [dee.email]]  # the request, the approval
    assert "approved" in mail.outbox[1].subject


def test_a_decline_whose_mail_had_not_gone_out_is_not_sent_once_they_asked_again(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    eve = UserFactory(username="eve", password=NO_PASSWORD)
    membership = ask_to_join(open_league, eve, django_capture_on_commit_callbacks)
    services.membership_approve(league=open_league, membership_id=membership.pk, by=organiser, approve=False)
    ask_to_join(open_league, eve, django_capture_on_commit_callbacks)  # asks again before the decline's mail
    mail.outbox.clear()

    sent = joinmail.decline_mail_send(declined_id=DeclinedRequest.objects.get(user=eve).pk)

    assert sent == 0 and mail.outbox == []
    assert DeclinedRequest.objects.get(user=eve).applicant_told_at is not None  # the sweep leaves it


def test_two_declines_before_the_first_mail_went_out_make_one_mail(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    jo = UserFactory(username="jo", password=NO_PASSWORD)
    for _ in range(2):  # asked, declined, asked again, declined again: no task ran
        membership = ask_to_join(open_league, jo, django_capture_on_commit_callbacks)
        services.membership_approve(
            league=open_league, membership_id=membership.pk, by=organiser, approve=False
        )
    mail.outbox.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = True

    queued = joinmail.join_requests_recover(now=timezone.now() + timedelta(hours=1))

    assert queued == 2 and [m.to for m in mail.outbox] == [[jo.email]]
    assert not DeclinedRequest.objects.filter(user=jo, applicant_told_at=None).exists()


def test_an_applicant_without_an_address_is_recorded_as_told_without_a_mail(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    fay = UserFactory(username="fay", email="", password=NO_PASSWORD)
    membership = ask_to_join(open_league, fay, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    _decline(open_league, membership, organiser, django_capture_on_commit_callbacks)

    assert mail.outbox == []
    assert DeclinedRequest.objects.get(user=fay).applicant_told_at is not None


def test_a_decline_not_yet_mailed_goes_with_an_account_that_closes(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    ivy = UserFactory(username="ivy")  # a real password: closing asks for it
    membership = ask_to_join(open_league, ivy, django_capture_on_commit_callbacks)
    services.membership_approve(league=open_league, membership_id=membership.pk, by=organiser, approve=False)
    mail.outbox.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = True

    account_close(user=ivy, password="pw-for-tests-123")
    queued = joinmail.join_requests_recover(now=timezone.now() + timedelta(hours=1))

    assert queued == 0 and mail.outbox == []
    assert not DeclinedRequest.objects.filter(user=ivy).exists()


def test_a_decline_from_a_league_gone_private_links_the_leagues_list(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A private league's page is hidden from non-members: the mail points at the other leagues."""
    gus = UserFactory(username="gus", password=NO_PASSWORD)
    membership = ask_to_join(open_league, gus, django_capture_on_commit_callbacks)
    League.objects.filter(pk=open_league.pk).update(is_public=False)
    mail.outbox.clear()

    _decline(open_league, membership, organiser, django_capture_on_commit_callbacks)

    (told,) = mail.outbox
    assert f"/leagues/{open_league.slug}/" not in told.body and "/leagues/" in told.body


def test_a_declined_request_leaves_no_trace_among_the_members(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Counts, the organiser's page and member list, the league page: as before the request."""
    for user in [UserFactory(username=f"m{i}", password=NO_PASSWORD) for i in range(2)]:
        services.membership_join_by_link(league=open_league, user=user, token=open_league.invite_token)
    hal = UserFactory(username="hal", password=NO_PASSWORD)
    Profile.objects.filter(user=hal).update(display_name="Hal Declined")
    tools = signed_in(organiser)
    before = (
        list(Membership.objects.filter(league=open_league).values_list("user__username", "status")),
        tools.get(f"/api/v1/leagues/{open_league.slug}/members/").json(),
    )
    membership = ask_to_join(open_league, hal, django_capture_on_commit_callbacks)

    _decline(open_league, membership, organiser, django_capture_on_commit_callbacks)

    after = (
        list(Membership.objects.filter(league=open_league).values_list("user__username", "status")),
        tools.get(f"/api/v1/leagues/{open_league.slug}/members/").json(),
    )
    manage = tools.get(f"/leagues/{open_league.slug}/manage/").content.decode()
    page = signed_in(hal).get(f"/leagues/{open_league.slug}/").content.decode()
    assert after == before and len(before[0]) == 2
    assert "Hal Declined" not in manage
    assert f'action="/leagues/{open_league.slug}/request/"' in page  # they may ask again


def test_the_sweep_forgets_declines_told_a_month_ago_and_gives_up_those_untold_as_long(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    """``joinmail.DECLINES_KEPT`` (30 days): a told decline is no use after that, and one whose mail a
    month of retries has not sent is given up rather than queued every five minutes for ever."""
    told, untold, recent = (
        UserFactory(username=n, password=NO_PASSWORD) for n in ("told", "untold", "recent")
    )
    for user in (told, untold, recent):
        membership = ask_to_join(open_league, user, django_capture_on_commit_callbacks)
        services.membership_approve(
            league=open_league, membership_id=membership.pk, by=organiser, approve=False
        )
    now = timezone.now()
    month_ago = now - joinmail.DECLINES_KEPT - timedelta(minutes=1)
    DeclinedRequest.objects.filter(user__in=[told, untold]).update(created_at=month_ago)
    DeclinedRequest.objects.filter(user=told).update(applicant_told_at=month_ago)
    DeclinedRequest.objects.filter(user=recent).update(applicant_told_at=now)
    mail.outbox.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = True

    queued = joinmail.join_requests_recover(now=now)

    assert queued == 0 and mail.outbox == []
    assert list(DeclinedRequest.objects.values_list("user", flat=True)) == [recent.pk]


def test_a_decline_told_lately_is_kept_even_when_it_was_made_long_ago(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The month counts from the mail, once it went out (a late mail after a long outage)."""
    kit = UserFactory(username="kit", password=NO_PASSWORD)
    membership = ask_to_join(open_league, kit, django_capture_on_commit_callbacks)
    _decline(open_league, membership, organiser, django_capture_on_commit_callbacks)
    now = timezone.now()
    DeclinedRequest.objects.filter(user=kit).update(
        created_at=now - timedelta(days=40), applicant_told_at=now - timedelta(days=1)
    )

    deleted = joinmail.declines_forget(now=now)

    assert deleted == 0 and DeclinedRequest.objects.filter(user=kit).exists()
