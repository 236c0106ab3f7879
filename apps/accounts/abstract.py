"""Abstract model bases that the apps' models share (accounts is the lowest app, so every app may
import them)."""

from __future__ import annotations

from django.db import models


class Timestamped(models.Model):
    """A row that records when it was made: ``created_at``, set when it is first saved."""

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
