"""The SQL of the hot path (``settings.GAMES_HAND_SQL``): statements made once, run in one round trip.

The ORM compiles every queryset to SQL on every call and runs each query on its own; for the handful of
reads and writes every move and every API request makes (the game row lock, seats, decision rows, the
move and decision writes, the token) that costs several times what the database does (``manage.py
bench_store``). Here each SELECT is compiled ONCE by Django's own compiler from the very queryset the
ORM path runs (``compile_select``), the writes' INSERT/UPDATE/DELETE are made once per model from its
metadata, and ``batch`` sends a move's statements together (libpq's pipeline mode on PostgreSQL),
its writes fused into one statement (``fuse``), as one message on PostgreSQL (``pgbatch``).
Rows are loaded with the ORM's converters (JSON, datetimes, booleans on SQLite) into instances made
by ``Model.from_db``, so callers cannot tell the difference. Every value is a query parameter.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any, TypeVar

import msgspec
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connections, models
from django.db.models import Model, QuerySet
from django.db.models.base import ModelState
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from django.db.models.sql import UpdateQuery
from django.dispatch import receiver
from django.utils import timezone
from psycopg import pq
from psycopg.types.json import Jsonb

from . import pgbatch

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


#: ``settings.GAMES_HAND_SQL`` and each database alias's vendor, read once (``_forget`` clears them when
#: a test changes the settings): a move asks a dozen times, and a lazy setting or ``connections[alias]``
#: costs several calls each time.
_settings_read: dict[str, Any] = {}


def hand_sql() -> bool:
    """Whether the hot reads and writes take the hand path (``settings.GAMES_HAND_SQL``)."""
    found = _settings_read.get("hand_sql")
    if found is None:
        found = _settings_read["hand_sql"] = bool(settings.GAMES_HAND_SQL)
    return bool(found)


def vendor(using: str = "default") -> str:
    """``connections[using].vendor``, asked once per alias."""
    found = _settings_read.get(using)
    if found is None:
        found = _settings_read[using] = connections[using].vendor
    return str(found)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting in {"GAMES_HAND_SQL", "DATABASES"}:
        _settings_read.clear()


def _column_name(field: Any) -> str:
    """A concrete field's column (django-stubs types it optional; concrete fields always have one)."""
    name = field.column
    assert name is not None
    return str(name)


@cache
def _fields(
    model: type[Model], using: str
) -> tuple[tuple[str, ...], tuple[str, ...], int, tuple[tuple[int, Any, tuple[Converter, ...]], ...]]:
    """(column names, attribute names, primary key index, converters by index) of ``model``."""
    connection = connections[using]
    columns, attnames, converters = [], [], []
    pk_index = 0
    for index, field in enumerate(model._meta.concrete_fields):
        columns.append(_column_name(field))
        attnames.append(field.attname)
        if field.primary_key:
            pk_index = index
        expression = field.get_col(model._meta.db_table)
        found = (*connection.ops.get_db_converters(expression), *field.get_db_converters(connection))
        if _plain_json(field):  # a game's state, a move's events: decoded by msgspec
            found = (*connection.ops.get_db_converters(expression), _json_from_db)
        if found:
            converters.append((index, expression, found))
    return tuple(columns), tuple(attnames), pk_index, tuple(converters)


# --- JSON columns: msgspec, where it gives what the standard library gives ---------------------------------
#
# A move reads its game's state and writes it back with the move's action and events: JSON decoded and
# encoded on every move and every /legal read. msgspec decodes about twice and encodes about eight
# times as fast as ``json`` (a Bao Bei state: 10 and 1.6 µs against 19 and 14), and like ``json`` it
# keeps integers of any size (Bao Bei's ``known`` masks pass 64 bits; orjson would turn them into
# floats, so it does not fit). It is used for the JSON columns without an encoder or decoder of their
# own, and whatever it refuses goes the ORM's way (``json``).

_decode = msgspec.json.Decoder().decode
_encode = msgspec.json.Encoder().encode


def _plain_json(field: Any) -> bool:
    """A JSON column that the ORM decodes and encodes with the standard library's defaults."""
    return isinstance(field, models.JSONField) and field.encoder is None and field.decoder is None


def _json_from_db(value: Any, expression: Any, connection: Any) -> Any:
    """``JSONField.from_db_value``, decoding with msgspec (``json`` for what msgspec refuses, such as
    NaN; text that is not JSON at all is returned as it is, as the ORM does)."""
    if not isinstance(value, (str, bytes)):
        return value
    try:
        return _decode(value)
    except msgspec.DecodeError:
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value


def _json_to_db(field: Any, value: Any, using: str) -> Any:
    """``JSONField.get_db_prep_save`` for an object or array, encoded with msgspec; anything else
    (None, a scalar, an expression) and anything msgspec refuses is the ORM's to encode."""
    if type(value) is dict or type(value) is list:
        try:
            encoded = _encode(value)
        except (TypeError, ValueError, msgspec.EncodeError):
            pass
        else:
            if vendor(using) == "postgresql":
                return Jsonb(value, dumps=lambda _: encoded)
            return encoded.decode()
    return field.get_db_prep_save(value, connections[using])


def width(model: type[Model], using: str = "default") -> int:
    """How many columns ``select_list`` gives for ``model``."""
    return len(_fields(model, using)[0])


