"""The webhook column of the Notifications table: who has somewhere to receive webhook events."""

from __future__ import annotations

from django.contrib.auth.models import User

from apps.notifications.preferences import channel_endpoint

from .models import WebhookEndpoint


@channel_endpoint("webhook")
def has_webhook_endpoint(user: User) -> bool:
    return WebhookEndpoint.objects.filter(user=user, active=True).exists()
