"""/healthz: database and broker reachable, beat and workers alive (recent heartbeats), JSON, 503 when
not."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.games import tasks
from apps.games.models import Heartbeat
from baogame.celery import QUEUES

pytestmark = pytest.mark.django_db


def _sweep_and_heartbeats() -> None:
    """What the beat does every interval: the sweep, and a heartbeat task to each queue's worker."""
    tasks.sweep_due.apply()
    for queue in QUEUES:
        tasks.heartbeat.apply((queue,))


def test_healthz_reports_ok_when_database_broker_beat_and_workers_answer(client: Client) -> None:
    _sweep_and_heartbeats()

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "broker": "ok",
        "beat": "ok",
        **{f"worker:{queue}": "ok" for queue in QUEUES},
    }


def test_healthz_is_503_before_the_sweep_and_workers_ever_ran(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["beat"] == "never"


def test_healthz_is_503_when_a_workers_heartbeat_is_stale(client: Client, settings) -> None:
    _sweep_and_heartbeats()
    Heartbeat.objects.filter(name="worker:people").update(
        at=timezone.now() - timedelta(seconds=settings.HEALTHZ_MAX_AGE + 1)
    )

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["worker:people"] == "stale"
    assert response.json()["worker:deadlines"] == "ok"


def test_healthz_is_503_when_the_broker_is_unreachable(client: Client, monkeypatch) -> None:
    from baogame.celery import app

    _sweep_and_heartbeats()
    old = app.conf.broker_url
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")  # Celery prefers the variable
    app.conf.broker_url = "redis://127.0.0.1:1/0"
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = old

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["broker"] != "ok"
    assert "127.0.0.1" not in response.content.decode()
