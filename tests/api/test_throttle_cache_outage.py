"""With the write throttle's counters on Redis, a Redis outage must not turn writes into 500s.

The test runs its own redis-server (port 6392, override with ``THROTTLE_TEST_REDIS_PORT``) and stops it.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]

PORT = int(os.environ.get("THROTTLE_TEST_REDIS_PORT", "6392"))


def _accepts_connections(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def redis_server() -> Iterator[subprocess.Popen[bytes]]:
    """A throwaway redis-server of this test's own; stopped at the end whatever happened."""
    server = subprocess.Popen(
        ["redis-server", "--port", str(PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            if _accepts_connections(PORT):
                break
            time.sleep(0.05)
        yield server
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def throttle_on_redis(settings: Any, redis_server: subprocess.Popen[bytes]) -> None:
    settings.CACHES = {
        **settings.CACHES,
        "api": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{PORT}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
    settings.API_THROTTLE_CACHE = "api"
    settings.API_WRITE_RATE = "100/min"


def test_writes_fail_open_and_are_logged_while_the_throttle_cache_is_down(
    client_for: Any,
    users: list,
    redis_server: subprocess.Popen[bytes],
    throttle_on_redis: None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = client_for(users[0])
    before = client.post("/api/v1/tokens/", {"name": "before"}, format="json")
    redis_server.terminate()
    redis_server.wait(timeout=10)

    with caplog.at_level(logging.WARNING, logger="apps.api.throttling"):
        during = client.post("/api/v1/tokens/", {"name": "during"}, format="json")

    assert (before.status_code, during.status_code) == (201, 201)
    assert any("throttle cache unavailable" in r.getMessage() for r in caplog.records)


def test_the_throttle_still_counts_on_redis_while_it_is_up(
    client_for: Any, users: list, throttle_on_redis: None, settings: Any
) -> None:
    settings.API_WRITE_RATE = "2/min"
    client = client_for(users[0])

    answers = [client.post("/api/v1/tokens/", {"name": f"t{i}"}, format="json").status_code for i in range(3)]

    assert answers == [201, 201, 429]
