"""The real-worker fixture's broker URL: one Redis database per pytest-xdist worker."""

from __future__ import annotations

from tests.support.celery_worker import broker_url_for


def test_without_xdist_the_configured_database_is_used() -> None:
    assert broker_url_for("redis://127.0.0.1:6379/2", None) == "redis://127.0.0.1:6379/2"


def test_each_xdist_worker_adds_its_number_to_the_database() -> None:
    urls = {broker_url_for("redis://:secret@127.0.0.1:6379/2", f"gw{n}") for n in range(3)}

    assert urls == {f"redis://:secret@127.0.0.1:6379/{db}" for db in (2, 3, 4)}


def test_database_numbers_wrap_around_redis_sixteen() -> None:
    assert broker_url_for("redis://127.0.0.1:6379/15", "gw1") == "redis://127.0.0.1:6379/0"
    assert broker_url_for("redis://127.0.0.1:6379", "gw1") == "redis://127.0.0.1:6379/1"
