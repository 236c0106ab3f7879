"""Invitations and reminders of agreed sittings, each sent at most once per (sitting, person, kind);
and the calendar update of a sitting that ended early, to those its invitation went to.

A ``SittingReminder`` row is claimed first (its unique constraint decides who sends); then the
``sitting_message`` signal asks the higher apps to deliver: the notifications app mails the invitation
(with an .ics) and the reminder, the push app sends the reminder push. A delivery that fails after its
claim is not retried: reminders are at most once, like every notification of the site.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from . import selectors
from .models import Sitting, SittingReminder
from .signals import sitting_message

log = logging.getLogger(__name__)

#: Reminders go out this long before a sitting starts.
REMINDER_LEAD = timedelta(minutes=15)


def claim(*, sitting: Sitting, user_id: int, kind: str, now: datetime | None = None) -> bool:
    """Take the right to send ``kind`` about ``sitting`` to the person; False if it was taken before."""
    try:
        with transaction.atomic():
            SittingReminder.objects.create(
                sitting=sitting, user_id=user_id, kind=kind, sent_at=now or timezone.now()
            )
    except IntegrityError:
        return False
    return True


def _deliver(*, sitting: Sitting, user_id: int, kind: str, series: list[Sitting]) -> None:
    try:
        sitting_message.send(Sitting, sitting=sitting, user_id=user_id, kind=kind, series=series)
    except Exception:  # noqa: BLE001 - one person's failed delivery must not stop the others'
        log.exception("sittings: %s for sitting %s to user %s failed", kind, sitting.pk, user_id)


def invitations_send(*, sitting_ids: list[int]) -> int:
    """Invite every player to the sittings just agreed (one invitation for a weekly series, its first
    sitting's). Returns the invitations sent."""
    series = list(Sitting.objects.filter(pk__in=sitting_ids).select_related("game").order_by("starts_at"))
    if not series:
        return 0
    first = series[0]
    sent = 0
    for user_id in selectors.human_seats(first.game).values():
        if claim(sitting=first, user_id=user_id, kind=SittingReminder.Kind.INVITATION):
            _deliver(sitting=first, user_id=user_id, kind=SittingReminder.Kind.INVITATION, series=series)
            sent += 1
    return sent


def reminders_send_due(*, now: datetime | None = None) -> int:
    """The beat: remind every player of each sitting that starts within ``REMINDER_LEAD``, by mail and
    by push, once each. Returns the reminders sent."""
    now = now or timezone.now()
    due = Sitting.objects.filter(
        status=Sitting.Status.SCHEDULED, starts_at__gt=now, starts_at__lte=now + REMINDER_LEAD
    ).select_related("game")
    sent = 0
    for sitting in due:
        if sitting.game.is_over:
            continue
        for user_id in selectors.human_seats(sitting.game).values():
            for kind in (SittingReminder.Kind.MAIL, SittingReminder.Kind.PUSH):
                if claim(sitting=sitting, user_id=user_id, kind=kind, now=now):
                    _deliver(sitting=sitting, user_id=user_id, kind=kind, series=[sitting])
                    sent += 1
    return sent


def starting_send(*, sitting_id: int, now: datetime | None = None) -> int:
    """ "We are starting": a push to each player not at the table when the sitting starts, once."""
    now = now or timezone.now()
    sitting = Sitting.objects.select_related("game").filter(pk=sitting_id).first()
    if sitting is None:
        return 0
    present = selectors.present_seats(game=sitting.game, now=now)
    sent = 0
    for position, user_id in selectors.human_seats(sitting.game).items():
        if position not in present and claim(
            sitting=sitting, user_id=user_id, kind=SittingReminder.Kind.STARTING, now=now
        ):
            _deliver(sitting=sitting, user_id=user_id, kind=SittingReminder.Kind.STARTING, series=[sitting])
            sent += 1
    return sent


def calendar_updates_send(*, sitting_id: int) -> int:
    """A sitting ended early: send its updated calendar entry (same UID, a higher SEQUENCE, the new
    end) to everyone the invitation's calendar file went to, once each, the way the invitation went.

    An invitation covers the sittings agreed together and is claimed on the first of them, so the
    people who got this sitting's entry are those with an invitation claimed on a sitting of the same
    proposal starting no later than this one (or on this one, its proposal gone). Returns the updates
    sent."""
    sitting = (
        Sitting.objects.select_related("game").filter(pk=sitting_id, status=Sitting.Status.ENDED).first()
    )
    if sitting is None:
        return 0
    invitations = SittingReminder.objects.filter(kind=SittingReminder.Kind.INVITATION)
    if sitting.proposal_id is None:
        invitations = invitations.filter(sitting=sitting)
    else:
        invitations = invitations.filter(
            sitting__proposal_id=sitting.proposal_id, sitting__starts_at__lte=sitting.starts_at
        )
    sent = 0
    for user_id in sorted(set(invitations.values_list("user_id", flat=True))):
        if claim(sitting=sitting, user_id=user_id, kind=SittingReminder.Kind.UPDATE):
            _deliver(sitting=sitting, user_id=user_id, kind=SittingReminder.Kind.UPDATE, series=[sitting])
            sent += 1
    return sent