def load(model: type[M], row: Sequence[Any], start: int = 0, using: str = "default") -> M | None:
    """The instance in ``row[start:start + width]`` (None when its primary key is NULL: a missed join)."""
    columns, attnames, pk_index, converters = _fields(model, using)
    values = list(row[start : start + len(columns)])
    if values[pk_index] is None:
        return None
    if converters:
        connection = connections[using]
        for index, expression, funcs in converters:
            value = values[index]
            for func in funcs:
                value = func(value, expression, connection)
            values[index] = value
    if _plain_init(model):
        return _instance(model, attnames, values, using)
    return model.from_db(using, list(attnames), values)


@cache
def _plain_init(model: type[Model]) -> bool:
    """Whether ``Model.from_db`` would do no more for ``model`` than ``_instance`` does: the model keeps
    Django's own ``__init__`` and ``from_db``, and no receiver listens to its ``pre_init``/``post_init``
    (an ``ImageField`` would, for one), and each column's attribute is Django's plain field descriptor
    (a foreign key's clears a cached object on assignment, which a new instance has not). Asked once per
    model: receivers connect at start-up."""
    return (
        model.__init__ is Model.__init__
        and model.from_db.__func__ is Model.from_db.__func__  # type: ignore[attr-defined]
        and not pre_init.has_listeners(model)
        and not post_init.has_listeners(model)
        and all(isinstance(vars(model).get(f.attname), DeferredAttribute) for f in _concrete(model))
    )


def _concrete(model: type[Model]) -> Sequence[Any]:
    return model._meta.concrete_fields


def _instance(model: type[M], attnames: Sequence[str], values: list[Any], using: str) -> M:
    """The instance ``model.from_db(using, attnames, values)`` makes, for a model with every column
    loaded and a plain ``__init__`` (``_plain_init``), made without running ``__init__``: Django's
    ``__init__`` stores each positional value in the instance's ``__dict__`` under its attname (no
    field of these models has a data descriptor that would do more for a new instance) and sends the
    init signals, which nothing receives. A move's reads make thousands of instances a second
    (``bench_deadlines``); this costs a fraction of ``__init__``."""
    instance = model.__new__(model)
    instance.__dict__.update(zip(attnames, values, strict=True))
    state = ModelState()
    state.adding, state.db = False, using
    instance._state = state
    return instance


def new(model: type[M], **values: Any) -> M:
    """``model(**values)``, each value given by its attname (``game_id``, not ``game``: ``relate`` caches
    a related object), made without running ``__init__`` for a model with a plain one (``_plain_init``):
    the fields not given take their defaults, as ``__init__`` gives them, and the instance is to be
    added. A move makes a few (its row, its new decisions, its outbox rows); ``__init__``, with its
    loop over every field, its checks and its signals, cost several times this."""
    if not _plain_init(model):
        return model(**values)
    instance = model.__new__(model)
    fields = instance.__dict__
    for attname, field in _fields_to_set(model):
        fields[attname] = values.pop(attname) if attname in values else field.get_default()
    if values:
        raise TypeError(f"{model.__name__} has no field {sorted(values)[0]!r}")
    instance._state = ModelState()
    return instance


@cache
def _fields_to_set(model: type[Model]) -> tuple[tuple[str, Any], ...]:
    return tuple((str(f.attname), f) for f in _concrete(model))


def relate(instance: Model, name: str, value: Model | None) -> None:
    """``instance.<name> = value`` for two rows read together, ``instance``'s key column already holding
    ``value``'s key (a seat and its game, a seat and its user, a user and its profile): what the
    relation's descriptor leaves (the related object cached on ``instance``, and on ``value`` for a
    one-to-one), without its checks, which such a pair always passes (the database routers', the
    object's type, the key it copies). ``name`` is a forward relation or a one-to-one's reverse side.
    None, as the descriptors take it for a new instance: cached on a forward relation (its key column is
    NULL), nothing on a reverse one (a missed join: asking for it reads again)."""
    here, there = _relation_caches(type(instance), name)
    if value is None:
        if here.concrete:
            here.set_cached_value(instance, None)
        return
    here.set_cached_value(instance, value)
    if there is not None:
        there.set_cached_value(value, instance)


@cache
def _relation_caches(model: type[Model], name: str) -> tuple[Any, Any]:
    """The relation ``name`` of ``model`` as the two sides whose caches ``relate`` sets: ``model``'s, and
    the related model's for a one-to-one (None for a foreign key: its reverse side is a manager)."""
    field: Any = model._meta.get_field(name)
    if field.concrete:  # a forward foreign key or one-to-one
        return field, (field.remote_field if field.one_to_one else None)
    if field.one_to_one:  # the reverse side of a one-to-one (user.profile)
        return field, field.field
    raise ValueError(f"{model.__name__}.{name} is neither a forward relation nor a one-to-one's reverse")


@dataclass(frozen=True)
class Select:
    """A SELECT compiled once from a queryset, to run again with other values (``compile_select``)."""

    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, str], ...]  #: (index in ``params``, name of the value that goes there)
    models: dict[str, tuple[type[Model], int]]  #: path ("", "user", "user__profile") -> (model, first column)
    annotations: dict[str, int]  #: annotation name -> column
    shape: Shape | None = None  #: an UPDATE's (``compile_update``): "update_where" and its table
    columns: int = 0  #: how many columns a row has (``compile_select``)

    def statement(self, using: str = "default", **values: Any) -> Statement:
        """The statement with these values in the slots of the markers they are named after."""
        params = list(self.params)
        for index, name in self.slots:
            params[index] = _prepared(values[name], using)
        return Statement(self.sql, params, shape=self.shape)

    def load(self, row: Sequence[Any], path: str = "", using: str = "default") -> Model | None:
        """The instance of ``path`` (the queryset's model, or a ``select_related`` path) in ``row``."""
        model, start = self.models[path]
        return load(model, row, start, using)

    def found(self, row: Sequence[Any], using: str = "default") -> bool:
        """Whether ``row`` holds a row of the queryset's model (its primary key is not NULL: a row of
        ``alongside``'s SELECT may hold none)."""
        model, start = self.models[""]
        return row[start + _fields(model, using)[2]] is not None

    def value(self, row: Sequence[Any], annotation: str) -> Any:
        """The value of an annotation in ``row`` (as the database returns it: no converters)."""
        return row[self.annotations[annotation]]


