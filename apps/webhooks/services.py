"""Webhooks: register endpoints, fan a move out to the seats' endpoints, deliver with retries.

Every move (and a game's start and end) of a game with a webhook writes its row in the outbox
(``signals``, ``apps.notifications.outbox``), whose task ``webhooks_fanout`` records one
``WebhookDelivery`` per endpoint and seat with the exact body to send and a stable ``event_id``
(unique, so a repeated fan-out adds nothing) and queues ``deliver_webhook`` for each. Delivery claims
the event with a conditional UPDATE (``next_attempt_at`` moved past the attempt's time), POSTs the
body signed afresh, and on a non-2xx answer or a network error sets the next attempt after an
exponential backoff (the task retries then); after ``WEBHOOKS_MAX_ATTEMPTS`` the event is "failed"
(counted on the webhooks page). The broker only makes this quick: the sweep (``deliveries_requeue_lost``)
queues again every pending event past its due time (a lost task or retry, a worker killed mid-attempt:
its claim lapses). ``WEBHOOKS_DISABLE_AFTER`` failed attempts in a row switch the endpoint off and
tell its owner by mail and on the page. At least once: a worker killed after the receiver answered
but before ``delivered`` was written sends the event again, with the same ``Baogame-Webhook-Id``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import requests
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from apps.accounts.language import mail_language
from apps.games import selectors as game_selectors
from apps.games.models import Game
from apps.notifications import outbox
from apps.notifications.models import Category
from apps.notifications.preferences import channel_enabled
from baogame.celery import publish
from baogame.mailmessage import send_plain

from . import payloads, signing, urlguard
from .models import WebhookDelivery, WebhookEndpoint, new_secret

log = logging.getLogger(__name__)

DELIVER = "apps.webhooks.tasks.deliver_webhook"
#: Endpoints one person may register.
MAX_ENDPOINTS = 5


class DeliveryFailed(Exception):
    """An attempt failed (network error or a non-2xx answer); the task retries it in ``retry_in`` s
    (None: that was the last attempt, the event is given up)."""

    def __init__(self, error: str, retry_in: int | None = 0) -> None:
        super().__init__(error)
        self.retry_in = retry_in


# --- endpoints ----------------------------------------------------------------------------------------


def endpoint_create(*, user: User, url: str, secret: str = "") -> WebhookEndpoint:
    """Register ``url`` for ``user``'s seats; ``urlguard.UrlRefused`` / ``ValueError`` when it may not be."""
    url = url.strip()
    urlguard.check_url(url)
    if WebhookEndpoint.objects.filter(user=user).count() >= MAX_ENDPOINTS:
        raise ValueError(f"at most {MAX_ENDPOINTS} webhooks per account")
    secret = secret.strip() or new_secret()
    if len(secret) < 16:
        raise ValueError("the secret needs at least 16 characters")
    try:
        with transaction.atomic():
            return WebhookEndpoint.objects.create(user=user, url=url, secret=secret)
    except IntegrityError:
        raise ValueError("that URL is registered already") from None


def endpoint_enable(*, user: User, endpoint_id: int) -> WebhookEndpoint:
    """Switch a disabled endpoint on again (its failure count starts afresh)."""
    endpoint = WebhookEndpoint.objects.get(pk=endpoint_id, user=user)
    endpoint.active, endpoint.failures, endpoint.disabled_at, endpoint.disabled_reason = True, 0, None, ""
    endpoint.save(update_fields=["active", "failures", "disabled_at", "disabled_reason"])
    return endpoint


def endpoint_delete(*, user: User, endpoint_id: int) -> None:
    """Remove an endpoint and its queued events (``DoesNotExist`` when it is not the user's)."""
    WebhookEndpoint.objects.get(pk=endpoint_id, user=user).delete()


# --- fan-out --------------------------------------------------------------------------------------------


def _category(body: dict[str, Any], event_types: set[str]) -> str:
    """The notification category an event belongs to (for the channel preference)."""
    if event_types & {"round_ended", "deal_ended", "game_ended"} or body["status"] != Game.Status.ACTIVE:
        return Category.RESULTS
    return Category.TURN


#: ``WebhookDelivery.move_seq`` of a game's end event (after every move).
END_SEQ = 2_147_483_647


