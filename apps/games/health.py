"""/healthz: liveness and readiness, as JSON: the database and broker reachable, and the beat and each
queue's worker alive, that is, their heartbeat recent (``apps.games.heartbeats``)."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache


def _database_ok() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return True, "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready"
        return False, type(exc).__name__


def _broker_ok() -> tuple[bool, str]:
    from kombu import Connection

    from baogame.celery import app

    try:
        # A fresh connection (not the app's pool), so a broker that went away is noticed at once.
        options = app.conf.broker_transport_options or {}
        with Connection(app.conf.broker_url, transport_options=options, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            client = getattr(conn.default_channel, "client", None)
            if client is not None and hasattr(client, "ping"):  # Redis connects lazily: ask it
                client.ping()
        return True, "ok"
    except Exception as exc:  # noqa: BLE001
        return False, type(exc).__name__


def _processes() -> dict[str, str]:
    """The heartbeat of the beat (its sweep) and of each queue's worker: ok, stale or never."""
    from . import heartbeats

    try:
        return heartbeats.report()
    except Exception as exc:  # noqa: BLE001 - the database check names the cause
        return {"beat": type(exc).__name__}


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with every check "ok", else 503 naming what failed (never secrets or URLs)."""
    db_ok, db_detail = _database_ok()
    broker_ok, broker_detail = _broker_ok()
    processes = _processes() if db_ok else {}
    ok = db_ok and broker_ok and bool(processes) and all(v == "ok" for v in processes.values())
    return JsonResponse(
        {
            "status": "ok" if ok else "unavailable",
            "database": db_detail,
            "broker": broker_detail,
            **processes,
        },
        status=200 if ok else 503,
    )
