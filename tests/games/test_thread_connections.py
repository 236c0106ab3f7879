"""Django's connections are found per thread, and per context in a thread running an event loop, as
asgiref's thread-critical ``Local`` keeps them (``apps.games.threadconnections``; DESIGN.md, one
transaction per move: a thread's connection is its own)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from django.db import connections

from apps.games.threadconnections import ThreadConnections, install


def test_connections_keep_their_store_in_thread_connections() -> None:
    assert type(connections._connections) is ThreadConnections
    install()  # a second time changes nothing
    assert type(connections._connections) is ThreadConnections


def test_each_thread_has_its_own_connection() -> None:
    here = connections["default"]
    found: list[Any] = []

    def other() -> None:
        found.append(connections["default"])
        found.append(connections["default"])
        connections["default"].close()

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert found[0] is found[1]
    assert found[0] is not here
    assert connections["default"] is here


def test_a_thread_running_an_event_loop_keeps_a_store_per_context() -> None:
    """In a thread of its own: the test's thread may be handed a live server's shared connection."""
    found: dict[str, Any] = {}

    async def lookup() -> Any:
        return connections["default"]

    async def main() -> None:
        found["child"] = await asyncio.create_task(lookup())  # its own context, copied before any lookup
        found["first"] = connections["default"]
        found["again"] = connections["default"]

    def thread() -> None:
        found["here"] = connections["default"]
        asyncio.run(main())
        found["after"] = connections["default"]

    runner = threading.Thread(target=thread)
    runner.start()
    runner.join()
    assert found["first"] is found["again"]  # one context: one connection
    assert found["first"] is not found["here"]  # not the sync thread's
    assert found["child"] is not found["first"]  # another context: another connection
    assert found["after"] is found["here"]  # the loop ended: the thread's own again


def test_a_connection_set_and_deleted_is_this_threads_alone() -> None:
    store = ThreadConnections()
    store.alias = "here"
    assert store.alias == "here"
    seen: list[bool] = []
    thread = threading.Thread(target=lambda: seen.append(hasattr(store, "alias")))
    thread.start()
    thread.join()
    assert seen == [False]
    del store.alias
    assert not hasattr(store, "alias")
    with pytest.raises(AttributeError):
        store.alias  # noqa: B018