def webhooks_fanout(
    *, game_id: int, move_id: int | None, ended: bool = False, version: int | None = None
) -> int:
    """Record and queue the event of one move (None: the game's start; ``ended``: the game's end) for
    every endpoint of its seats, and consume its outbox row (of the move at ``version``, or the end's)
    in the same transaction: the row goes exactly when the deliveries exist.

    Returns how many deliveries were recorded (0 when they exist already: at most once).
    """
    with transaction.atomic():
        made = _fanout(game_id=game_id, move_id=move_id, ended=ended)
        if ended:
            outbox.consume_game_end(game_id=game_id, channel=outbox.Channel.WEBHOOK)
        elif version is not None:
            outbox.consume(game_id=game_id, version=version, channel=outbox.Channel.WEBHOOK)
    return made


def _fanout(*, game_id: int, move_id: int | None, ended: bool) -> int:
    game = game_selectors.game_get(game_id)
    if game is None:
        return 0
    held = {s.position: s for s in game_selectors.seats_with_people(game) if s.user is not None}
    seats = {position: seat.user for position, seat in held.items() if seat.user is not None}
    endpoints: dict[int, list[WebhookEndpoint]] = {}
    for endpoint in WebhookEndpoint.objects.filter(user_id__in=[u.pk for u in seats.values()], active=True):
        endpoints.setdefault(endpoint.user_id, []).append(endpoint)
    if not endpoints:
        return 0
    move = game_selectors.move_by_id(move_id)
    made = 0
    for position, user in sorted(seats.items()):
        mine = endpoints.get(user.pk)
        if not mine:
            continue
        bot = held[position].bot_takeover
        if ended:
            body: dict[str, Any] | None = payloads.webhook_end_body(
                game=game, seat=position, bot_takeover=bot
            )
        else:
            body = payloads.webhook_body(game=game, seat=position, move=move, bot_takeover=bot)
        if body is None:
            continue
        if not channel_enabled(user, _category(body, {e.get("type") for e in body["events"]}), "webhook"):
            continue
        for endpoint in mine:
            seq = END_SEQ if ended else (move.seq if move else 0)
            made += _delivery_record(endpoint=endpoint, game=game, seq=seq, seat=position, body=body)
    return made


def _delivery_record(
    *, endpoint: WebhookEndpoint, game: Game, seq: int, seat: int, body: dict[str, Any]
) -> int:
    delivery = WebhookDelivery(endpoint=endpoint, game=game, move_seq=seq, seat=seat)
    delivery.body = payloads.encode({**body, "event_id": str(delivery.event_id)})
    try:
        with transaction.atomic():
            delivery.save()
    except IntegrityError:
        return 0  # recorded by an earlier run of the fan-out
    transaction.on_commit(lambda: publish(DELIVER, (delivery.pk,)))
    return 1


# --- delivery -------------------------------------------------------------------------------------------


def backoff(retries: int) -> int:
    """Seconds before retry number ``retries + 1``: base × 2^retries, at most an hour."""
    return int(min(3600, settings.WEBHOOKS_RETRY_SECONDS * 2**retries))


def claim_seconds() -> int:
    """How long a dispatcher's claim on an event holds: past it, the attempt is taken for dead."""
    return 3 * settings.WEBHOOKS_TIMEOUT + 30


def delivery_claim(*, delivery_id: int, now: datetime) -> bool:
    """Claim a pending event whose attempt is due (conditional UPDATE): True for the one caller that
    gets it; a late or repeated task, or one racing another worker, gets False."""
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    return bool(
        WebhookDelivery.objects.filter(due, pk=delivery_id, status=WebhookDelivery.Status.PENDING).update(
            next_attempt_at=now + timedelta(seconds=claim_seconds())
        )
    )


