"""Timestamps read through psycopg's C loader on a UTC PostgreSQL session (``apps.games.dbtime``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg.pq import Format

from apps.games import dbtime
from tests.conftest import requires_postgres

pytestmark = [pytest.mark.django_db, requires_postgres]

_VALUES = [
    "2026-12-05 11:55:14.535472+00",
    "2026-01-02 03:04:05.123456+05:30",
    "1999-12-31 23:59:59-08",
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00",
    "2026-03-29 01:30:00+01",
]


def _select(values: list[str]) -> tuple[object, ...]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(["%s::timestamptz"] * len(values)), values)
        row = cursor.fetchone()
    assert row is not None
    return tuple(row)


def test_a_utc_connection_reads_timestamptz_with_psycopgs_loader() -> None:
    connection.ensure_connection()
    loader = connection.connection.adapters.get_loader(1184, Format.TEXT)
    assert loader is dbtime.UtcTimestamptzLoader


def test_the_values_are_those_djangos_loader_gives() -> None:
    """Same instants, same ``tzinfo`` (``datetime.timezone.utc``), NULL as None."""
    fast = _select(_VALUES)
    connection.connection.adapters.register_loader("timestamptz", _DjangoUtcLoader)
    try:
        slow = _select(_VALUES)
    finally:
        connection.connection.adapters.register_loader("timestamptz", dbtime.UtcTimestamptzLoader)
    assert slow[0] == datetime(2026, 12, 5, 11, 55, 14, 535472, tzinfo=UTC)
    assert fast == slow
    assert all(value.tzinfo is UTC for value in fast)  # type: ignore[attr-defined]
    with connection.cursor() as cursor:
        cursor.execute("SELECT NULL::timestamptz")
        assert cursor.fetchone() == (None,)


def test_another_session_time_zone_keeps_djangos_loader() -> None:
    """A session not in UTC: psycopg would answer in that zone, so Django's loader stays."""
    connection.ensure_connection()
    raw = connection.connection
    with connection.cursor() as cursor:
        cursor.execute("SET TIME ZONE 'Asia/Shanghai'")
    try:
        raw.adapters.register_loader("timestamptz", _DjangoUtcLoader)
        dbtime.use_c_loader(sender=None, connection=connection)
        assert raw.adapters.get_loader(1184, Format.TEXT) is _DjangoUtcLoader
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET TIME ZONE 'UTC'")
        dbtime.use_c_loader(sender=None, connection=connection)
    assert raw.adapters.get_loader(1184, Format.TEXT) is dbtime.UtcTimestamptzLoader


class _DjangoUtcLoader(BaseTzLoader):
    timezone = UTC