def _prepared(value: Any, using: str) -> Any:
    """A value as a query parameter, as the compiler prepares it (datetimes differ by database)."""
    if isinstance(value, datetime):
        return connections[using].ops.adapt_datetimefield_value(value)
    return value


def compile_select(queryset: QuerySet[Any], using: str = "default", **markers: Any) -> Select:
    """Compile ``queryset`` once, by Django's own compiler, into a ``Select`` to run again and again.

    The queryset is built with a distinct marker value for each value that changes from call to call
    (``game_id=-7301``); every query parameter equal to a marker becomes a slot that
    ``Select.statement(game_id=...)`` fills. Columns are located by the compiler's own layout, so rows
    load into the instances (``select_related`` included) that the queryset itself would give.
    """
    compiler = queryset.query.get_compiler(using=using)
    sql, compiled = compiler.as_sql()
    params = tuple(compiled)
    prepared = {name: _prepared(m, using) for name, m in markers.items()}
    slots = tuple((i, name) for i, p in enumerate(params) for name, m in prepared.items() if p == m)
    missing = set(markers) - {name for _, name in slots}
    if missing or len({i for i, _ in slots}) != len(slots):
        raise ValueError(f"markers not found once each in the compiled query: {sorted(missing)}")
    models: dict[str, tuple[type[Model], int]] = {}

    def walk(info: dict[str, Any], path: str) -> None:
        model, fields = info["model"], info["select_fields"]
        if fields != list(range(fields[0], fields[0] + width(model, using))):
            raise ValueError(f"{model.__name__} is not loaded with all its columns in order")
        models[path] = (model, fields[0])
        for related in info.get("related_klass_infos", ()):
            field = related["field"]
            name = field.related_query_name() if related["reverse"] else field.name
            walk(related, f"{path}__{name}" if path else name)

    if compiler.klass_info is not None and not queryset.query.values_select:  # values(): no instances
        walk(compiler.klass_info, "")
    return Select(
        sql, params, slots, models, dict(compiler.annotation_col_map or {}), None, len(compiler.select)
    )


def alongside(first: Select, second: Select) -> str:
    """One SELECT that answers ``first`` and ``second`` (each of at most one row) in one row: the
    columns of ``first``'s row, then ``second``'s, each all NULL where its SELECT found none. Its
    parameters are ``first``'s, then ``second``'s. For two reads that would otherwise be two statements
    of a round trip (``Select.found`` tells whether each part holds a row)."""
    return (
        f"SELECT a.*, b.* FROM (SELECT 1) AS one LEFT JOIN ({first.sql}) AS a ON 1 = 1 "
        f"LEFT JOIN ({second.sql}) AS b ON 1 = 1"
    )


def compile_update(
    queryset: QuerySet[Any], values: dict[str, Any], using: str = "default", **markers: Any
) -> Select:
    """``queryset.update(**values)`` compiled ONCE by Django's own compiler, to run again with other
    marker values (``Select.statement``), as ``compile_select`` does for a SELECT. Only for a queryset
    without joins: Django runs an UPDATE with joins as two queries, which one statement cannot be."""
    query = queryset.query.chain(UpdateQuery)
    assert isinstance(query, UpdateQuery)
    query.add_update_values(values)
    sql, compiled = query.get_compiler(using=using).as_sql()
    params = tuple(compiled)
    prepared = {name: _prepared(m, using) for name, m in markers.items()}
    slots = tuple((i, name) for i, p in enumerate(params) for name, m in prepared.items() if p == m)
    if set(markers) - {name for _, name in slots} or len({i for i, _ in slots}) != len(slots):
        raise ValueError("markers not found once each in the compiled update")
    quote = connections[using].ops.quote_name
    shape = Shape("update_where", quote(queryset.model._meta.db_table), "")
    return Select(sql, params, slots, {}, {}, shape)


def fetch(sql: str, params: Sequence[Any], using: str = "default") -> list[tuple[Any, ...]]:
    """Run one SELECT and return its rows (``batch``'s way)."""
    statement = Statement(sql, list(params))
    batch([statement], using)
    return statement.rows


@cache
def _insert_sql(model: type[Model], using: str) -> tuple[str, tuple[Any, ...], bool]:
    """The INSERT of every concrete non-primary-key field of ``model`` (and whether it returns the key)."""
    connection = connections[using]
    quote = connection.ops.quote_name
    fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(_column_name(f)) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    returning = bool(connection.features.can_return_columns_from_insert)
    if returning:
        sql += f" RETURNING {quote(_column_name(model._meta.pk))}"
    return sql, fields, returning


