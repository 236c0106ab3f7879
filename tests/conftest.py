"""Fixtures shared by the database tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from baogame.rules import registry
from tests.support.live_server import live_server  # noqa: F401  (pytest-django's, taking turns on SQLite)


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """Hash test passwords with MD5 everywhere: Django's PBKDF2 takes ~0.3 s a user, and the ``users``
    fixture alone creates six per test (what is tested is who may do what, not the hash)."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True, scope="session")
def flush_outlasts_a_worker_deadlock() -> Iterator[None]:
    """A real worker (``tests/support/celery_worker``, one per test module) may still be writing when a
    transactional test's teardown empties every table; PostgreSQL then ends one of the two as a
    deadlock, sometimes the flush (seen once in a run of the worker tests). The flush is one
    transaction, rolled back whole: it is tried again, a few times, instead of failing the test."""
    from django.db import OperationalError
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.execute_sql_flush

    def execute_sql_flush(self: DatabaseOperations, sql_list: list[str]) -> None:
        for attempt in range(5):
            try:
                original(self, sql_list)
                return
            except OperationalError as exc:
                if getattr(exc.__cause__, "sqlstate", None) != DEADLOCK or attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    DatabaseOperations.execute_sql_flush = execute_sql_flush  # type: ignore[method-assign]
    yield
    DatabaseOperations.execute_sql_flush = original  # type: ignore[method-assign]


#: PostgreSQL's SQLSTATE for "deadlock detected".
DEADLOCK = "40P01"


@pytest.fixture(autouse=True)
def english_between_tests() -> Iterator[None]:
    """Every test starts in the site's default language: a request in another language (a page asked
    for in Chinese) leaves that language active in the thread, as a request does."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def empty_cache_between_tests() -> None:
    """Every test starts with an empty per-process cache: allauth's rate limits (one confirmation mail
    per address in three minutes) and the API's write limits live there, and a test that ran earlier in
    the same process must not have spent them for this one (a sign-up's mail went unsent so)."""
    from django.core.cache import caches

    caches["default"].clear()


@pytest.fixture
def toy_engine() -> Iterator[str]:
    """Register the test-only "toy" engine (tests/support/toy) for service tests."""
    registry.ENGINES["toy"] = "tests.support.toy"
    yield "toy"
    registry.ENGINES.pop("toy", None)
    registry._engines.pop("toy", None)


@pytest.fixture
def make_user() -> Callable[..., Any]:
    from tests.factories import UserFactory

    return UserFactory


@pytest.fixture
def users(db: None) -> list[Any]:
    from tests.factories import UserFactory

    return [UserFactory() for _ in range(6)]


def on_postgres() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


requires_postgres = pytest.mark.skipif(
    "not __import__('tests.conftest').conftest.on_postgres()",
    reason="needs PostgreSQL row locks (set DATABASE_URL)",
)


#: Markers of the tests that take seconds to minutes each (browsers, real workers, subprocesses).
LONG_MARKERS = ("chaos", "e2e", "celery", "slow", "embedded")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Long tests first: under pytest-xdist a worker that runs out of tests steals the others' queued
    ones, which evens out short tests, but a long test left for the end runs alone while the other
    workers wait (the embedded bots' test, last of the suite, ran 30 to 45 s by itself). The sort is
    stable and by module, so a module's tests stay together and in order; pytest-django's own sort,
    which runs after this one (database tests, then transactional ones, then the rest), keeps this
    order within each of its groups."""
    long_modules = {item.module for item in items if any(item.get_closest_marker(m) for m in LONG_MARKERS)}
    items.sort(key=lambda item: item.module not in long_modules)
