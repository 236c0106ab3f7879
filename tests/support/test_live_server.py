"""The live server takes turns on SQLite's shared in-memory connection (``tests/support/live_server``).

Pages that poll, and a test that plays through the services meanwhile, reach the database at the same
time; on SQLite they all use one connection, where two overlapping transactions used to fail ("cannot
start a transaction within a transaction"). On PostgreSQL each thread has its own connection and the
same test checks that concurrent requests and services still all succeed.
"""

from __future__ import annotations

import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.urls import path

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.urls(__name__)]

REQUESTS = 60
THREADS = 8


def _write_in_two_steps(request: HttpRequest) -> HttpResponse:
    """A request that writes in a transaction long enough for another to begin meanwhile."""
    with transaction.atomic():
        group = Group.objects.create(name=f"request {request.GET['n']}")
        time.sleep(0.002)
        group.name += " done"
        group.save(update_fields=["name"])
    return HttpResponse("ok")


urlpatterns = [path("write/", _write_in_two_steps)]


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return int(answer.status)


def test_overlapping_requests_that_write_all_succeed(live_server: Any) -> None:
    with ThreadPoolExecutor(THREADS) as pool:
        statuses = list(pool.map(_get, [f"{live_server.url}/write/?n={n}" for n in range(REQUESTS)]))

    assert statuses == [200] * REQUESTS
    assert Group.objects.filter(name__endswith=" done").count() == REQUESTS