@dataclass(frozen=True)
class Shape:
    """What lets statements of many games merge into one (``batch_merged``): their kind and table, and
    for each kind what the merged statement needs (columns and their SQL types, the key column)."""

    #: "insert" (one row, RETURNING the key), "update" (by key), "increment" (by key), "delete", and
    #: "update_where" (``compile_update``: by a filter; not merged, but fused, ``fuse``)
    kind: str
    table: str  #: quoted
    key: str  #: the quoted primary key column
    columns: tuple[str, ...] = ()  #: quoted; for an update, the columns set
    types: tuple[str, ...] = ()  #: for an update: the key's SQL type, then each column's


@dataclass
class Statement:
    """One SQL statement of a batch; ``on_rows`` receives its result rows (for RETURNING and SELECT).

    ``shape``: set by the write statements below, so that ``batch_merged`` may run the same statement
    of many games as one multi-row statement."""

    sql: str
    params: list[Any]
    on_rows: Callable[[list[tuple[Any, ...]]], None] | None = None
    rows: list[tuple[Any, ...]] = dataclasses.field(default_factory=list)
    rowcount: int = -1
    shape: Shape | None = None
    #: PostgreSQL binds the parameters itself (a server-side cursor; ``%b`` sends one in binary), instead
    #: of psycopg writing them into the SQL text (Django's client-side cursors): for the merged
    #: statements' large arrays.
    server_bound: bool = False


def batch(statements: Sequence[Statement], using: str = "default", *, commit: bool = False) -> bool:
    """Run the statements in order, as one round trip where the database allows it.

    On PostgreSQL they go in libpq's pipeline mode as one message (``pgbatch``), with the
    transaction's ``BEGIN`` when it still needs one: executed in order by the server (each with a fresh
    snapshot, after the previous one finished, so a SELECT after a ``FOR UPDATE`` sees what the lock
    waited for) and answered together, after the checks Django's cursor makes. A lone statement goes
    that way too (about 20 µs of CPU less than Django's cursor), except while Django logs queries
    (``DEBUG``, ``CaptureQueriesContext``): then it goes through the cursor, to be logged. Elsewhere
    they run one by one.
    Errors surface as Django's database exceptions, as for any query.

    ``commit``: on that one-message path, end the transaction with the statements, its ``COMMIT`` in the
    same message (``pgbatch.run``), and answer True; only the caller that opened the transaction, whose
    atomic block then ends without another write, may ask for it (``store.LockedGame.flush``). Elsewhere
    the statements run as above and the answer is False: Django's own commit ends the transaction.
    """
    if not statements:
        return False
    connection = connections[using]
    if connection.vendor == "postgresql" and len(statements) > 1:
        statements = fuse(statements)
    committed = False
    if connection.vendor == "postgresql" and (
        len(statements) > 1 or statements[0].server_bound or not connection.queries_logged
    ):
        # Django's cursor's own checks first: the connection's health, a broken atomic block (the
        # connection is this thread's own, ``connections[using]``)
        connection.close_if_health_check_failed()
        connection.ensure_connection()
        connection.validate_no_broken_transaction()
        with connection.wrap_database_errors:
            pgbatch.run(connection.connection, statements, prepare=_prepares(connection), commit=commit)
        committed = commit
    else:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement.sql, statement.params)
                statement.rows = cursor.fetchall() if _returns_rows(cursor.cursor) else []
                statement.rowcount = cursor.rowcount
    for statement in statements:
        if statement.on_rows is not None:
            statement.on_rows(statement.rows)
    return committed


def owns_transaction(using: str = "default") -> bool:
    """Whether the innermost atomic block is the outermost one, whose end commits the transaction (not
    a savepoint inside another block, nor a block in a transaction opened without one)."""
    connection = connections[using]
    return bool(
        connection.in_atomic_block
        and connection.commit_on_exit
        and len(connection.atomic_blocks) == 1
        and not connection.savepoint_ids
    )


def transaction_idle(using: str = "default") -> bool:
    """Whether the connection holds no open transaction on the server (PostgreSQL's view: after a
    ``batch(commit=True)``, until something else is run); True on other databases."""
    connection = connections[using]
    if connection.vendor != "postgresql" or connection.connection is None:
        return True
    return bool(connection.connection.pgconn.transaction_status == pq.TransactionStatus.IDLE)


def _prepares(connection: Any) -> bool:
    """Whether ``pgbatch`` may prepare statements: as Django's cursors do, with ``server_side_binding``
    (its ``prepare_threshold`` is the connection's)."""
    options = connection.settings_dict.get("OPTIONS") or {}
    return bool(options.get("server_side_binding"))


def _returns_rows(cursor: Any) -> bool:
    """Whether the statement just run answered rows (a SELECT, a write with RETURNING).

    On psycopg its result's status rather than ``description``: psycopg builds every column's
    description object on each access, which costs more than the fetch itself (a fifth of a ``/legal``
    read's CPU, whose one row has some sixty columns)."""
    result: Any = getattr(cursor, "pgresult", _NOT_PSYCOPG)
    if result is _NOT_PSYCOPG:
        return cursor.description is not None
    return result is not None and result.status == pq.ExecStatus.TUPLES_OK


_NOT_PSYCOPG = object()


def when_any(
    rows_of: Callable[[int], QuerySet[Any]],
    game_id: int,
    then: Callable[[], object],
    statements: list[Statement] | None = None,
) -> None:
    """Call ``then`` if ``rows_of(game_id)`` has a row (a receiver's "does anyone of this game want it").

    On the hand path the question is one SELECT compiled once per ``rows_of`` (every move asks it,
    and the ORM spent longer compiling it each time than the database running it), appended to
    ``statements`` for the caller to run with the others in one round trip, or run now; else the ORM
    asks.
    """
    if not hand_sql():
        if rows_of(game_id).exists():
            then()
        return
    statement = _any_select(rows_of, vendor()).statement(game_id=game_id)

    def found(rows: list[tuple[Any, ...]]) -> None:
        if rows:
            then()

    statement.on_rows = found
    if statements is None:
        batch([statement])
    else:
        statements.append(statement)


