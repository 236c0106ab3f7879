"""/healthz: liveness and readiness (database and broker reachable), as JSON."""

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


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with every check "ok", else 503 naming what failed (never secrets or URLs)."""
    db_ok, db_detail = _database_ok()
    broker_ok, broker_detail = _broker_ok()
    ok = db_ok and broker_ok
    return JsonResponse(
        {"status": "ok" if ok else "unavailable", "database": db_detail, "broker": broker_detail},
        status=200 if ok else 503,
    )
