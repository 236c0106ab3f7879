"""The webhook column of the Notifications table: who has somewhere to receive webhook events."""

from __future__ import annotations

from django.contrib.auth.models import User

from apps.notifications.preferences import register_channel

from .models import WebhookEndpoint


def has_webhook_endpoint(user: User) -> bool:
    return WebhookEndpoint.objects.filter(user=user, active=True).exists()


def register_endpoints() -> None:
    """Tell the Notifications table who can receive webhook events (a cell's default)."""
    register_channel("webhook", has_webhook_endpoint)