def insert_when_any(insert: Statement, rows_of: Callable[[int], QuerySet[Any]], game_id: int) -> Statement:
    """``insert`` (the INSERT of one row, ``INSERT … VALUES (…)``) made to insert it only if
    ``rows_of(game_id)`` has a row, in the same statement: ``when_any`` with the write as its answer, so
    that nothing waits for the look-up's answer to write (a move's writes may then carry its COMMIT,
    ``pipeline.apply``). Its ``rowcount`` says whether it inserted; ``on_rows`` is ``insert``'s."""
    question = _any_select(rows_of, vendor()).statement(game_id=game_id)
    text = _insert_select(insert.sql, question.sql)
    return Statement(text, [*insert.params, *question.params], insert.on_rows)


@cache
def _insert_select(insert_sql: str, condition_sql: str) -> str:
    """``INSERT [OR IGNORE] INTO t (…) VALUES (…) [ON CONFLICT …]`` as ``INSERT [OR IGNORE] INTO t (…)
    SELECT … WHERE EXISTS (condition) [ON CONFLICT …]`` (the values' placeholders, then the condition's)."""
    one_row = r"(INSERT (?:OR IGNORE )?INTO .*?\)) VALUES \((.*)\)((?: ON CONFLICT .*)?)"
    found = re.fullmatch(one_row, insert_sql, re.DOTALL)
    if found is None:
        raise ValueError(f"not the INSERT of one row: {insert_sql[:80]}")
    head, values, tail = found.groups()
    return f"{head} SELECT {values} WHERE EXISTS ({condition_sql}){tail}"


@cache
def _any_select(rows_of: Callable[[int], QuerySet[Any]], vendor: str) -> Select:
    marker = -7301
    return compile_select(rows_of(marker).values("pk")[:1], game_id=marker)  # a row's key is answer enough


def insert_statement(instance: Model, using: str = "default") -> Statement:
    """The INSERT of ``instance`` as ``save()`` would make it (``auto_now_add`` and defaults applied),
    without model signals (none of the models written this way has receivers). Run in a ``batch``, it
    sets the instance's primary key."""
    sql, fields, returning = _insert_sql(type(instance), using)
    if not returning:  # pragma: no cover - PostgreSQL and SQLite >= 3.35 both return the key
        raise NotImplementedError("the database cannot return the key of an INSERT")
    params = save_values(instance, fields, True, using)

    def saved(rows: list[tuple[Any, ...]]) -> None:
        instance.pk = rows[0][0]
        instance._state.adding = False
        instance._state.db = using

    return Statement(sql, params, saved, shape=_insert_shape(type(instance), using))


@cache
def _insert_shape(model: type[Model], using: str) -> Shape:
    quote = connections[using].ops.quote_name
    fields = _insert_sql(model, using)[1]
    return Shape(
        "insert",
        quote(model._meta.db_table),
        quote(_column_name(model._meta.pk)),
        tuple(quote(_column_name(f)) for f in fields),
        tuple(_cast_type(f, using) for f in fields),
    )


def _cast_type(field: Any, using: str) -> str:
    """The SQL type a value of ``field`` is cast to in a merged statement (its column's type)."""
    return str(field.cast_db_type(connections[using]))


#: Field classes whose value, when it is exactly an ``int`` (``bool``, ``str``) or None, is saved as it
#: is, but for the backend's integer wrapper: their ``pre_save`` reads the attribute and their
#: ``get_db_prep_save`` gives such a value back (``int(v)``, ``bool(v)``, ``str``'s ``to_python``; a
#: foreign key defers to its target's key), an integer wrapped by ``adapt_integerfield_value``.
_PLAIN_FIELDS: dict[type[Any], type[Any]] = {
    models.IntegerField: int,
    models.BigIntegerField: int,
    models.SmallIntegerField: int,
    models.PositiveIntegerField: int,
    models.PositiveBigIntegerField: int,
    models.PositiveSmallIntegerField: int,
    models.BigAutoField: int,
    models.AutoField: int,
    models.ForeignKey: int,
    models.BooleanField: bool,
    models.CharField: str,
    models.TextField: str,
    models.FloatField: float,  # get_prep_value's float(v); no backend adapts a float
}
#: More such fields on PostgreSQL, whose backend takes a date-time (``adapt_datetimefield_value``) and a
#: duration (a native interval) as they are; a date-time only when aware (a naive one is made aware,
#: with a warning, by ``get_prep_value``), and not a field that sets itself (``auto_now``).
_PLAIN_ON_POSTGRESQL: dict[type[Any], type[Any]] = {
    models.DateTimeField: datetime,
    models.DurationField: timedelta,
}

_MISSING = object()


@cache
def _plain_saving(field: Any, using: str) -> tuple[type[Any], Callable[[Any], Any] | None, bool] | None:
    """For a field of ``_PLAIN_FIELDS`` (on PostgreSQL also ``_PLAIN_ON_POSTGRESQL``): the exact type it
    saves unchanged, the wrapper the backend puts around it (PostgreSQL's ``Int4`` and the like, as
    ``adapt_integerfield_value`` does), and whether the value must be an aware date-time."""
    plain = _PLAIN_FIELDS.get(type(field))
    if plain is None:
        plain = _PLAIN_ON_POSTGRESQL.get(type(field)) if connections[using].vendor == "postgresql" else None
        if plain is None or getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            return None
        return plain, None, plain is datetime and settings.USE_TZ
    if plain is not int:
        return plain, None, False
    internal = (field.target_field if field.is_relation else field).get_internal_type()
    type_map = getattr(connections[using].ops, "integerfield_type_map", None)
    return plain, None if type_map is None else type_map.get(internal), False  # an auto key: none


