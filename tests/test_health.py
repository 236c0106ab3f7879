"""/healthz: database and broker reachable, JSON, 503 when not (issue 4)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_healthz_reports_ok_when_database_and_broker_answer(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}


def test_healthz_is_503_when_the_broker_is_unreachable(client: Client, monkeypatch) -> None:
    from baogame.celery import app

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
