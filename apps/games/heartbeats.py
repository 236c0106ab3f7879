"""Heartbeats of the background processes: the sweep (beat and the deadlines worker) and each queue's
worker record when they last did their work; /healthz reports them stale after ``HEALTHZ_MAX_AGE``."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from baogame.celery import QUEUES

from .models import Heartbeat

SWEEP = "sweep"


def record(*, name: str, now: datetime | None = None) -> None:
    """Record that ``name`` did its work now."""
    Heartbeat.objects.update_or_create(name=name, defaults={"at": now or timezone.now()})


def report(*, now: datetime | None = None) -> dict[str, str]:
    """``ok``, ``stale`` or ``never`` for the beat (the sweep) and the worker of each queue."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.HEALTHZ_MAX_AGE)
    seen = dict(Heartbeat.objects.values_list("name", "at"))
    names = {"beat": SWEEP, **{f"worker:{queue}": f"worker:{queue}" for queue in QUEUES}}
    return {
        label: "never" if name not in seen else "ok" if seen[name] >= cutoff else "stale"
        for label, name in names.items()
    }