#: What ``save_values`` does with each field of a tuple of fields: ``_SAVE_JSON`` (``_json_to_db``),
#: ``_SAVE_PLAIN`` (the attribute as it is, when of the type ``_plain_saving`` says), ``_SAVE_NOW`` (a
#: date-time that sets itself, ``auto_now``/``auto_now_add``, where a date-time is plain) or
#: ``_SAVE_ORM`` (the field's own calls).
_SAVE_JSON, _SAVE_PLAIN, _SAVE_NOW, _SAVE_ORM = 0, 1, 2, 3
#: One field's way of saving: (way, field, attname, the type saved as it is, the backend's wrapper,
#: whether a value of a subclass of that type is saved as it is too, whether the value must be aware).
SavePlan = tuple[int, Any, str, Any, Any, bool, bool]
#: (id of a tuple of fields, database alias) -> (the tuple, each field's way of saving). The tuples come
#: from cached functions (``_insert_sql``, ``_update_sql``) and so live as long as the process; the
#: tuple is kept to check that an id was not reused by another.
_save_plans: dict[tuple[int, str], tuple[Sequence[Any], list[SavePlan]]] = {}
_SAVE_PLANS_KEPT = 1024


def _save_plan(fields: Sequence[Any], using: str) -> list[SavePlan]:
    """Each field's way of saving (``_SAVE_*``) with what it needs, worked out once per tuple of fields:
    hashing a Django field for ``_plain_saving``'s cache costs more than the saving itself."""
    found = _save_plans.get((id(fields), using))
    if found is not None and found[0] is fields:
        return found[1]
    plan: list[SavePlan] = []
    for field in fields:
        attname = str(field.attname)
        if _plain_json(field):
            plan.append((_SAVE_JSON, field, attname, None, None, False, False))
        elif (plain := _plain_saving(field, using)) is not None:
            kind, wrapper, aware = plain
            # ``CharField.to_python`` gives a ``str`` of any class as it is (a ``TextChoices`` member)
            plan.append((_SAVE_PLAIN, field, attname, kind, wrapper, kind is str, aware))
        elif _sets_itself(field, using):
            plan.append((_SAVE_NOW, field, attname, None, None, False, bool(field.auto_now)))
        else:
            plan.append((_SAVE_ORM, field, attname, None, None, False, False))
    if isinstance(fields, tuple):  # a list may change after this: its plan is not kept
        if len(_save_plans) >= _SAVE_PLANS_KEPT:  # a caller making new tuples each time: start again
            _save_plans.clear()
        _save_plans[(id(fields), using)] = (fields, plan)
    return plan


def _sets_itself(field: Any, using: str) -> bool:
    """A ``DateTimeField`` with ``auto_now`` or ``auto_now_add`` on a database that takes an aware
    date-time as it is (``_PLAIN_ON_POSTGRESQL``): its ``pre_save`` sets it to ``timezone.now()`` (always
    with ``auto_now``, on an INSERT with ``auto_now_add``), which is then saved as it is."""
    return (
        type(field) is models.DateTimeField
        and bool(field.auto_now or field.auto_now_add)
        and connections[using].vendor == "postgresql"
    )


def save_values(instance: Model, fields: Sequence[Any], add: bool, using: str = "default") -> list[Any]:
    """``[f.get_db_prep_save(f.pre_save(instance, add), connections[using]) for f in fields]``, without
    the calls where they would give the attribute back unchanged (``_PLAIN_FIELDS``), or where they
    would set it to the time and give that back (``_sets_itself``): a move writes every column of a move
    row, and these calls were a tenth of settling a deadline."""
    values: list[Any] = []
    state = instance.__dict__
    for way, field, attname, kind, wrapper, loose, aware in _save_plan(fields, using):
        if way == _SAVE_PLAIN:
            value = state.get(attname, _MISSING)
            if value is None:
                values.append(None)
                continue
            if (type(value) is kind or (loose and isinstance(value, kind))) and not (
                aware and value.tzinfo is None
            ):
                values.append(value if wrapper is None else wrapper(value))
                continue
        elif way == _SAVE_JSON:
            values.append(_json_to_db(field, field.pre_save(instance, add), using))
            continue
        elif way == _SAVE_NOW and (aware or add):  # ``auto_now``, or ``auto_now_add`` on an INSERT
            now = timezone.now()
            setattr(instance, attname, now)
            values.append(now)
            continue
        values.append(field.get_db_prep_save(field.pre_save(instance, add), connections[using]))
    return values


@cache
def _update_sql(
    model: type[Model], attnames: tuple[str, ...], using: str
) -> tuple[str, tuple[Any, ...], Shape]:
    connection = connections[using]
    quote = connection.ops.quote_name
    meta = model._meta
    fields = tuple(next(f for f in meta.concrete_fields if f.attname == name) for name in attnames)
    columns = tuple(quote(_column_name(f)) for f in fields)
    sql = (
        f"UPDATE {quote(meta.db_table)} SET {', '.join(f'{c} = %s' for c in columns)} "
        f"WHERE {quote(_column_name(meta.pk))} = %s"
    )
    types = tuple(_cast_type(f, using) for f in (meta.pk, *fields))
    shape = Shape("update", quote(meta.db_table), quote(_column_name(meta.pk)), columns, types)
    return sql, fields, shape


