"""Whether a person wants a category of notice on a channel (``push`` or ``webhook``).

One gate for both channels: the Notifications table (``apps.notifications.preferences.mode_for``)
decides per person, category and channel; a push subscription then filters by its own per-browser
setting (``mode_of``). Each app tells the table whether a person has somewhere to receive its
channel (``has_push_subscription`` here, ``has_webhook_endpoint`` in the webhooks), which sets the cell's
default.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from apps.notifications.preferences import channel_endpoint

#: Channel values of a category on a device or endpoint.
IMMEDIATELY, OFF = "immediately", "off"
CHANNEL_MODES = (IMMEDIATELY, OFF)


@channel_endpoint("push")
def has_push_subscription(user: User) -> bool:
    from .models import PushSubscription

    return PushSubscription.objects.filter(user=user).exists()


def mode_of(categories: dict[str, str], category: str) -> str:
    """A device's mode for ``category``: what it set, else immediately."""
    mode = categories.get(category, IMMEDIATELY)
    return mode if mode in CHANNEL_MODES else IMMEDIATELY
