"""Timestamps read from PostgreSQL at C speed.

Django registers on every psycopg connection a ``timestamptz`` loader of its own, a Python subclass of
psycopg's loader that replaces each value's time zone with the database connection's (Django's
``BaseTzLoader``). Being a subclass written in Python, it is not swapped for psycopg's C loader, so
every timestamp of every row is parsed in Python: on a move's reads (the game, its seats with their
people, the decision rows, the API token) that came to about a fifth of the lock's CPU.

When the session's time zone is UTC (``USE_TZ`` with ``TIME_ZONE = "UTC"``, which Django makes the
connection's), psycopg's own loader already returns values in ``datetime.timezone.utc``, exactly what
Django's would: ``use_c_loader`` then registers that C loader on the connection, wrapped in a loader
that hands psycopg the C loader's own ``load`` and carries the ``timezone`` attribute Django's cursors
compare with (so they do not register theirs again). For any other time zone Django's loader stays.
"""

from __future__ import annotations

from datetime import UTC
from functools import cache
from typing import Any

import psycopg
from psycopg.adapt import Loader
from psycopg.pq import Format


class UtcTimestamptzLoader(Loader):
    """psycopg's own ``timestamptz`` text loader (its C implementation where psycopg has one, which
    cannot be subclassed), with the ``timezone`` attribute Django's cursors read."""

    timezone = UTC

    def __init__(self, oid: int, context: Any = None) -> None:
        # psycopg makes a loader per timestamp column of every result: this one only keeps the C
        # loader's own bound ``load`` (psycopg calls ``loader.load``: no Python frame around it)
        self.oid = oid
        self.connection = context.connection if context else None
        self.load = _psycopg_loader()(oid, context).load  # type: ignore[method-assign]

    def load(self, data: Any) -> Any:  # replaced in ``__init__``
        raise NotImplementedError


@cache
def _psycopg_loader() -> type[Any]:
    """The loader psycopg itself registers for ``timestamptz`` text (the C one where there is one)."""
    loader = psycopg.adapters.get_loader(psycopg.adapters.types["timestamptz"].oid, Format.TEXT)
    assert loader is not None
    return loader


def use_c_loader(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created`` receiver: psycopg's loader for a PostgreSQL connection whose session
    time zone is UTC and whose Django time zone is UTC too."""
    if connection.vendor != "postgresql" or connection.timezone is not UTC:
        return
    raw = connection.connection
    if raw.info.parameter_status("TimeZone") != "UTC":
        return
    raw.adapters.register_loader("timestamptz", UtcTimestamptzLoader)