def update_statement(instance: Model, attnames: Sequence[str], using: str = "default") -> Statement:
    """The UPDATE of the named fields of ``instance``, by primary key."""
    sql, fields, shape = _update_sql(type(instance), tuple(attnames), using)
    params = save_values(instance, fields, False, using)
    return Statement(sql, [*params, instance.pk], shape=shape)


def increment_statement(instance: Model, attname: str, using: str = "default") -> Statement:
    """Add one to the field ``attname`` of ``instance``'s row, in the database itself."""
    quote = connections[using].ops.quote_name
    meta = type(instance)._meta
    column = quote(_column_name(next(f for f in meta.concrete_fields if f.attname == attname)))
    table, key = quote(meta.db_table), quote(_column_name(meta.pk))
    return Statement(
        f"UPDATE {table} SET {column} = {column} + 1 WHERE {key} = %s",
        [instance.pk],
        shape=Shape("increment", table, key, (column,), (_cast_type(meta.pk, using),)),
    )


def delete_statement(model: type[Model], pks: Sequence[Any], using: str = "default") -> Statement:
    """The DELETE of the rows of ``model`` with these primary keys (no cascades: leaf tables only)."""
    quote = connections[using].ops.quote_name
    table, key = quote(model._meta.db_table), quote(_column_name(model._meta.pk))
    sql = f"DELETE FROM {table} WHERE {key} IN ({', '.join(['%s'] * len(pks))})"
    shape = Shape("delete", table, key, (), (_cast_type(model._meta.pk, using),))
    return Statement(sql, list(pks), shape=shape)


# --- one game's writes as one statement -----------------------------------------------------------------


#: Parameters of one fused statement at most (PostgreSQL takes at most 65,535 in a statement; a sweep's
#: batch of many games' writes stays far below this, a move's own writes too).
FUSED_PARAMS = 10_000


def fuse(statements: Sequence[Statement]) -> list[Statement]:
    """The statements, each run of two or more consecutive writes of distinct rows made one statement.

    psycopg's work for each statement of a pipeline (a cursor, the parameters, a result) cost more CPU
    than PostgreSQL's running a move's small writes. A write with a ``shape`` (an INSERT of one row, an
    UPDATE or increment by key, a DELETE by keys: the ``*_statement`` functions above) goes into one
    statement of data-modifying ``WITH`` queries with the others of its run, so a move's writes are one
    statement. They then run on one snapshot, in no set order, so a run holds no two writes of the same
    row (another write of a row already in the run starts a new run), and none of them reads what
    another writes: a shaped write is by key, and a new row's key is not known before it is inserted.
    A statement without a shape (a SELECT, a write by filter) keeps its place, between runs.
    Each statement's ``rows``, ``rowcount`` and ``on_rows`` are as ``batch`` would give them.
    """
    fused: list[Statement] = []
    run: list[Statement] = []
    rows: set[tuple[str, Any]] = set()
    params = 0
    for statement in statements:
        touched = _rows_written(statement)
        if touched is None or _overlap(touched, rows) or params + len(statement.params) > FUSED_PARAMS:
            fused.extend(_fused(run))
            run, rows, params = [], set(), 0
        if touched is None:
            fused.append(statement)
            continue
        run.append(statement)
        rows |= touched
        params += len(statement.params)
    fused.extend(_fused(run))
    return fused


#: The key of ``_rows_written`` for a write by a filter: any row of its table.
_ANY_ROW = object()


def _rows_written(statement: Statement) -> set[tuple[str, Any]] | None:
    """The (table, key) of each existing row ``statement`` writes (none for an INSERT; ``_ANY_ROW`` for
    a write by a filter), or None when it is not a write that ``fuse`` may join to others."""
    shape = statement.shape
    if shape is None or statement.server_bound:
        return None
    if shape.kind == "update_where":
        return {(shape.table, _ANY_ROW)}
    if shape.kind == "insert":
        return set() if statement.sql.endswith(f" RETURNING {shape.key}") else None
    if shape.kind == "update":  # params: the values set, then the key
        return {(shape.table, statement.params[-1])}
    if shape.kind in ("increment", "delete"):  # params: the keys
        return {(shape.table, key) for key in statement.params}
    return None


def _overlap(touched: set[tuple[str, Any]], rows: set[tuple[str, Any]]) -> bool:
    """Whether writes of ``touched`` and of ``rows`` may write the same row."""
    if touched & rows:
        return True
    anywhere = {table for table, key in touched | rows if key is _ANY_ROW}
    row_tables = {table for table, _ in rows}
    return any(table in row_tables for table in anywhere & {table for table, _ in touched})


def _fused(run: list[Statement]) -> list[Statement]:
    """One statement for the writes of ``run`` (itself when it holds fewer than two)."""
    if len(run) < 2:
        return run
    parts, answers, params = [], [], []
    for index, statement in enumerate(run):
        shape = statement.shape
        assert shape is not None
        if shape.kind == "insert":
            parts.append(f"w{index} AS ({statement.sql})")
            answers.append(f"SELECT {index}, ({shape.key})::bigint FROM w{index}")
        else:
            parts.append(f"w{index} AS ({statement.sql} RETURNING 1)")
            answers.append(f"SELECT {index}, NULL::bigint FROM w{index}")
        params += statement.params
    sql = f"WITH {', '.join(parts)} {' UNION ALL '.join(answers)}"

    inserts = [statement.shape is not None and statement.shape.kind == "insert" for statement in run]

    def share(rows: list[tuple[Any, ...]]) -> None:
        for index, statement in enumerate(run):
            returned = [row for row in rows if row[0] == index]
            statement.rowcount = len(returned)
            statement.rows = [(row[1],) for row in returned] if inserts[index] else []
            if statement.on_rows is not None:
                statement.on_rows(statement.rows)

    return [Statement(sql, params, share)]


