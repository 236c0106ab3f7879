"""Mail about a request to join a league: to its organisers when someone asks
(``services.membership_request``), and to the one who asked when an organiser approves or declines it
(``services.membership_approve``).

The request queues ``mail_join_request`` after its commit; its body, ``join_request_mail_send``, mails
each organiser with an address, in the language of their profile: who asks, their record (decisions
answered on time, as the organiser page shows it) and the link to the organiser page, where they
approve or decline. The mail is recorded as sent (``Membership.organisers_told_at``) once it is; until
then the beat's ``join_requests_recover`` queues it again, so a broker outage delays it and loses
nothing. A retry after a failed send may mail an organiser twice, which we prefer to a request nobody
hears of. Asking again while the request waits sends nothing more; asking again after withdrawing is a
new request, mailed again. The approval's mail works the same way (``Membership.member_told_at``);
joining by the invite link while the request waits needs no mail.

A declined request's membership row is deleted (asking again is a new request, as before), so its mail
rests on a row of its own, ``DeclinedRequest``, written in the decline's transaction and recorded as
told (``applicant_told_at``) the same way. The mail says the request was declined, with the league's
page (the leagues list once the league is private): a decline has no reason to give. It is not sent
once the one who asked has come back before it went out (asked again, or joined by the invite link):
the new request's own mails tell them where they stand. The same sweep deletes a decline 30 days
after it was told (``declines_forget``), or 30 days after the decline when its mail never went out:
that mail is given up.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.accounts.language import mail_language
from apps.accounts.models import display_name
from apps.games import reliability
from apps.notifications.mails import absolute, render_mail
from baogame.celery import publish

from .models import DeclinedRequest, League, Membership

MAIL_JOIN_REQUEST = "apps.leagues.tasks.mail_join_request"
MAIL_JOIN_APPROVED = "apps.leagues.tasks.mail_join_approved"
MAIL_JOIN_DECLINED = "apps.leagues.tasks.mail_join_declined"


def join_request_queue(membership: Membership) -> None:
    """Queue the organisers' mail about ``membership``'s request, once the caller's transaction commits."""
    transaction.on_commit(partial(publish, MAIL_JOIN_REQUEST, (membership.pk,)))


def join_request_mail_send(*, membership_id: int) -> int:
    """Mail the organisers of the league that ``membership_id`` asks to join; the number of mails sent
    (none once the request was answered, withdrawn or told already)."""
    membership = (
        Membership.objects.select_related("league", "user__profile")
        .filter(pk=membership_id, status=Membership.Status.PENDING, organisers_told_at=None)
        .first()
    )
    if membership is None:
        return 0
    league, applicant = membership.league, membership.user
    record = reliability.records_for([applicant.pk])[applicant.pk]
    mails = [
        _join_request_mail(league, applicant_name=display_name(applicant), record=record, to=organiser)
        for organiser in league.organisers.filter(is_active=True).exclude(email="").select_related("profile")
    ]
    if mails:
        get_connection().send_messages(mails)
    Membership.objects.filter(pk=membership.pk, organisers_told_at=None).update(
        organisers_told_at=timezone.now()
    )
    return len(mails)


def approval_queue(membership: Membership) -> None:
    """Queue the mail telling ``membership``'s user that their request was approved, after the commit."""
    transaction.on_commit(partial(publish, MAIL_JOIN_APPROVED, (membership.pk,)))


def approval_mail_send(*, membership_id: int) -> int:
    """Mail the member that their request to join was approved; 1 when a mail was sent (none for an
    account without an address, or when told already)."""
    membership = (
        Membership.objects.select_related("league", "user__profile")
        .filter(
            pk=membership_id, status=Membership.Status.ACTIVE, requested_at__isnull=False, member_told_at=None
        )
        .first()
    )
    if membership is None:
        return 0
    member, sent = membership.user, 0
    if member.email and member.is_active:
        get_connection().send_messages([_approval_mail(membership.league, to=member)])
        sent = 1
    Membership.objects.filter(pk=membership.pk, member_told_at=None).update(member_told_at=timezone.now())
    return sent


def decline_queue(declined: DeclinedRequest) -> None:
    """Queue the mail telling ``declined``'s user that their request was declined, after the commit."""
    transaction.on_commit(partial(publish, MAIL_JOIN_DECLINED, (declined.pk,)))


def decline_mail_send(*, declined_id: int) -> int:
    """Mail the one who asked that their request to join was declined; 1 when a mail was sent (none for
    an account without an address, when told already, once they asked again or joined meanwhile, or
    when a later request of theirs was declined too before this mail went out: its own mail tells)."""
    declined = (
        DeclinedRequest.objects.select_related("league", "user__profile")
        .filter(pk=declined_id, applicant_told_at=None)
        .first()
    )
    if declined is None:
        return 0
    applicant, sent = declined.user, 0
    mine = {"league_id": declined.league_id, "user_id": applicant.pk}
    came_back = Membership.objects.filter(**mine).exists()
    declined_again = DeclinedRequest.objects.filter(**mine, pk__gt=declined.pk).exists()  # that one tells
    if applicant.email and applicant.is_active and not came_back and not declined_again:
        get_connection().send_messages([_decline_mail(declined.league, to=applicant)])
        sent = 1
    DeclinedRequest.objects.filter(pk=declined.pk, applicant_told_at=None).update(
        applicant_told_at=timezone.now()
    )
    return sent


