"""Browsers that asked for Web Push notices, and each notice sent to one (once per id, retried)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from apps.accounts.abstract import Timestamped


class PushSubscription(Timestamped):
    """One browser's push subscription (RFC 8030 endpoint and RFC 8291 keys), per person and device."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000)
    p256dh = models.CharField(max_length=200, help_text="The browser's P-256 public key, base64url.")
    auth = models.CharField(max_length=100, help_text="The browser's authentication secret, base64url.")
    label = models.CharField(max_length=200, blank=True, help_text="Which browser, as its user agent says.")
    categories = models.JSONField(
        default=dict, help_text="category -> immediately | off (missing: immediately)"
    )
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "created_at"]
        constraints = [
            # a browser shared by two accounts holds one row per account: posting an endpoint never
            # takes it from another account, so one person cannot silence another's notices
            models.UniqueConstraint(fields=["user", "endpoint"], name="push_subscription_user_endpoint")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.label or self.endpoint[:40]}"


class PushMessage(Timestamped):
    """A notice for one subscription about one game version's decisions: unique, with a stable ``id`` in
    its payload (``event_id``) and its exact payload, sent until the push service accepts it or
    ``WEBHOOKS_MAX_ATTEMPTS`` attempts fail (then "failed", shown on the profile)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Given up"

    subscription = models.ForeignKey(PushSubscription, on_delete=models.CASCADE, related_name="messages")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+", db_index=False)
    version = models.PositiveIntegerField()
    event_id = models.UUIDField(default=uuid.uuid4, editable=False)
    payload = models.TextField(blank=True, help_text="The JSON sent (before encryption), with its id.")
    ttl = models.PositiveIntegerField(default=86400)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SENT)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True, help_text="As WebhookDelivery's.")
    last_error = models.CharField(max_length=300, blank=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["subscription", "game", "version"], name="push_message_once")
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="push_message_pending_due",
                condition=models.Q(status="pending"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.subscription_id} game {self.game_id} v{self.version}"


class PushBurst(Timestamped):
    """A person's pending notice for one game: the first new decision starts it, due after the settle
    time; later moves only add their decisions. Sending deletes it (at most once per burst)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.PositiveSmallIntegerField()
    decision_ids = models.JSONField(default=list, help_text="The decisions that started or joined it.")
    due_at = models.DateTimeField(db_index=True)
    held = models.BooleanField(default=False, help_text="Put back to the end of the person's quiet hours.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user", "seat"], name="push_burst_one_per_seat")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} game {self.game_id} seat {self.seat} due {self.due_at:%H:%M:%S}"
