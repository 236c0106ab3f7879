"""Django's database connections of this thread, found without two exceptions at each lookup.

``django.db.connections[alias]`` reads the connection from an ``asgiref.local.Local(thread_critical=True)``.
That ``Local`` answers through ``__getattr__``, so every lookup first fails on the object itself (an
``AttributeError`` with its message formatted), then asks ``asyncio.get_running_loop()``, which raises
``RuntimeError`` in a thread without a running loop. A move POST looks connections up some twenty
times (Django's transactions and request signals, the hand SQL): those exceptions were about a fiftieth
of its instructions (``python -m bench.move_instructions --callgrind``).

``ThreadConnections`` keeps the same stores the same way as asgiref 3's thread-critical ``Local``: a
``threading.local`` in a thread without a running event loop; with one, a store per context, in a
context variable made for that thread (``ContextStore``), so async code sees only its own context's
connections (a task sees those of the context it was made in, copied) and nothing leaks between
threads. It answers through ``__getattribute__`` and asks ``asyncio._get_running_loop()`` (exported by
``asyncio`` for event loops), which answers None instead of raising. ``install`` puts one in
``connections`` when the app loads (``GamesConfig.ready``), with this thread's connections already
open. ``tests/games/test_thread_connections.py`` checks both kinds of thread.
"""

from __future__ import annotations

import threading
from asyncio import _get_running_loop
from contextvars import ContextVar
from typing import Any


class ThreadConnections:
    """The store of ``connections``: per thread, and per context in a thread running an event loop."""

    __slots__ = ("_thread",)

    def __init__(self) -> None:
        object.__setattr__(self, "_thread", threading.local())

    def __getattribute__(self, key: str) -> Any:
        return getattr(_storage(self), key)

    def __setattr__(self, key: str, value: Any) -> None:
        setattr(_storage(self), key, value)

    def __delattr__(self, key: str) -> None:
        delattr(_storage(self), key)


class ContextStore:
    """A thread's store per context: a context variable holding a dict, copied on each write, so that a
    write is seen in its own context and in those copied from it afterwards (asgiref's ``_CVar``)."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        object.__setattr__(self, "_values", ContextVar("baogame.connections"))

    def __getattribute__(self, key: str) -> Any:
        try:
            return _values_of(self).get({})[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key: str, value: Any) -> None:
        values = _values_of(self)
        values.set({**values.get({}), key: value})

    def __delattr__(self, key: str) -> None:
        values = _values_of(self)
        found = dict(values.get({}))
        if found.pop(key, values) is values:
            raise AttributeError(key)
        values.set(found)


_values_of = ContextStore._values.__get__  # type: ignore[attr-defined]  # the slot's reader
_thread_of = ThreadConnections._thread.__get__  # type: ignore[attr-defined]  # the slot's reader


def _storage(local: ThreadConnections) -> Any:
    """The store for the caller: the thread's own, or, in a thread running an event loop, its context's."""
    thread = _thread_of(local)
    if _get_running_loop() is None:
        return thread
    contexts = getattr(thread, "_context_store", None)
    if contexts is None:
        thread._context_store = contexts = ContextStore()
    return contexts


def install() -> None:
    """Make ``django.db.connections`` keep its connections in a ``ThreadConnections``, with those this
    thread already opened (other threads have none yet when the app loads)."""
    from django.db import connections

    current = connections._connections  # type: ignore[attr-defined]  # not in the stubs
    if type(current) is ThreadConnections:
        return
    store = ThreadConnections()
    for alias in connections:
        opened = getattr(current, alias, None)
        if opened is not None:
            setattr(store, alias, opened)
    connections._connections = store  # type: ignore[attr-defined]
