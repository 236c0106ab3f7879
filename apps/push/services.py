"""Web Push: keep each browser's subscription, and send a notice when a decision opens for a person.

A move's decisions reach ``push_decisions`` through a task queued after commit (``signals``). Notices
come one per burst, like mail: the first new decision for a person in a game starts a ``PushBurst`` due
after the settle time; later moves only add to it; when due (a task with an ETA, or the sweep for a lost
one or one held by quiet hours) ``burst_send`` sends one notice per subscribed browser that has the
category on, naming the person's decisions still open then: the game, the decision kinds and their
deadlines (``payloads``), encrypted for the browser (RFC 8291, aes128gcm) and signed with the site's
VAPID key (RFC 8292) by ``pywebpush``. Nothing goes out when the burst's decisions all closed meanwhile,
nor when every decision open then was listed in an answer to the person's mail command
(``selectors.decisions_told_in_answers``, the rule the "Your move" mail follows). A ``PushMessage`` row
per (subscription, game, version) holds each notice, with a stable ``id`` in its payload: a failed send
is retried with backoff (``deliver_push``, and the sweep for a lost retry) and after
``WEBHOOKS_MAX_ATTEMPTS`` shown failed on the profile; at least once, a repeat carrying the same id. A
404 or 410 from the push service means the browser dropped the subscription, so it is deleted.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import requests
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from apps.games import selectors as game_selectors
from apps.games.models import Game
from apps.notifications import clock, outbox, quiet, selectors
from apps.notifications.compose import user_zone
from apps.notifications.models import KIND_CATEGORY, Category
from apps.notifications.preferences import channel_enabled
from apps.notifications.timing import settle_seconds
from apps.webhooks import urlguard
from baogame.celery import publish

from . import payloads
from .channels import CHANNEL_MODES, mode_of
from .models import PushBurst, PushMessage, PushSubscription

log = logging.getLogger(__name__)

#: Categories a browser can switch: those of a decision (the notices push sends).
PUSH_CATEGORIES = [
    Category.TURN,
    Category.PLUCK,
    Category.ABILITY,
    Category.SETUP,
    Category.TRIBUTE,
    Category.DECLARE,
]
MAX_SUBSCRIPTIONS = 20
SEND_BURST = "apps.push.tasks.send_burst"
DELIVER_PUSH = "apps.push.tasks.deliver_push"


def enabled() -> bool:
    """Whether the site has VAPID keys (push is offered only then)."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def _b64_length(value: str) -> int:
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except (binascii.Error, ValueError):
        return -1


def subscription_save(
    *, user: User, endpoint: str, p256dh: str, auth: str, label: str = ""
) -> PushSubscription:
    """Store (or refresh the keys of) ``user``'s subscription of a browser; ``ValueError`` /
    ``UrlRefused`` if invalid. A subscription belongs to (user, endpoint): another account holding the
    same endpoint (a browser two accounts share) keeps its own row, untouched."""
    if _b64_length(p256dh) != 65 or _b64_length(auth) != 16:
        raise ValueError("the subscription's keys are not a P-256 key and a 16-byte secret")
    urlguard.check_url(endpoint)
    if PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint).count() >= MAX_SUBSCRIPTIONS:
        raise ValueError(f"at most {MAX_SUBSCRIPTIONS} browsers per account")
    sub, _ = PushSubscription.objects.update_or_create(
        user=user, endpoint=endpoint, defaults={"p256dh": p256dh, "auth": auth, "label": label[:200]}
    )
    return sub


def subscription_delete(*, user: User, subscription_id: int) -> None:
    """Forget one of the user's browsers (``DoesNotExist`` when it is not theirs)."""
    PushSubscription.objects.get(pk=subscription_id, user=user).delete()


def subscription_set_categories(
    *, user: User, subscription_id: int, categories: dict[str, str]
) -> PushSubscription:
    """Set a browser's modes (immediately / off) per category; ``ValueError`` for an unknown one."""
    sub = PushSubscription.objects.get(pk=subscription_id, user=user)
    for category, mode in categories.items():
        if category not in PUSH_CATEGORIES or mode not in CHANNEL_MODES:
            raise ValueError(f"unknown category or mode {category!r}: {mode!r}")
    sub.categories = {**sub.categories, **categories}
    sub.save(update_fields=["categories"])
    return sub


def push_decisions(
    *, game_id: int, version: int, opened: list[list[Any]], now: datetime | None = None
) -> int:
    """Start (or join) each person's burst for the decisions a move opened; returns the bursts started.

    The first new decision for a person in a game starts a burst due after the settle time
    (``NOTIFY_SETTLE_SECONDS``, never more than a quarter of the time left to the seat's nearest
    deadline, as for mail); further moves while it waits only add their decisions to it. When due,
    ``burst_send`` sends one notice per browser naming the decisions still open then. The move's push
    row of the outbox is consumed in the same transaction as the bursts it starts or joins.
    """
    with transaction.atomic():
        started = _push_decisions(game_id=game_id, version=version, opened=opened, now=now)
        outbox.consume(game_id=game_id, version=version, channel=outbox.Channel.PUSH)
    return started


