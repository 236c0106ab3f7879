"""Invitations and reminders of agreed sittings, each sent at most once per (sitting, person, kind);
and the calendar changes of a sitting that ended early (its update) or was cancelled (its game ended
first), to those its invitation went to.

A ``SittingReminder`` row is claimed first (its unique constraint decides who sends); then the
``sitting_message`` signal asks the higher apps to deliver: the notifications app mails the invitation
(with an .ics), the reminder and the calendar changes, the push app sends the reminder push. A delivery
that fails after its claim is not retried: reminders are at most once, like every notification of the
site. A calendar change is sent by a task queued when the change commits, and by the beat's one-minute
sweep (``sweep``) for any change whose task was lost: its claim makes it once whoever sends it.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from . import selectors
from .models import Sitting, SittingReminder
from .signals import sitting_message

log = logging.getLogger(__name__)

#: Reminders go out this long before a sitting starts.
REMINDER_LEAD = timedelta(minutes=15)
#: The sweep sends the calendar changes (an early end's update, a cancellation) still unsent this long
#: after the change: a broker down for longer than that loses them.
CHANGE_RECOVERY = timedelta(days=1)


def claim(*, sitting: Sitting, user_id: int, kind: str, now: datetime | None = None) -> bool:
    """Take the right to send ``kind`` about ``sitting`` to the person; False if it was taken before."""
    return claim_all(sittings=[sitting], user_id=user_id, kind=kind, now=now)


def claim_all(*, sittings: list[Sitting], user_id: int, kind: str, now: datetime | None = None) -> bool:
    """Take the right to send ``kind`` about all of ``sittings`` (one mail) to the person, all or none;
    False if any was taken before."""
    sent_at = now or timezone.now()
    try:
        with transaction.atomic():
            SittingReminder.objects.bulk_create(
                [SittingReminder(sitting=s, user_id=user_id, kind=kind, sent_at=sent_at) for s in sittings]
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
    """Invite every player to the sittings just agreed: one mail for a weekly series, claimed on every
    sitting it covers (those rows say whose calendar each sitting went to). Returns the invitations
    sent."""
    series = list(Sitting.objects.filter(pk__in=sitting_ids).select_related("game").order_by("starts_at"))
    if not series:
        return 0
    first = series[0]
    sent = 0
    for user_id in selectors.human_seats(first.game).values():
        if claim_all(sittings=series, user_id=user_id, kind=SittingReminder.Kind.INVITATION):
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


def sweep(*, now: datetime | None = None) -> int:
    """The beat, every minute: the reminders due (``reminders_send_due``) and the calendar changes whose
    task was lost (``calendar_changes_send_due``). Returns the messages sent."""
    now = now or timezone.now()
    return reminders_send_due(now=now) + calendar_changes_send_due(now=now)


def calendar_changes_send(*, sitting_ids: list[int]) -> int:
    """Send the calendar change of each of these sittings that has one (an early end's update, a
    cancellation) to those its invitation went to, once each (the task queued when they changed).
    Returns the mails sent."""
    return _changes_send(Sitting.objects.filter(pk__in=sitting_ids).select_related("game"))


def calendar_changes_send_due(*, now: datetime | None = None) -> int:
    """The sweep's part: the calendar changes of the last ``CHANGE_RECOVERY`` still unsent to someone
    their sitting's invitation went to (their task was lost: a broker down when they committed).
    Returns the mails sent."""
    now = now or timezone.now()
    changed = Sitting.objects.filter(
        Q(status=Sitting.Status.ENDED, ended_early=True) | Q(status=Sitting.Status.CANCELLED),
        ended_at__gte=now - CHANGE_RECOVERY,
    )
    return _changes_send(changed.select_related("game"))


def _change_of(sitting: Sitting) -> str | None:
    """The calendar change a sitting calls for: an update when its table ended it early, a cancellation
    when its game ended before it, else none."""
    if sitting.status == Sitting.Status.CANCELLED:
        return SittingReminder.Kind.CANCEL
    if sitting.status == Sitting.Status.ENDED and sitting.ended_early:
        return SittingReminder.Kind.UPDATE
    return None


def _changes_send(sittings: Iterable[Sitting]) -> int:
    """Send each sitting's calendar change to every person its invitation went to who has not had it.

    Those are the people with an invitation row on that very sitting (``invitations_send``), whether
    or not they are still at the table: the entry is in their calendar. An early end's update is a mail
    of its own; the cancellations of one game's sittings go to a person in one mail (a weekly series
    cancelled at the game's end: one mail, as its invitation was). Each (sitting, person) is claimed
    before sending, so a task and the sweep running together send it once."""
    changes = {s.pk: (s, kind) for s in sittings if (kind := _change_of(s)) is not None}
    if not changes:
        return 0
    invited: dict[int, set[int]] = defaultdict(set)
    told: dict[int, set[int]] = defaultdict(set)
    rows = SittingReminder.objects.filter(
        sitting_id__in=list(changes),
        kind__in=[SittingReminder.Kind.INVITATION, SittingReminder.Kind.UPDATE, SittingReminder.Kind.CANCEL],
    )
    for sitting_id, user_id, kind in rows.values_list("sitting_id", "user_id", "kind"):
        if kind == SittingReminder.Kind.INVITATION:
            invited[sitting_id].add(user_id)
        elif kind == changes[sitting_id][1]:
            told[sitting_id].add(user_id)
    mails: dict[tuple[int, int, str, int], list[Sitting]] = {}
    for sitting, kind in sorted(changes.values(), key=lambda change: (change[0].starts_at, change[0].pk)):
        for user_id in sorted(invited[sitting.pk] - told[sitting.pk]):
            one_mail = 0 if kind == SittingReminder.Kind.CANCEL else sitting.pk
            mails.setdefault((user_id, sitting.game_id, kind, one_mail), []).append(sitting)
    sent = 0
    for (user_id, _, kind, _), group in mails.items():
        claimed = [s for s in group if claim(sitting=s, user_id=user_id, kind=kind)]
        if claimed:
            _deliver(sitting=claimed[0], user_id=user_id, kind=kind, series=claimed)
            sent += 1
    return sent