#: How long a ``DeclinedRequest`` is kept once its mail went out (or after the decline, while it has not):
#: long enough for a broker outage and retries, short enough that declines do not pile up for ever.
DECLINES_KEPT = timedelta(days=30)


def declines_forget(*, now: datetime | None = None) -> int:
    """Delete the declined requests told more than ``DECLINES_KEPT`` ago, and those still untold that
    long after the decline: their mail is given up (a month of retries has not sent it, and one this late
    would only confuse), and the recovery stops queuing it. Nothing else reads a told row: the request's
    membership is gone already. Returns how many were deleted."""
    cutoff = (now or timezone.now()) - DECLINES_KEPT
    told_long_ago = Q(applicant_told_at__lt=cutoff)
    given_up = Q(applicant_told_at=None, created_at__lt=cutoff)
    deleted, _ = DeclinedRequest.objects.filter(told_long_ago | given_up).delete()
    return deleted


def join_requests_recover(*, now: datetime | None = None) -> int:
    """Queue again the mail of every request still waiting whose organisers are untold, and of every
    approval or decline whose applicant is untold, ``NOTIFICATIONS_OUTBOX_RETRY`` seconds after it (its
    task was lost with a broker that was down, or failed); returns how many were queued. Declines told,
    or given up, ``DECLINES_KEPT`` ago are deleted first (``declines_forget``): this is the leagues'
    mail sweep, and a given-up decline is not queued again."""
    declines_forget(now=now)
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY)
    requests = list(
        Membership.objects.filter(
            status=Membership.Status.PENDING, organisers_told_at=None, requested_at__lte=cutoff
        ).values_list("pk", flat=True)
    )
    approvals = list(
        Membership.objects.filter(
            status=Membership.Status.ACTIVE,
            requested_at__isnull=False,
            member_told_at=None,
            joined_at__lte=cutoff,
        ).values_list("pk", flat=True)
    )
    declines = list(
        DeclinedRequest.objects.filter(applicant_told_at=None, created_at__lte=cutoff).values_list(
            "pk", flat=True
        )
    )
    for membership_id in requests:
        publish(MAIL_JOIN_REQUEST, (membership_id,))
    for membership_id in approvals:
        publish(MAIL_JOIN_APPROVED, (membership_id,))
    for declined_id in declines:
        publish(MAIL_JOIN_DECLINED, (declined_id,))
    return len(requests) + len(approvals) + len(declines)


def _approval_mail(league: League, *, to: User) -> EmailMultiAlternatives:
    """The member's mail, in their language."""
    language = mail_language(to)
    with translation.override(language):
        fields = {"league": league.name}
        context = {
            "heading": _("You are a member of %(league)s") % fields,
            "league_url": absolute(league.get_absolute_url()),
            "site_url": settings.SITE_URL,
            "mail_language": language,
        }
        subject = _("[baogame] %(league)s: your request to join was approved") % fields
        return render_mail(to=to.email, subject=subject[:200], template="join_approved", context=context)


def _decline_mail(league: League, *, to: User) -> EmailMultiAlternatives:
    """The mail to the one whose request was declined, in their language: the league's page while it is
    public (they may ask again there), else the leagues list."""
    language = mail_language(to)
    with translation.override(language):
        fields = {"league": league.name}
        context = {
            "heading": _("Your request to join %(league)s was declined") % fields,
            "league_url": absolute(
                league.get_absolute_url() if league.is_public else reverse("leagues:list")
            ),
            "league_public": league.is_public,
            "site_url": settings.SITE_URL,
            "mail_language": language,
        }
        subject = _("[baogame] %(league)s: your request to join was declined") % fields
        return render_mail(to=to.email, subject=subject[:200], template="join_declined", context=context)


def _join_request_mail(
    league: League, *, applicant_name: str, record: reliability.Record, to: User
) -> EmailMultiAlternatives:
    """One organiser's mail, in their language."""
    language = mail_language(to)
    with translation.override(language):
        fields = {"name": applicant_name, "league": league.name}
        context = {
            "heading": _("%(name)s asks to join %(league)s") % fields,
            "record": record.summary,
            "manage_url": absolute(reverse("leagues:manage", args=[league.slug])),
            "league_url": absolute(league.get_absolute_url()),
            "site_url": settings.SITE_URL,
            "mail_language": language,
        }
        subject = _("[baogame] %(league)s: %(name)s asks to join") % fields
        return render_mail(to=to.email, subject=subject[:200], template="join_request", context=context)
