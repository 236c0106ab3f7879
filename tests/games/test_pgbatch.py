"""A batch goes to PostgreSQL as one message, with the transaction's BEGIN when it still needs one, and
comes back as each statement alone would have answered (``apps.games.pgbatch``, ``sql.batch``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from psycopg import pq

from apps.games import sql
from tests.conftest import requires_postgres

pytestmark = [requires_postgres, pytest.mark.django_db]


def _batch(*statements: tuple[str, list[Any]]) -> list[sql.Statement]:
    made = [sql.Statement(text, params) for text, params in statements]
    sql.batch(made)
    return made


@pytest.fixture
def scratch() -> None:
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE scratch (id int PRIMARY KEY, label text)")


def test_statements_run_in_order_each_with_its_rows_and_row_count(scratch: None) -> None:
    inserted, updated, read = _batch(
        ("INSERT INTO scratch (id, label) VALUES (%s, %s), (%s, %s) RETURNING id", [1, "a", 2, "b"]),
        ("UPDATE scratch SET label = %s WHERE id > %s", ["c", 0]),
        ("SELECT id, label FROM scratch ORDER BY id", []),
    )

    assert sorted(inserted.rows) == [(1,), (2,)] and inserted.rowcount == 2
    assert updated.rows == [] and updated.rowcount == 2
    assert read.rows == [(1, "c"), (2, "c")]  # the SELECT sees the writes before it


def test_a_literal_percent_and_a_binary_array_pass_as_psycopg_would_pass_them() -> None:
    text, array = _batch(("SELECT 'a%%b' || %s", ["c"]), ("SELECT cardinality(%b::int[])", [[1, 2, 3]]))

    assert text.rows == [("a%bc",)] and array.rows == [(3,)]


@pytest.mark.django_db(transaction=True)
def test_the_batch_that_opens_a_transaction_sends_its_begin_with_it() -> None:
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS scratch_tx (id int PRIMARY KEY)")
    try:
        with transaction.atomic():
            assert connection.connection.pgconn.transaction_status == pq.TransactionStatus.IDLE
            _batch(("INSERT INTO scratch_tx (id) VALUES (%s)", [1]), ("SELECT count(*) FROM scratch_tx", []))
            assert connection.connection.pgconn.transaction_status == pq.TransactionStatus.INTRANS
            transaction.set_rollback(True)
        (remaining,) = _batch(("SELECT count(*) FROM scratch_tx", []), ("SELECT 1", []))[:1]
        assert remaining.rows == [(0,)]  # the insert was inside the transaction rolled back
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE scratch_tx")


@pytest.mark.django_db(transaction=True)
def test_a_statement_run_often_is_prepared_and_a_rollback_forgets_it_on_both_sides() -> None:
    def run() -> int:
        got, _ = _batch(("SELECT %s::int + 40", [2]), ("SELECT 1", []))
        return int(got.rows[0][0])

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return [row[0] for row in cursor.fetchall()]

    connection.ensure_connection()
    threshold = connection.connection.prepare_threshold
    assert threshold, "the settings prepare statements on PostgreSQL"
    with transaction.atomic():
        for _ in range(threshold + 1):
            assert run() == 42
        assert "SELECT $1::int + 40" in prepared()
        transaction.set_rollback(True)

    assert "SELECT $1::int + 40" not in prepared()  # psycopg's DEALLOCATE ALL after a rollback
    assert run() == 42  # so the name is not used again


def test_an_error_raises_djangos_exception_and_nothing_of_the_batch_is_left(scratch: None) -> None:
    _batch(("INSERT INTO scratch (id, label) VALUES (%s, %s)", [1, "a"]), ("SELECT 1", []))

    with pytest.raises(IntegrityError), transaction.atomic():
        _batch(
            ("INSERT INTO scratch (id, label) VALUES (%s, %s)", [2, "b"]),
            ("INSERT INTO scratch (id, label) VALUES (%s, %s)", [1, "again"]),  # a duplicate key
            ("INSERT INTO scratch (id, label) VALUES (%s, %s)", [3, "c"]),
        )

    (rows,) = _batch(("SELECT id, label FROM scratch ORDER BY id", []), ("SELECT 1", []))[:1]
    assert rows.rows == [(1, "a")]


def test_a_value_psycopg_cannot_send_refuses_the_batch_before_any_statement_runs(scratch: None) -> None:
    with pytest.raises(Exception, match="cannot adapt"):
        _batch(
            ("INSERT INTO scratch (id, label) VALUES (%s, %s)", [1, "a"]),
            ("INSERT INTO scratch (id, label) VALUES (%s, %s)", [2, object()]),
        )

    (rows,) = _batch(("SELECT count(*) FROM scratch", []), ("SELECT 1", []))[:1]
    assert rows.rows == [(0,)]


def test_a_lone_statement_skips_djangos_cursor_unless_queries_are_logged(
    scratch: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:  # logged: through the cursor, to be seen
        (logged,) = _batch(("INSERT INTO scratch (id, label) VALUES (%s, %s) RETURNING id", [1, "a"]))
    assert logged.rows == [(1,)] and [q["sql"] for q in captured.captured_queries][-1].startswith("INSERT")

    def no_cursor(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a lone statement went through Django's cursor")

    monkeypatch.setattr(connection, "cursor", no_cursor)
    (inserted,) = _batch(("INSERT INTO scratch (id, label) VALUES (%s, %s) RETURNING id", [2, "b"]))
    (read,) = _batch(("SELECT id, label FROM scratch WHERE id > %s ORDER BY id", [0]))
    assert sql.fetch("SELECT label FROM scratch WHERE id = %s", [2]) == [("b",)]

    assert inserted.rows == [(2,)] and inserted.rowcount == 1
    assert read.rows == [(1, "a"), (2, "b")] and read.rowcount == 2


def test_a_statement_after_an_error_in_the_atomic_block_is_refused_as_djangos_cursor_refuses_it(
    scratch: None,
) -> None:
    from django.db.transaction import TransactionManagementError

    with transaction.atomic():
        with pytest.raises(IntegrityError), transaction.atomic(savepoint=False):  # marks the block broken
            _batch(("INSERT INTO scratch (id, label) VALUES (%s, %s), (%s, %s)", [1, "a", 1, "b"]))
        with pytest.raises(TransactionManagementError):
            _batch(("SELECT 1", []))
