"""A clock the notifications app reads (``apps.notifications.clock.now``) that a test moves by hand: settle
times, quiet hours and burst due times without sleeping."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from apps.notifications import clock as notification_clock


class MovableClock:
    def __init__(self) -> None:
        self.now = timezone.now()

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> MovableClock:
    moved = MovableClock()
    monkeypatch.setattr(notification_clock, "now", lambda: moved.now)
    return moved
