"""The live server takes turns on SQLite's shared in-memory connection (``tests/support/live_server``).

Pages that poll, and a test that plays through the services meanwhile, reach the database at the same
time; on SQLite they all use one connection, where two overlapping transactions used to fail ("cannot
start a transaction within a transaction"). On PostgreSQL each thread has its own connection and the
same test checks that concurrent requests and services still all succeed.

The test's own writes are checked twice: in the test's thread as it is, and with an event loop marked as
running in it, as after a browser test in the same process (Playwright's sync API leaves its loop so;
that once gave the test's thread a connection of its own, and "database table is locked").
"""

from __future__ import annotations

import asyncio
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.db import connections, transaction
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


def _write_and_roll_back(request: HttpRequest) -> HttpResponse:
    """A request whose transaction writes, waits, and is rolled back."""
    with transaction.atomic():
        Group.objects.create(name=f"rolled back {request.GET['n']}")
        time.sleep(0.002)
        transaction.set_rollback(True)
    return HttpResponse("ok")


urlpatterns = [path("write/", _write_in_two_steps), path("roll-back/", _write_and_roll_back)]


@pytest.fixture(params=["as it is", "with an event loop marked running"])
def test_thread(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test's thread as it is, and with an event loop marked as running in it, as Playwright's sync
    API leaves it between its calls from a process's first browser test on (asgiref then keeps this
    thread's connections elsewhere: ``tests/support/live_server``). After a browser test both are so."""
    if request.param == "as it is" or asyncio._get_running_loop() is not None:
        yield
        return
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # as tests/e2e/conftest.py does
    loop = asyncio.new_event_loop()
    asyncio._set_running_loop(loop)
    try:
        yield
    finally:
        for connection in connections.all(initialized_only=True):
            connection.close()  # one of the loop's own on PostgreSQL; the shared one stays open
        asyncio._set_running_loop(None)
        loop.close()


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return int(answer.status)


def test_overlapping_requests_that_write_all_succeed(live_server: Any) -> None:
    with ThreadPoolExecutor(THREADS) as pool:
        statuses = list(pool.map(_get, [f"{live_server.url}/write/?n={n}" for n in range(REQUESTS)]))

    assert statuses == [200] * REQUESTS
    assert Group.objects.filter(name__endswith=" done").count() == REQUESTS


def test_the_tests_own_transactions_take_turns_with_requests(live_server: Any, test_thread: None) -> None:
    """The test's thread writes through the connection it shares with the server while pages ask."""
    with ThreadPoolExecutor(THREADS) as pool:
        asked = pool.map(_get, [f"{live_server.url}/write/?n={n}" for n in range(REQUESTS)])
        for n in range(REQUESTS):
            with transaction.atomic():
                group = Group.objects.create(name=f"test {n}")
                time.sleep(0.002)
                group.name += " done"
                group.save(update_fields=["name"])
        statuses = list(asked)

    assert statuses == [200] * REQUESTS
    assert Group.objects.filter(name__endswith=" done").count() == 2 * REQUESTS


def test_the_tests_plain_writes_never_land_in_a_requests_transaction(
    live_server: Any, test_thread: None
) -> None:
    """Writes outside ``atomic`` from the test's thread wait for the request's transaction to end, so
    its rollback does not undo them."""
    with ThreadPoolExecutor(THREADS) as pool:
        asked = pool.map(_get, [f"{live_server.url}/roll-back/?n={n}" for n in range(REQUESTS)])
        for n in range(REQUESTS):
            group = Group.objects.create(name=f"test {n}")
            time.sleep(0.002)
            Group.objects.filter(pk=group.pk).update(name=f"test {n} done")
        statuses = list(asked)

    assert statuses == [200] * REQUESTS
    assert Group.objects.filter(name__endswith=" done").count() == REQUESTS
    assert not Group.objects.filter(name__startswith="rolled back").exists()