# --- many games' writes as few statements ---------------------------------------------------------------

#: Rows in one merged statement at most (its arrays go to the server as one message).
MERGED_ROWS = 1000


def batch_merged(queues: Sequence[Sequence[Statement]], using: str = "default") -> None:
    """Run the statements of several queues, each queue in its own order, as few statements as possible
    in one round trip: the same statement (``Statement.shape``) at the head of many queues runs once
    for all of them (a multi-row INSERT, an UPDATE from a VALUES list, one IN list).

    Only for queues that write disjoint rows (each queue one game's writes: its moves, seats and
    decision rows), since statements of different queues are reordered and merged; within a queue the
    order stays. Each statement's ``on_rows`` gets its own rows, as ``batch`` would give them.
    """
    batch(merge(queues, using), using)


def merge(queues: Sequence[Sequence[Statement]], using: str = "default") -> list[Statement]:
    """``batch_merged``'s statements: step by step, the queues whose next statement has the shape most
    of them have next advance together, merged into one statement (at most ``MERGED_ROWS`` rows).

    Keeps PostgreSQL in mind: a merged statement is ``unnest`` over one array per column."""
    heads = [0] * len(queues)
    active = [i for i, queue in enumerate(queues) if queue]
    merged: list[Statement] = []
    while active:
        groups: dict[Any, list[int]] = {}
        for i in active:
            statement = queues[i][heads[i]]
            groups.setdefault(_merge_key(statement), []).append(i)
        members = max(groups.values(), key=len)
        statements = [queues[i][heads[i]] for i in members]
        for start in range(0, len(statements), MERGED_ROWS):
            merged.append(_merged(statements[start : start + MERGED_ROWS], using))
        for i in members:
            heads[i] += 1
        active = [i for i in active if heads[i] < len(queues[i])]
    return merged


def _merge_key(statement: Statement) -> Any:
    """Statements with equal keys merge: same shape and, but for deletes (any number of keys), same SQL."""
    if statement.shape is None or statement.shape.kind == "update_where":
        return id(statement)
    return statement.shape if statement.shape.kind == "delete" else (statement.shape, statement.sql)


def _merged(statements: list[Statement], using: str) -> Statement:
    """One statement for all of ``statements`` (of one shape): every column's values go as one array
    parameter (``unnest``), so the SQL text is the same whatever the number of rows (psycopg converts
    and prepares it once). The arrays go in binary (``%b``): as text, psycopg escapes every element,
    which cost more than the rest of the statement (JSON states are full of quotes)."""
    if len(statements) == 1:
        return statements[0]
    shape = statements[0].shape
    assert shape is not None
    if shape.kind == "insert":
        arrays = ", ".join(f"%b::{t}[]" for t in shape.types)
        sql = (
            f"INSERT INTO {shape.table} ({', '.join(shape.columns)}) "
            f"SELECT * FROM unnest({arrays}) RETURNING {shape.key}"
        )
        return Statement(sql, _columns(statements), _share_rows(statements), server_bound=True)
    if shape.kind == "update":  # params of each: the values set, then the key
        arrays = ", ".join(f"%b::{t}[]" for t in shape.types)
        names = ", ".join(f"c{i}" for i in range(len(shape.types)))
        sets = ", ".join(f"{column} = v.c{i + 1}" for i, column in enumerate(shape.columns))
        sql = (
            f"UPDATE {shape.table} SET {sets} FROM unnest({arrays}) AS v({names}) "
            f"WHERE {shape.table}.{shape.key} = v.c0"
        )
        rows = [[s.params[-1], *s.params[:-1]] for s in statements]
        return Statement(sql, [list(column) for column in zip(*rows, strict=True)], server_bound=True)
    keys = [p for s in statements for p in s.params]
    where = f"WHERE {shape.key} = ANY(%b::{shape.types[0]}[])"
    if shape.kind == "increment":
        column = shape.columns[0]
        sql = f"UPDATE {shape.table} SET {column} = {column} + 1 {where}"
        return Statement(sql, [keys], server_bound=True)
    return Statement(f"DELETE FROM {shape.table} {where}", [keys], server_bound=True)


def _columns(statements: list[Statement]) -> list[list[Any]]:
    """The statements' parameters column by column: one array parameter per column."""
    return [list(column) for column in zip(*(s.params for s in statements), strict=True)]


def _share_rows(statements: list[Statement]) -> Callable[[list[tuple[Any, ...]]], None]:
    """A multi-row INSERT's rows come back in the order of its VALUES (PostgreSQL, as Django's own
    ``bulk_create`` relies on): one to each statement merged into it."""

    def share(rows: list[tuple[Any, ...]]) -> None:
        if len(rows) != len(statements):
            raise RuntimeError(f"a merged INSERT returned {len(rows)} rows for {len(statements)}")
        for statement, row in zip(statements, rows, strict=True):
            statement.rows = [row]
            if statement.on_rows is not None:
                statement.on_rows([row])

    return share
