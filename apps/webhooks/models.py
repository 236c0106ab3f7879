"""Webhook endpoints a person (or their bot account) registers, and each event sent to one."""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models

from apps.accounts.abstract import Timestamped


def new_secret() -> str:
    """A signing secret to offer when the person gives none: 32 random URL-safe characters."""
    return secrets.token_urlsafe(24)


class WebhookEndpoint(Timestamped):
    """An HTTPS URL that gets every event its owner's seats may see, signed with ``secret``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=128)
    active = models.BooleanField(default=True)
    failures = models.PositiveIntegerField(default=0, help_text="Failed attempts in a row (0 after a 2xx).")
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=300, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "url"], name="webhook_unique_user_url")]

    def __str__(self) -> str:
        return f"{self.user} → {self.url}"


class WebhookDelivery(Timestamped):
    """One event for one endpoint: its exact body, sent until a 2xx answer or given up."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Given up"

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+", db_index=False)
    move_seq = models.PositiveIntegerField(help_text="Move.seq of the event's move; 0: the game started.")
    seat = models.PositiveSmallIntegerField()
    body = models.TextField(help_text="The JSON sent, byte for byte (the signature covers it).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    next_attempt_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the next attempt is due (after a failure: the backoff), or until when a "
        "dispatcher's claim holds it; the sweep re-dispatches a pending event past it. Null: now.",
    )
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["endpoint", "created_at"]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="webhook_delivery_pending_due",
                condition=models.Q(status="pending"),
            )
        ]
        constraints = [
            # at most one event per endpoint, move and seat, however often the fan-out task runs
            models.UniqueConstraint(
                fields=["endpoint", "game", "move_seq", "seat"], name="webhook_delivery_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event_id} ({self.status})"