def delivery_attempt(*, delivery_id: int) -> bool:
    """POST a pending event once. True when delivered now; False when there is nothing (left) to do
    (delivered, given up, not due, claimed by another attempt, or its endpoint is off).

    Raises ``DeliveryFailed`` after a failed attempt (the failure is counted and the next attempt set
    first); after the last attempt (``WEBHOOKS_MAX_ATTEMPTS``) the event is given up first.
    """
    now = timezone.now()
    delivery = WebhookDelivery.objects.select_related("endpoint").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != WebhookDelivery.Status.PENDING or not delivery.endpoint.active:
        return False
    if not delivery_claim(delivery_id=delivery.pk, now=now):
        return False
    endpoint = delivery.endpoint
    body = delivery.body.encode()
    try:
        session = urlguard.pinned_session(endpoint.url)  # resolved once: the checked address is used
        answer = session.post(
            endpoint.url,
            data=body,
            headers=signing.headers(secret=endpoint.secret, event_id=str(delivery.event_id), body=body),
            timeout=settings.WEBHOOKS_TIMEOUT,
            allow_redirects=False,
        )
        error = "" if 200 <= answer.status_code < 300 else f"HTTP {answer.status_code}"
    except urlguard.UrlRefused as exc:
        error = f"refused: {exc.message}"
    except requests.RequestException as exc:
        error = f"{type(exc).__name__}"
    now = timezone.now()
    attempts = delivery.attempts + 1
    retry_in = backoff(attempts - 1)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        attempts=F("attempts") + 1,
        last_error=error[:300],
        next_attempt_at=now + timedelta(seconds=retry_in),
    )
    if not error:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.DELIVERED, delivered_at=now
        )
        WebhookEndpoint.objects.filter(pk=endpoint.pk).update(failures=0, last_success_at=now)
        return True
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(failures=F("failures") + 1)
    endpoint.refresh_from_db(fields=["failures", "active"])
    if endpoint.active and endpoint.failures >= settings.WEBHOOKS_DISABLE_AFTER:
        endpoint_disable(
            endpoint=endpoint, reason=f"{endpoint.failures} failed attempts in a row, the last: {error}"
        )
    if attempts >= settings.WEBHOOKS_MAX_ATTEMPTS:
        delivery_give_up(delivery_id=delivery.pk)
        raise DeliveryFailed(error, None)
    raise DeliveryFailed(error, retry_in)


def deliveries_requeue_lost(
    *, older_than: timedelta = timedelta(minutes=2), now: datetime | None = None
) -> int:
    """Queue again each pending event whose task was lost: never tried and older than ``older_than``
    (a publish that failed after commit, a broker that restarted empty), or past its due time by as
    much (a retry the broker lost, a worker killed mid-attempt whose claim lapsed). Called by the beat;
    the delivery's claim keeps a task that was only late from sending twice."""
    now = now or timezone.now()
    cutoff = now - older_than
    lost = (
        WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING, endpoint__active=True)
        .filter(Q(next_attempt_at__isnull=True, created_at__lte=cutoff) | Q(next_attempt_at__lte=cutoff))
        .order_by("pk")
        .values_list("pk", flat=True)[:1000]
    )
    requeued = sum(publish(DELIVER, (pk,)) for pk in lost)
    if requeued:
        log.warning("%d lost webhook deliveries queued again", requeued)
    return requeued


def delivery_give_up(*, delivery_id: int) -> None:
    """The retries are spent: the event is given up (the endpoint's failures are counted already)."""
    WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).update(
        status=WebhookDelivery.Status.FAILED
    )


def endpoint_disable(*, endpoint: WebhookEndpoint, reason: str) -> None:
    """Switch an endpoint off and tell its owner (a mail, and a notice on the webhooks page)."""
    claimed = WebhookEndpoint.objects.filter(pk=endpoint.pk, active=True).update(
        active=False, disabled_at=timezone.now(), disabled_reason=reason[:300]
    )
    if not claimed:
        return
    WebhookDelivery.objects.filter(endpoint=endpoint, status=WebhookDelivery.Status.PENDING).update(
        status=WebhookDelivery.Status.FAILED
    )
    user = endpoint.user
    if user.email:
        page = settings.SITE_URL + reverse("webhooks:list")
        with translation.override(mail_language(user)):  # the owner's language
            subject = gettext("Your baogame webhook was switched off")
            body = gettext(
                "We stopped sending events to %(url)s: %(reason)s.\n\n"
                "Fix the receiver, then switch it on again at %(page)s\n"
            ) % {"url": endpoint.url, "reason": reason, "page": page}
        send_plain(subject, body, [user.email], fail_silently=True)
