"""Whether a person wants a category of notice on a channel (``push`` or ``webhook``).

One gate for both new channels. Until the notifications preferences table exists it reads the
channel's own per-device / per-endpoint settings: a person wants a category on a channel when at
least one of their push subscriptions (or active webhook endpoints) has it on. The caller still
filters each device by its own setting. When ``apps.notifications.preferences.mode_for`` lands,
this becomes ``mode_for(user, category, channel) == "immediately"``.
"""

from __future__ import annotations

from django.contrib.auth.models import User

#: Channel values of a category on a device or endpoint.
IMMEDIATELY, OFF = "immediately", "off"
CHANNEL_MODES = (IMMEDIATELY, OFF)


def _channel_enabled(user: User, category: str, channel: str) -> bool:
    """True when ``user`` wants ``category`` notices on ``channel`` ("push" or "webhook") now."""
    if not user.is_active:
        return False
    if channel == "push":
        from .models import PushSubscription

        subs = PushSubscription.objects.filter(user=user).values_list("categories", flat=True)
        return any(mode_of(categories, category) == IMMEDIATELY for categories in subs)
    if channel == "webhook":
        from apps.webhooks.models import WebhookEndpoint

        return WebhookEndpoint.objects.filter(user=user, active=True).exists()
    return False


def mode_of(categories: dict[str, str], category: str) -> str:
    """A device's mode for ``category``: what it set, else immediately."""
    mode = categories.get(category, IMMEDIATELY)
    return mode if mode in CHANNEL_MODES else IMMEDIATELY
