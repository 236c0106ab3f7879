"""Web Push: keep each browser's subscription, and send a notice when a decision opens for a person.

A move's decisions reach ``push_decisions`` through a task queued after commit (``signals``). For each
person with a new decision it sends one notice per subscribed browser that has the category on: the
game, the decision kinds and their deadlines (``payloads``), encrypted for the browser (RFC 8291,
aes128gcm) and signed with the site's VAPID key (RFC 8292) by ``pywebpush``. A ``PushMessage`` row
per (subscription, game, version) makes each notice at-most-once; a 404 or 410 from the push
service means the browser dropped the subscription, so it is deleted.
"""

from __future__ import annotations

import base64
import binascii
import logging
from datetime import datetime
from typing import Any

import requests
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from apps.games.models import Decision, Game
from apps.notifications.models import Category
from apps.notifications.services import KIND_CATEGORY
from apps.webhooks import urlguard

from . import payloads
from .channels import CHANNEL_MODES, channel_enabled, mode_of
from .models import PushMessage, PushSubscription

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
    """Store (or move to ``user``) a browser's subscription; ``ValueError`` / ``UrlRefused`` if invalid."""
    if _b64_length(p256dh) != 65 or _b64_length(auth) != 16:
        raise ValueError("the subscription's keys are not a P-256 key and a 16-byte secret")
    urlguard.check_url(endpoint)
    if PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint).count() >= MAX_SUBSCRIPTIONS:
        raise ValueError(f"at most {MAX_SUBSCRIPTIONS} browsers per account")
    sub, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "label": label[:200]}
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


def push_decisions(*, game_id: int, version: int, opened: list[list[Any]]) -> int:
    """Notify each person's browsers of the decisions a move opened for them. Returns notices sent."""
    if not enabled():
        return 0
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE:
        return 0
    players = {
        s.position: s.user
        for s in game.seats.select_related("user")
        if s.user is not None and not s.played_by_bot
    }
    wanted: dict[int, list[tuple[str, str]]] = {}
    for position, kind, decision_id in opened:
        if position in players:
            wanted.setdefault(position, []).append((kind, str(decision_id)))
    sent = 0
    for position, decisions in sorted(wanted.items()):
        user = players[position]
        notice = seat_notice(game=game, seat=position, decisions=decisions)
        if notice is None:
            continue
        body, categories, ttl = notice
        if not any(channel_enabled(user, c, "push") for c in categories):
            continue
        for sub in PushSubscription.objects.filter(user=user):
            if all(mode_of(sub.categories, c) != "immediately" for c in categories):
                continue
            sent += push_send(subscription=sub, game=game, version=version, body=body, ttl=ttl)
    return sent


def seat_notice(
    *, game: Game, seat: int, decisions: list[tuple[str, str]]
) -> tuple[bytes, set[str], int] | None:
    """The notice (payload bytes before encryption, its categories, its TTL) for ``seat``'s new
    ``decisions`` (kind, decision id) that are still open; None when all have closed meanwhile."""
    rows = {r.decision_id: r for r in Decision.objects.filter(game=game, seat=seat)}
    still_open = [(kind, rows[d].deadline) for kind, d in decisions if d in rows]
    if not still_open:
        return None
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
    """Send one notice to one browser, at most once per (browser, game, version); 1 when it went out."""
    try:
        with transaction.atomic():
            message = PushMessage.objects.create(subscription=subscription, game=game, version=version)
    except IntegrityError:
        return 0
    try:
        urlguard.check_url(subscription.endpoint)
        answer = webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=body,
            vapid_private_key=_vapid(),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            content_encoding="aes128gcm",
            ttl=ttl,
            timeout=settings.WEBHOOKS_TIMEOUT,
        )
        status = int(answer.status_code)
    except requests.RequestException as exc:
        log.warning("push to subscription %s failed: %s", subscription.pk, type(exc).__name__)
        return 0
    except urlguard.UrlRefused as exc:
        log.warning("push endpoint refused for subscription %s: %s", subscription.pk, exc.message)
        return 0
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else 0
        if status in (404, 410):  # the browser unsubscribed: forget it
            subscription.delete()
            return 0
        log.warning("push to subscription %s failed: %s", subscription.pk, status or exc)
    PushMessage.objects.filter(pk=message.pk).update(status_code=status or None)
    if 200 <= status < 300:
        PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
        return 1
    return 0
