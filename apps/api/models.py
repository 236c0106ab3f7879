"""Personal API tokens: several named tokens per user, stored hashed, shown once."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models

from apps.accounts.abstract import Timestamped


def token_digest(raw: str) -> str:
    """The SHA-256 hex digest under which a token is stored (tokens are random, so no salt is needed)."""
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


class ApiToken(Timestamped):
    """One personal API token; the secret itself is never stored, only its digest."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=12, help_text="The first characters, to recognise a token.")
    digest = models.CharField(max_length=64, unique=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
