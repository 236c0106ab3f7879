"""A batch of statements as one message to PostgreSQL and one answer (``sql.batch``'s transport).

psycopg's pipeline mode sends each statement of a pipeline by itself: one ``send`` system call and
one poll per statement, through Python generators and a result queue, and the transaction's ``BEGIN``
with a round trip of its own (a profile of the move POST under the load test had two thirds of its
samples in ``BasePipeline._communicate_gen``; measured, this module takes about an eighth off a move
POST's CPU, ``docs/benchmarks.md``). Here libpq's pipeline mode is driven directly: the
``BEGIN`` a transaction still needs, every statement (extended protocol, parameters bound by the
server, as Django's ``server_side_binding`` does) and the closing sync are written into libpq's
buffer and sent at once; the results are then read in order.

Prepared statements: a statement run often enough on a connection is prepared on it and from then on
executed by name, so PostgreSQL parses and plans it once per connection. Which ones, and their names,
are psycopg's own prepared-statement manager's (the connection's ``prepare_threshold`` and
``prepared_max``, as for Django's cursors with ``server_side_binding``); it also forgets them all when
it sends ``DEALLOCATE ALL`` (after a rollback). Without ``server_side_binding`` (the settings'
``DB_PREPARED_STATEMENTS=false``, behind a pooler that shares connections) nothing is prepared.

Parameters are dumped with the connection's own adapters (``psycopg.adapt.Transformer``, the same
dumpers and loaders as Django's cursors) and rows loaded with them. An error of any statement raises
the psycopg exception for its result, which ``wrap_database_errors`` turns into Django's (an
``IntegrityError`` for a duplicate key), after the pipeline is read to its end.

psycopg's prepared-statement manager (``Connection._prepared``, ``psycopg._preparing``) is not public
API: ``requirements/base.txt`` pins psycopg, and ``tests/games/test_pgbatch.py`` checks what this
module relies on (names prepared after the threshold, forgotten on both sides after a rollback).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

import psycopg
from psycopg import errors, generators, pq
from psycopg._preparing import Prepare
from psycopg.abc import Transformer as TransformerType
from psycopg.adapt import PyFormat, Transformer

_PLACEHOLDER = re.compile(rb"%(.)")
_FORMATS = {b"s": PyFormat.AUTO, b"b": PyFormat.BINARY, b"t": PyFormat.TEXT}


class Runnable(Protocol):
    """What ``sql.Statement`` gives this module."""

    sql: str
    params: list[Any]
    rows: list[tuple[Any, ...]]
    rowcount: int


@lru_cache(maxsize=4096)
def converted(sql: str) -> tuple[bytes, tuple[PyFormat, ...]]:
    """``sql`` with psycopg's ``%s``/``%b``/``%t`` placeholders numbered for the server (``$1``…), and
    each parameter's wanted format. ``%%`` is a literal ``%``."""
    formats: list[PyFormat] = []

    def number(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        if code == b"%":
            return b"%"
        if code not in _FORMATS:
            raise ValueError(f"unsupported placeholder %{code.decode()} in a batched statement")
        formats.append(_FORMATS[code])
        return b"$%d" % len(formats)

    return _PLACEHOLDER.sub(number, sql.encode()), tuple(formats)


class _Query(NamedTuple):
    """What psycopg's prepared-statement manager keys a statement by."""

    query: bytes
    types: tuple[int, ...]


class _Sent(NamedTuple):
    """One statement sent: how, and what its results go to."""

    statement: Runnable
    query: _Query
    prep: Prepare
    name: bytes
    key: Any  # the manager's key when this run added the statement to its cache


def run(
    raw: psycopg.Connection[Any], statements: Sequence[Runnable], prepare: bool, *, commit: bool = False
) -> None:
    """Run ``statements`` in order on ``raw`` (outside psycopg's own pipeline), one message there and
    one answer back; set each one's ``rows`` and ``rowcount``. Raises the first statement error.

    ``commit``: a ``COMMIT`` of the connection's transaction follows the statements in the same message
    (``sql.batch``'s). It runs only if they all succeeded (PostgreSQL skips the rest of a pipeline after
    an error, and the transaction is then aborted, for the caller to roll back); a COMMIT that fails
    raises too, the transaction then rolled back by the server. Once it succeeded the connection is idle,
    and psycopg's ``commit()`` sends nothing (Django's, when its atomic block ends).

    ``prepare``: statements run often enough are prepared, through psycopg's own manager of the
    connection's prepared statements (``prepare_threshold``, ``prepared_max``, and its ``DEALLOCATE ALL``
    after a rollback, which would otherwise leave names here that the server no longer knows)."""
    pgconn = raw.pgconn
    manager = raw._prepared
    transformer = _transformer(raw)
    # Every parameter dumped before anything is sent: a value psycopg cannot adapt raises here, with
    # nothing of the batch run.
    dumped = [_dumped(statement, transformer) for statement in statements]
    begins = not raw.autocommit and pgconn.transaction_status == pq.TransactionStatus.IDLE
    sent: list[_Sent] = []
    pgconn.enter_pipeline_mode()
    try:
        if begins:
            pgconn.send_query_params(_begin(raw), None)
        for statement, (query, params, param_formats) in zip(statements, dumped, strict=True):
            prep, name = manager.get(query, prepare=None if prepare else False)  # type: ignore[arg-type]
            if prep is Prepare.NO:
                pgconn.send_query_params(
                    query.query, params, param_formats=param_formats, param_types=query.types
                )
            else:
                if prep is Prepare.SHOULD:
                    pgconn.send_prepare(name, query.query, param_types=query.types)
                pgconn.send_query_prepared(name, params, param_formats=param_formats)
            key = manager.maybe_add_to_cache(query, prep, name)  # type: ignore[arg-type]
            sent.append(_Sent(statement, query, prep, name, key))
        if commit:
            pgconn.send_query_params(b"COMMIT", None)
        pgconn.pipeline_sync()
        raw.wait(generators.send(pgconn))
        failure, unloaded = _read(raw, begins, sent, transformer, commit)
    except BaseException:
        # the connection broke mid-way: leave pipeline mode if libpq lets us; the error is the first one
        with contextlib.suppress(psycopg.Error):
            pgconn.exit_pipeline_mode()
        raise
    pgconn.exit_pipeline_mode()
    if manager._to_flush:  # statements evicted from the cache, or all of them after a DROP or the like
        raw.wait(manager.maintain_gen(raw))
    if failure is not None:
        raise errors.error_from_result(failure, encoding=raw.info.encoding)
    if unloaded is not None:
        raise unloaded


def _transformer(raw: psycopg.Connection[Any]) -> TransformerType:
    """The connection's one ``Transformer`` for this module, made on its first batch and kept with it,
    as a psycopg cursor keeps its own across its executions: a new one per batch started its dumper and
    loader caches empty (about a twentieth of a move POST's instructions). It reads the connection's
    adapters, which Django sets when it opens the connection and does not change after (it registers a
    cursor's own time zone loader on the cursor, not the connection)."""
    found: TransformerType | None = getattr(raw, "_baogame_transformer", None)
    if found is None:
        found = Transformer(raw)
        raw._baogame_transformer = found  # type: ignore[attr-defined]
    return found


def _dumped(
    statement: Runnable, transformer: TransformerType
) -> tuple[_Query, Sequence[Any], Sequence[pq.Format] | None]:
    """The statement's text for the server, its parameters dumped, and their formats."""
    text, formats = converted(statement.sql)
    if not formats:
        return _Query(text, ()), [], None
    params = transformer.dump_sequence(statement.params, formats)
    return _Query(text, tuple(transformer.types or ())), params, transformer.formats


def _read(
    raw: psycopg.Connection[Any],
    begins: bool,
    sent: list[_Sent],
    transformer: TransformerType,
    commit: bool = False,
) -> tuple[pq.abc.PGresult | None, Exception | None]:
    """Read the pipeline's results to its sync, always all of them (libpq leaves pipeline mode only
    then): the first statement error's result (the ``COMMIT``'s, with ``commit``), and the first
    exception of loading rows, if any."""
    pgconn = raw.pgconn
    failure: pq.abc.PGresult | None = None
    unloaded: Exception | None = None

    def next_results() -> list[pq.abc.PGresult]:
        nonlocal failure
        results: list[pq.abc.PGresult] = raw.wait(generators.fetch_many(pgconn))
        for result in results:
            if result.status == pq.ExecStatus.FATAL_ERROR and failure is None:
                failure = result
        return results

    if begins:
        next_results()
    for one in sent:
        if one.prep is Prepare.SHOULD:
            parsed = next_results()
            if parsed and parsed[-1].status != pq.ExecStatus.COMMAND_OK:
                results = parsed  # not prepared: its execution is skipped too
                next_results()
            else:
                results = next_results()
        else:
            results = next_results()
        if one.key is not None:
            raw._prepared.validate(one.key, one.prep, one.name, results)
        result = results[-1] if results else None
        if result is not None and result.status in (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK):
            try:
                _take(one.statement, result, transformer)
            except Exception as exc:  # a value no loader reads: raised once the pipeline is read
                unloaded = unloaded or exc
    if commit:
        next_results()
    sync = raw.wait(generators.fetch_many(pgconn))
    if not sync or sync[-1].status != pq.ExecStatus.PIPELINE_SYNC:
        raise psycopg.OperationalError(f"the pipeline ended without its sync: {sync!r}")
    return failure, unloaded


def _take(statement: Runnable, result: pq.abc.PGresult, transformer: TransformerType) -> None:
    """The statement's rows (a SELECT, a write with RETURNING) and its row count."""
    if result.status == pq.ExecStatus.TUPLES_OK:
        transformer.set_pgresult(result)
        statement.rows = transformer.load_rows(0, result.ntuples, tuple)
        statement.rowcount = result.ntuples
    else:
        statement.rows = []
        statement.rowcount = result.command_tuples if result.command_tuples is not None else -1


def _begin(raw: psycopg.Connection[Any]) -> bytes:
    """The ``BEGIN`` psycopg would send for this connection's settings (isolation level and the like)."""
    parts = [b"BEGIN"]
    if raw.isolation_level is not None:
        level = psycopg.IsolationLevel(raw.isolation_level).name.replace("_", " ")
        parts += [b"ISOLATION LEVEL", level.encode()]
    if raw.read_only is not None:
        parts.append(b"READ ONLY" if raw.read_only else b"READ WRITE")
    if raw.deferrable is not None:
        parts.append(b"DEFERRABLE" if raw.deferrable else b"NOT DEFERRABLE")
    return b" ".join(parts)
