"""The live server of the browser tests, safe on SQLite's shared in-memory test database.

On SQLite the test database lives in memory, so pytest-django hands the test's one connection to the
live server, and every request thread and the test itself use that same connection. A connection holds
one transaction at a time: two polling pages whose requests overlap met inside one transaction
("cannot start a transaction within a transaction"), and a test's own service call could do the same
to a request. Here one re-entrant lock stands for that connection's transaction: a request holds it
from start to end, and any thread holds it for an outermost ``atomic`` block, for a plain ORM write
(``save()``, ``update()``, a fast ``delete()``: Django's ``mark_for_rollback_on_error``) and for any
other statement; others wait their turn, as they wait for SQLite's write lock with a database of their
own. So a plain write of the test's never lands inside a request's transaction (where the request's
rollback would undo it, or its error mark the request's transaction as failed). One gap is left: the
rows of a plain read are fetched after its statement's turn, so a read that returns many rows may see a
request's writes before they commit (only a read inside ``atomic`` is sure not to).

The test's thread must use the very connection the server shares, and Django's ``connections`` does
not promise that by itself: it is asgiref's thread-critical ``Local``, which keeps a thread's
connections in a context variable instead of the thread-local storage while an event loop is marked as
running in that thread, and Playwright's sync API marks its loop as running in the test's thread
between its calls, from the session's first browser test on. A test that ran after a browser test in
the same pytest-xdist worker thus opened a second connection to the in-memory database, outside the
lock, and met a request's transaction as "database table is locked". While the server runs, the test's
thread therefore gets the shared connection from ``connections`` whatever storage asgiref picks.

On PostgreSQL (or an SQLite file) nothing is shared and nothing changes: the lock is never taken.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

#: The transaction of the one shared connection: who holds it may begin, use and end a transaction.
SHARED_CONNECTION = threading.RLock()
#: Long enough for any request or service of the tests; a hang then fails with a message instead.
WAIT_SECONDS = 120.0

_held = threading.local()


def connection_is_shared(using: str | None = None) -> bool:
    """Whether the database connection ``using`` is the in-memory SQLite one the live server shares."""
    from django.db import DEFAULT_DB_ALIAS, connections

    connection = connections[using or DEFAULT_DB_ALIAS]
    return connection.vendor == "sqlite" and connection.is_in_memory_db() and connection.allow_thread_sharing


def take_shared_connection() -> None:
    """Wait for the shared connection's transaction to be free, and hold it (re-entrant)."""
    if not SHARED_CONNECTION.acquire(timeout=WAIT_SECONDS):
        raise RuntimeError(f"the shared test database stayed busy for {WAIT_SECONDS:.0f} s")


@contextmanager
def _in_turn(using: str | None) -> Iterator[None]:
    """Hold the shared connection meanwhile, if ``using`` is the shared one."""
    took = connection_is_shared(using)
    if took:
        take_shared_connection()
    try:
        yield
    finally:
        if took:
            SHARED_CONNECTION.release()


def _the_test_thread_uses(shared: dict[str, Any]) -> Callable[[], None]:
    """Make ``connections[alias]`` in this thread (the test's) the ``shared`` connection of that alias
    whether or not an event loop is marked as running here; return the undoing."""
    from django.db import connections
    from django.db.utils import ConnectionHandler

    getitem = ConnectionHandler.__getitem__
    test_thread = threading.get_ident()

    def __getitem__(self: ConnectionHandler, alias: str) -> Any:
        if alias in shared and self is connections and threading.get_ident() == test_thread:
            return shared[alias]
        return getitem(self, alias)

    ConnectionHandler.__getitem__ = __getitem__  # type: ignore[method-assign]

    def undo() -> None:
        ConnectionHandler.__getitem__ = getitem  # type: ignore[method-assign]

    return undo


def _atomic_in_turn() -> Callable[[], None]:
    """Make every ``atomic`` block on the shared connection hold the lock; return the undoing."""
    from django.db.transaction import Atomic

    enter, exit_ = Atomic.__enter__, Atomic.__exit__

    def __enter__(self: Atomic) -> None:
        took = connection_is_shared(self.using)
        if took:
            take_shared_connection()
        _held.stack = [*getattr(_held, "stack", []), took]
        try:
            enter(self)
        except BaseException:
            _held.stack.pop()
            if took:
                SHARED_CONNECTION.release()
            raise

    def __exit__(self: Atomic, *exc_info: Any) -> None:
        try:
            exit_(self, *exc_info)
        finally:
            if _held.stack.pop():
                SHARED_CONNECTION.release()

    Atomic.__enter__ = __enter__  # type: ignore[method-assign]
    Atomic.__exit__ = __exit__  # type: ignore[method-assign,assignment]

    def undo() -> None:
        Atomic.__enter__ = enter  # type: ignore[method-assign]
        Atomic.__exit__ = exit_  # type: ignore[method-assign]

    return undo


def _plain_writes_in_turn(shared: dict[str, Any]) -> Callable[[], None]:
    """Make every statement on the ``shared`` connections hold the lock, and an ORM write outside
    ``atomic`` hold it throughout (Django wraps it in ``mark_for_rollback_on_error``: its statement, then
    the check whether its error fails the ``atomic`` block under way); return the undoing."""
    from django.db import transaction

    mark = transaction.mark_for_rollback_on_error

    @contextmanager
    def mark_for_rollback_on_error(using: str | None = None) -> Iterator[None]:
        with _in_turn(using), mark(using):
            yield

    def statement_in_turn(
        execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        take_shared_connection()
        try:
            return execute(sql, params, many, context)
        finally:
            SHARED_CONNECTION.release()

    transaction.mark_for_rollback_on_error = mark_for_rollback_on_error
    for connection in shared.values():
        connection.execute_wrappers.insert(0, statement_in_turn)  # the outermost wrapper

    def undo() -> None:
        transaction.mark_for_rollback_on_error = mark
        for connection in shared.values():
            connection.execute_wrappers.remove(statement_in_turn)

    return undo


def one_request_at_a_time(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """The WSGI ``app``, answering while it holds the shared connection (the body is built by then:
    the site streams nothing from the database)."""

    def answer(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not connection_is_shared():
            return app(environ, start_response)
        take_shared_connection()
        try:
            return app(environ, start_response)
        finally:
            SHARED_CONNECTION.release()

    return answer


@pytest.fixture(scope="session")
def live_server(request: pytest.FixtureRequest, django_db_setup: None) -> Iterator[Any]:
    """pytest-django's live server (same address option), its requests taking turns on a shared
    SQLite connection; the same as pytest-django's own on PostgreSQL.

    It starts after the test database exists (pytest-django's own may start first, as a session
    fixture, and then sees the settings' file name instead of the in-memory test database: its
    request threads then opened connections of their own to the shared in-memory database, where a
    table a transaction writes is locked for the others at once, without waiting)."""
    from pytest_django.live_server_helper import LiveServer

    option = request.config.getvalue("liveserver")
    addr = option or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS") or "localhost"
    server = LiveServer(addr, start=False)
    thread = server.thread
    create_server = thread._create_server

    def _create_server(**kwargs: Any) -> Any:
        httpd = create_server(**kwargs)
        set_app = httpd.set_app
        httpd.set_app = lambda app: set_app(one_request_at_a_time(app))
        return httpd

    thread._create_server = _create_server  # type: ignore[method-assign]
    shared = dict(thread.connections_override or {})
    undoings = (
        [_the_test_thread_uses(shared), _atomic_in_turn(), _plain_writes_in_turn(shared)] if shared else []
    )
    server.start()
    yield server
    server.stop()
    for undo in reversed(undoings):
        undo()
