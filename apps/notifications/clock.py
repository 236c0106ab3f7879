"""The notifications' clock: settle times and quiet hours are decided against ``now()``.

One function so that tests can move time (monkeypatch ``clock.now``) instead of sleeping.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    """The current time (aware, UTC)."""
    return timezone.now()
