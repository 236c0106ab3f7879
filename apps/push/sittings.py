"""The reminder push of a sitting, 15 minutes before it starts: "the sitting of <game> starts at …".

The sittings app claims each (sitting, person) once and asks for delivery through ``sitting_message``;
every browser of the person gets the notice (no card, no view: the game and the start time only).
"""

from __future__ import annotations

import logging
from typing import Any

import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.dispatch import receiver
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from apps.notifications import preferences
from apps.notifications.models import Category
from apps.sittings.models import Sitting, SittingReminder
from apps.sittings.signals import sitting_message
from apps.webhooks import urlguard

from . import payloads, services
from .models import PushSubscription

log = logging.getLogger(__name__)


def sitting_payload(sitting: Sitting, *, started: bool = False) -> dict[str, Any]:
    game = sitting.game
    news = "we are starting: the table is playing" if started else "your sitting starts soon"
    return {
        "game": game.public_id,
        "url": settings.SITE_URL + game.get_absolute_url(),
        "title": f"{game.get_engine_display()}: {news}",
        "starts_at": sitting.starts_at.isoformat(),
        "decisions": [],
    }


def sitting_push_send(*, sitting: Sitting, user_id: int, started: bool = False) -> int:
    """Send the reminder (or, ``started``, "we are starting") to every browser of the person; the number
    of notices that went out."""
    if not services.enabled():
        return 0
    body = payloads.encode(sitting_payload(sitting, started=started))
    sent = 0
    for subscription in PushSubscription.objects.filter(user_id=user_id):
        try:
            session = urlguard.pinned_session(subscription.endpoint)  # resolved once, the checked address
            webpush(
                subscription_info={
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=body,
                vapid_private_key=Vapid02.from_raw(settings.VAPID_PRIVATE_KEY.encode()),
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                content_encoding="aes128gcm",
                ttl=15 * 60,
                timeout=settings.WEBHOOKS_TIMEOUT,
                requests_session=session,
            )
            sent += 1
        except (requests.RequestException, urlguard.UrlRefused, WebPushException) as exc:
            log.warning("sitting push to subscription %s failed: %s", subscription.pk, type(exc).__name__)
    return sent


@receiver(sitting_message, dispatch_uid="push.sitting_message")
def on_sitting_message(sender: Any, *, sitting: Sitting, user_id: int, kind: str, **kwargs: Any) -> None:
    if kind not in (SittingReminder.Kind.PUSH, SittingReminder.Kind.STARTING):
        return
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is not None and preferences.mode_for(user, Category.REMINDER, "push") != preferences.OFF:
        sitting_push_send(sitting=sitting, user_id=user_id, started=kind == SittingReminder.Kind.STARTING)