def _push_decisions(*, game_id: int, version: int, opened: list[list[Any]], now: datetime | None) -> int:
    if not enabled():
        return 0
    game = game_selectors.game_get(game_id)
    if game is None or game.status != Game.Status.ACTIVE:
        return 0
    players = game_selectors.human_players(game)
    wanted: dict[int, list[str]] = {}
    for position, _kind, decision_id in opened:
        if position in players:
            wanted.setdefault(position, []).append(str(decision_id))
    now = now or clock.now()
    started = 0
    for position, decision_ids in sorted(wanted.items()):
        user = players[position]
        if PushSubscription.objects.filter(user=user).exists():
            started += burst_open(user=user, game=game, seat=position, decision_ids=decision_ids, now=now)
    return started


def burst_open(*, user: User, game: Game, seat: int, decision_ids: list[str], now: datetime) -> bool:
    """Add ``decision_ids`` to the person's waiting burst in ``game``, or start one (True) and queue its
    send task for its due time."""
    settle = settle_seconds(game=game, seat=seat, now=now)
    with transaction.atomic():
        burst, created = PushBurst.objects.select_for_update().get_or_create(
            game=game,
            user=user,
            seat=seat,
            defaults={"decision_ids": decision_ids, "due_at": now + timedelta(seconds=settle)},
        )
        if not created:
            burst.decision_ids = sorted({*burst.decision_ids, *decision_ids})
            burst.save(update_fields=["decision_ids"])
            return False
    eta = timezone.now() + timedelta(seconds=settle) if settle > 0 else None
    transaction.on_commit(partial(publish, SEND_BURST, (burst.pk,), eta=eta))
    return True


def burst_send(*, burst_id: int, now: datetime | None = None) -> int:
    """Send a due burst: one notice per browser naming the person's decisions still open in the game,
    nothing when all of the burst's decisions closed meanwhile. A burst not yet due is left for its
    task or the sweep; one falling inside the person's quiet hours waits for their end. The burst is
    deleted before sending, so it goes out at most once. Returns the notices sent."""
    now = now or clock.now()
    with transaction.atomic():
        burst = (
            PushBurst.objects.select_for_update(of=("self",))  # not the game row a move locks
            .select_related("user", "game")
            .filter(pk=burst_id)
            .first()
        )
        if burst is None or burst.due_at > now:
            return 0
        ends = quiet.quiet_until(selectors.mail_settings_for(user=burst.user), user_zone(burst.user), now)
        if ends is not None:
            PushBurst.objects.filter(pk=burst.pk).update(due_at=ends, held=True)
            return 0
        burst.delete()
    game, user = burst.game, burst.user
    if game.status != Game.Status.ACTIVE or game_selectors.human_players(game).get(burst.seat) != user:
        return 0
    notice = seat_notice(
        game=game, seat=burst.seat, decisions=[("", d) for d in burst.decision_ids], told_to=user
    )
    if notice is None:
        return 0
    body, categories, ttl = notice
    if not any(channel_enabled(user, c, "push") for c in categories):
        return 0
    sent = 0
    for sub in PushSubscription.objects.filter(user=user):
        if all(mode_of(sub.categories, c) != "immediately" for c in categories):
            continue
        sent += push_send(subscription=sub, game=game, version=game.version, body=body, ttl=ttl)
    return sent


def bursts_send_due(*, now: datetime | None = None) -> int:
    """The sweep: queue the send task again for every burst ``NOTIFICATIONS_PENDING_RETRY`` seconds
    past its due time (its task was lost), and for every burst quiet hours held once they end.
    Sending locks and deletes the burst, so a task that was only late sends nothing twice. Returns
    the bursts queued."""
    now = now or clock.now()
    lost = now - timedelta(seconds=settings.NOTIFICATIONS_PENDING_RETRY)
    due = PushBurst.objects.filter(Q(due_at__lte=lost) | Q(due_at__lte=now, held=True))
    return (
        sum(publish(SEND_BURST, (pk,)) for pk in due.values_list("pk", flat=True)) + messages_requeue_lost()
    )


def seat_notice(
    *, game: Game, seat: int, decisions: list[tuple[str, str]], told_to: User | None = None
) -> tuple[bytes, set[str], int] | None:
    """The notice (payload bytes before encryption, its categories, its TTL) naming every decision open
    for ``seat`` now, or None when none of ``decisions`` (kind, decision id) is still open, or when
    ``told_to`` was already told of every decision open now by an answer to their mail command
    (``selectors.decisions_told_in_answers``: the "Your move" mail is not sent then either)."""
    rows = list(game_selectors.seat_decisions(game=game, seat=seat).order_by("deadline", "decision_id"))
    wanted = {d for _, d in decisions}
    if not any(r.decision_id in wanted for r in rows):
        return None
    open_ids = {r.decision_id for r in rows}
    if told_to is not None and selectors.decisions_told_in_answers(
        user=told_to, game=game, decision_ids=open_ids
    ):
        return None
    still_open = [(r.kind, r.deadline) for r in rows]
    categories = {str(KIND_CATEGORY.get(kind, Category.TURN)) for kind, _ in still_open}
    body = payloads.encode(payloads.push_payload(game=game, decisions=still_open))
    return body, categories, _ttl([d for _, d in still_open])


