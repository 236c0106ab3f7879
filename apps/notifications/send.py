"""Sending notifications: claim a due row, build its mail, send it once; take back lost work.

``notification_send`` claims a row with a conditional update before sending, so a retried or
duplicated task never sends twice; the rows that go out in one mail are claimed under one lock per
recipient and game (``_lock_recipient``), so two workers never split them into two mails. A claim
whose worker died is taken back by ``notifications_reclaim_stale`` (which makes that one narrow case
at-least-once, see there); a send task that was lost is queued again by
``notifications_requeue_pending``.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Q, TextField, Value, When
from django.utils import timezone

from baogame.celery import publish

from . import bounces, clock, mails, moderation, outbox, timing
from .models import Notification

log = logging.getLogger(__name__)

SEND_NOTIFICATION = "apps.notifications.tasks.send_notification"

#: Claims of one notification before it is given up: a first try and the send task's six retries.
SEND_MAX_ATTEMPTS = Notification.MAX_ATTEMPTS


#: Send tasks are queued with an ETA up to this far ahead; later ones are queued by the sweep.
NEAR = timedelta(minutes=15)


class SendFailed(Exception):
    """Sending a notification failed; the task retries it with backoff."""


def queue_send(note: Notification, *, now: datetime) -> None:
    """Queue the send task after commit: now, at its due time when that is near, else by the sweep."""
    if note.due_at <= now:
        transaction.on_commit(partial(publish, SEND_NOTIFICATION, (note.pk,)))
    elif note.due_at - now <= NEAR and not note.held:
        transaction.on_commit(partial(publish, SEND_NOTIFICATION, (note.pk,), eta=note.due_at))
    # later (quiet hours): notifications_requeue_pending queues it once due


def notification_send(*, notification_id: int, now: datetime | None = None) -> bool:
    """Claim one due notification and send it; ``SendFailed`` (recorded on the row) when sending fails.

    A decision or round-result mail takes along every other one still pending for the same person
    and game (they become ``merged``): one mail per burst, naming what is open at sending time. A mail
    held by quiet hours takes along everything else held for the person: one mail when they end. A
    notification not yet due, or falling inside the person's quiet hours, is left (or put) back to
    wait. Returns False when nothing was sent.
    """
    now = now or clock.now()
    note = Notification.objects.select_related("user__profile", "game").filter(pk=notification_id).first()
    if note is None or note.due_at > now:
        return False  # gone, or not due yet: its ETA task or the sweep sends it
    if not note.held and note.status in {Notification.Status.PENDING, Notification.Status.FAILED}:
        deadline = timing.deadline_of(note.game, note.seat, note.decision_id)
        held_until = timing.hold_for_quiet(user=note.user, kind=note.kind, due=now, deadline=deadline)
        if held_until is not None:
            Notification.objects.filter(pk=note.pk, status=note.status).update(  # the sweep sends it
                due_at=held_until, held=True, status=Notification.Status.PENDING
            )
            return False
    with transaction.atomic():
        # One claim at a time per mail that rows could share: a second worker, sent another row of the
        # same burst, waits here and then finds its row claimed into this mail (one mail, not two).
        _lock_recipient(note)
        claimed = Notification.objects.filter(  # a row that used up its attempts is never claimed again
            pk=notification_id,
            status__in=[Notification.Status.PENDING, Notification.Status.FAILED],
            attempts__lt=SEND_MAX_ATTEMPTS,
            due_at__lte=now,
        ).update(status=Notification.Status.SENDING, claimed_at=now, attempts=F("attempts") + 1)
        if claimed != 1:
            return False
        note.refresh_from_db()
        group = _claim_group(note, now=now)
    suppressed = bounces.address_suppressed(note.user.email)
    if suppressed is not None:
        Notification.objects.filter(pk__in=[note.pk, *group]).update(
            status=Notification.Status.SKIPPED, last_error=f"Not sent: {suppressed.get_reason_display()}."
        )
        return False
    try:
        message = mails.build_message(note, group=group)
        if message is None:
            Notification.objects.filter(pk__in=[note.pk, *group]).update(status=Notification.Status.SKIPPED)
            return False
        message.send()
    except Exception as exc:
        # As below: only the rows this claim still holds (one the sweep took back has a new outcome).
        held = Notification.objects.filter(status=Notification.Status.SENDING, claimed_at=now)
        held.filter(pk__in=group).update(status=Notification.Status.PENDING)
        held.filter(pk=note.pk).update(
            status=Notification.Status.FAILED, last_error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        raise SendFailed(str(exc)) from exc
    sent_at, subject = timezone.now(), message.subject[:200]
    Notification.objects.filter(pk=note.pk).update(
        status=Notification.Status.SENT, sent_at=sent_at, subject=subject, last_error=_RECLAIM_KEPT
    )
    # Only the group rows this claim still holds: a row the sweep took back meanwhile (this worker was
    # slower than NOTIFICATIONS_CLAIM_TIMEOUT) keeps its own outcome, sent again by another worker or
    # about to be (the at-least-once case, its "Reclaimed" note kept), not "merged" into this mail.
    Notification.objects.filter(pk__in=group, status=Notification.Status.SENDING, claimed_at=now).update(
        status=Notification.Status.MERGED, sent_at=sent_at, subject=subject, last_error=_RECLAIM_KEPT
    )
    if note.kind == Notification.Kind.DIGEST:
        Notification.objects.filter(
            user=note.user, status=Notification.Status.QUEUED_DIGEST, created_at__lte=note.created_at
        ).update(status=Notification.Status.DIGESTED)
    return True


#: A sent row's ``last_error``: cleared, except the reclaim's note, which stays as the record that this
#: mail may have gone out twice (``notifications_reclaim_stale``: the one at-least-once case).
_RECLAIM_KEPT = Case(
    When(last_error__startswith="Reclaimed", then=F("last_error")),
    default=Value(""),
    output_field=TextField(),
)


def _lock_recipient(note: Notification) -> None:
    """Lock, until the transaction ends, the claims of the mail ``note`` may go out in: its recipient's
    in its game (a burst), or its recipient's held mail (quiet hours, every game).

    Each row is claimed with a conditional update, but the claim of a burst is two steps: the row the
    task was sent for, then the others of its recipient and game (``_claim_group``). Two workers sent
    two rows of one burst at once would each claim its own first and send a mail each. Under this lock
    the second waits for the first's claim to commit and then finds its row taken into that mail. On
    PostgreSQL a transaction-level advisory lock on a key of (recipient, game), which touches no row (a
    collision of two keys' hashes only makes one claim wait for another); on SQLite the transaction
    itself is the lock (``BEGIN IMMEDIATE`` takes the database's one write lock).
    """
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        return
    game = "held" if note.held else note.game_id
    digest = hashlib.blake2b(f"notifications:{note.user_id}:{game}".encode(), digest_size=8).digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest, "big", signed=True)])


def _claim_group(note: Notification, *, now: datetime) -> list[int]:
    """Claim the pending notifications that go out in ``note``'s mail; their ids."""
    pending = Notification.objects.filter(user=note.user, status=Notification.Status.PENDING)
    pending = pending.exclude(pk=note.pk)
    if note.held:
        rows = pending.filter(held=True, due_at__lte=now)
    elif note.kind in timing.BURST_KINDS:
        rows = pending.filter(game=note.game, kind__in=timing.BURST_KINDS, held=False)
    else:
        return []
    claimed = []
    for pk in rows.values_list("pk", flat=True):
        if Notification.objects.filter(pk=pk, status=Notification.Status.PENDING).update(
            status=Notification.Status.SENDING, claimed_at=now
        ):
            claimed.append(pk)
    return claimed


def notifications_reclaim_stale(*, now: datetime | None = None) -> int:
    """Take back claims whose worker died: re-queue them, or fail them past ``SEND_MAX_ATTEMPTS``.

    A row stays ``sending`` only if the worker that claimed it stopped before recording the outcome
    (killed, out of memory, lost its database connection). Such a row is stale once its ``claimed_at``
    is older than ``NOTIFICATIONS_CLAIM_TIMEOUT`` seconds, which must exceed the longest real send
    (the SMTP timeout). Below the attempt limit it goes back to ``pending`` and a new send task is
    queued after commit; at the limit it becomes ``failed`` with the reason in ``last_error``. Each
    row is taken back with a conditional update, so two sweeps (or a sweep racing the worker that
    finally records its outcome) act on it once. Returns the number of rows re-queued.

    Trade-off: a worker that died after the SMTP server accepted the mail but before writing
    ``sent`` cannot be told apart from one that died before sending, so reclaiming makes delivery
    at-least-once for that narrow case (the user may get the mail twice); everywhere else sending
    stays at most once. We prefer a rare duplicate to a mail that is silently never sent. The
    "Reclaimed: …" note stays on the row once it is sent, so that such a duplicate can be told apart.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.NOTIFICATIONS_CLAIM_TIMEOUT)
    stale = Notification.objects.filter(status=Notification.Status.SENDING, claimed_at__lt=cutoff)
    given_up = stale.filter(attempts__gte=SEND_MAX_ATTEMPTS).update(
        status=Notification.Status.FAILED,
        last_error=(
            f"Gave up after {SEND_MAX_ATTEMPTS} attempts: the last worker to claim this notification "
            "stopped before recording whether it was sent."
        ),
    )
    requeued = 0
    for pk, claimed_at in stale.filter(attempts__lt=SEND_MAX_ATTEMPTS).values_list("pk", "claimed_at"):
        taken = Notification.objects.filter(
            pk=pk, status=Notification.Status.SENDING, claimed_at=claimed_at
        ).update(
            status=Notification.Status.PENDING,
            last_error=f"Reclaimed: the claim made at {claimed_at:%Y-%m-%d %H:%M:%S%z} never finished.",
        )
        if taken != 1:
            continue  # the worker recorded its outcome meanwhile, or another sweep took it back
        transaction.on_commit(partial(publish, SEND_NOTIFICATION, (pk,)))
        requeued += 1
    if given_up or requeued:
        log.warning("stale notification claims: %d re-queued, %d given up", requeued, given_up)
    return requeued


def notifications_requeue_pending(*, now: datetime | None = None) -> int:
    """Queue the send task again for every notification still ``pending``
    ``NOTIFICATIONS_PENDING_RETRY`` seconds past its due time: its task was lost (a publish that
    failed after commit, a broker that dropped it). Sending claims the row first, so a task that was
    only late sends nothing twice. Mail held by quiet hours, and any other whose due time was too
    far ahead for an ETA task (``NEAR``), is queued here as soon as it is due. Returns the number
    of rows re-queued.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.NOTIFICATIONS_PENDING_RETRY)
    pending = Notification.objects.filter(status=Notification.Status.PENDING).filter(
        Q(due_at__lt=cutoff)
        | Q(due_at__lte=now, held=True)
        | Q(due_at__lte=now, due_at__gt=F("created_at") + NEAR)
    )
    requeued = sum(publish(SEND_NOTIFICATION, (pk,)) for pk in pending.values_list("pk", flat=True))
    if requeued:
        log.warning("%d pending notifications queued again", requeued)
    return requeued


def notifications_recover(*, now: datetime | None = None) -> int:
    """The recovery sweep: take back dead workers' claims, re-queue lost sends, lost move-mail tasks
    (the outbox) and the staff's lost mails about reported table talk; returns the re-queued."""
    return (
        notifications_reclaim_stale(now=now)
        + notifications_requeue_pending(now=now)
        + outbox.requeue_stale(now=now)
        + moderation.talk_reports_recover(now=now)
    )