def _ttl(deadlines: list[datetime | None]) -> int:
    """How long the push service should keep the notice: until the first deadline (a day at most)."""
    known = [d for d in deadlines if d is not None]
    if not known:
        return 86400
    return max(60, min(86400, int((min(known) - timezone.now()).total_seconds())))


def _vapid() -> Vapid02:
    return Vapid02.from_raw(settings.VAPID_PRIVATE_KEY.encode())


def push_send(
    *, subscription: PushSubscription, game: Game, version: int, body: bytes, ttl: int = 86400
) -> int:
    """Record one notice for one browser, once per (browser, game, version), with a stable ``id`` in its
    payload, and send it (``message_attempt``); 1 when it went out now. A failed send is retried after
    a backoff (a task, and the sweep should the task be lost); a repeat of the same notice is 0."""
    message = PushMessage(
        subscription=subscription, game=game, version=version, ttl=ttl, status=PushMessage.Status.PENDING
    )
    message.payload = payloads.encode({**json.loads(body), "id": str(message.event_id)}).decode()
    try:
        with transaction.atomic():
            message.save()
    except IntegrityError:
        return 0
    try:
        return int(message_attempt(message_id=message.pk))
    except PushFailed as exc:
        if exc.retry_in is not None:
            publish(DELIVER_PUSH, (message.pk,), eta=timezone.now() + timedelta(seconds=exc.retry_in))
        return 0


class PushFailed(Exception):
    """A send failed (network error or an error answer); retry in ``retry_in`` s (None: given up)."""

    def __init__(self, error: str, retry_in: int | None) -> None:
        super().__init__(error)
        self.retry_in = retry_in


def message_attempt(*, message_id: int) -> bool:
    """Send a pending notice once: True when the push service accepted it; False when there is nothing
    (left) to do (sent, given up, not due, claimed by another attempt, or its browser is gone).

    The attempt claims the notice with a conditional UPDATE (as a webhook event); a 404 or 410 answer
    means the browser unsubscribed: it is forgotten. Raises ``PushFailed`` after a failed attempt."""
    from apps.webhooks.services import backoff, claim_seconds

    now = timezone.now()
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    claimed = PushMessage.objects.filter(due, pk=message_id, status=PushMessage.Status.PENDING).update(
        next_attempt_at=now + timedelta(seconds=claim_seconds())
    )
    message = (
        PushMessage.objects.select_related("subscription").filter(pk=message_id).first() if claimed else None
    )
    if message is None:
        return False
    subscription = message.subscription
    status, error = 0, ""
    try:
        session = urlguard.pinned_session(subscription.endpoint)  # resolved once, the checked address
        answer = webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=message.payload.encode(),
            vapid_private_key=_vapid(),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            content_encoding="aes128gcm",
            ttl=message.ttl,
            timeout=settings.WEBHOOKS_TIMEOUT,
            requests_session=session,
        )
        status = int(answer.status_code)
    except requests.RequestException as exc:
        error = type(exc).__name__
    except urlguard.UrlRefused as exc:
        error = f"refused: {exc.message}"
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else 0
        if status in (404, 410):  # the browser unsubscribed: forget it
            subscription.delete()
            return False
    if 200 <= status < 300:
        PushMessage.objects.filter(pk=message.pk).update(
            status=PushMessage.Status.SENT, status_code=status, attempts=F("attempts") + 1, last_error=""
        )
        PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
        return True
    error = error or f"HTTP {status}"
    log.warning("push to subscription %s failed: %s", subscription.pk, error)
    attempts = message.attempts + 1
    given_up = attempts >= settings.WEBHOOKS_MAX_ATTEMPTS
    retry_in = None if given_up else backoff(attempts - 1)
    PushMessage.objects.filter(pk=message.pk).update(
        attempts=attempts,
        last_error=error[:300],
        status_code=status or None,
        status=PushMessage.Status.FAILED if given_up else PushMessage.Status.PENDING,
        next_attempt_at=now + timedelta(seconds=retry_in or 0),
    )
    raise PushFailed(error, retry_in)


def messages_requeue_lost(*, now: datetime | None = None) -> int:
    """The sweep: queue again every pending notice past its due time by ``NOTIFICATIONS_PENDING_RETRY``
    seconds (a retry the broker lost, a worker killed mid-send whose claim lapsed)."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.NOTIFICATIONS_PENDING_RETRY)
    lost = (
        PushMessage.objects.filter(status=PushMessage.Status.PENDING, next_attempt_at__lte=cutoff)
        .order_by("pk")
        .values_list("pk", flat=True)[:1000]
    )
    return sum(publish(DELIVER_PUSH, (pk,)) for pk in lost)
