"""Hand-written SELECTs for the hottest reads, loaded into ordinary model instances.

The ORM compiles every queryset to SQL on every call; for the handful of reads that every API request
and every move makes (the token, the game row, its seats and decision rows) that compilation costs more
than the database does. These helpers build the column lists once per model and backend, run plain SQL
through Django's connection, apply the same converters the ORM would (JSON, datetimes, booleans on
SQLite) and return instances made with ``Model.from_db``, so callers cannot tell the difference.

Only columns and table names come from the models' metadata; every value is a query parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connections
from django.db.models import Model

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


@cache
def _fields(
    model: type[Model], using: str
) -> tuple[tuple[str, ...], tuple[str, ...], int, tuple[tuple[int, Any, tuple[Converter, ...]], ...]]:
    """(column names, attribute names, primary key index, converters by index) of ``model``."""
    connection = connections[using]
    columns, attnames, converters = [], [], []
    pk_index = 0
    for index, field in enumerate(model._meta.concrete_fields):
        columns.append(field.column)
        attnames.append(field.attname)
        if field.primary_key:
            pk_index = index
        expression = field.get_col(model._meta.db_table)
        found = (*connection.ops.get_db_converters(expression), *field.get_db_converters(connection))
        if found:
            converters.append((index, expression, found))
    return tuple(columns), tuple(attnames), pk_index, tuple(converters)


def select_list(model: type[Model], alias: str, using: str = "default") -> str:
    """``"alias"."column", …`` for every concrete field of ``model``, in field order."""
    quote = connections[using].ops.quote_name
    columns = _fields(model, using)[0]
    return ", ".join(f"{quote(alias)}.{quote(c)}" for c in columns)


def width(model: type[Model], using: str = "default") -> int:
    """How many columns ``select_list`` gives for ``model``."""
    return len(_fields(model, using)[0])


def load(model: type[M], row: Sequence[Any], start: int = 0, using: str = "default") -> M | None:
    """The instance in ``row[start:start + width]`` (None when its primary key is NULL: a missed join)."""
    connection = connections[using]
    columns, attnames, pk_index, converters = _fields(model, using)
    values = list(row[start : start + len(columns)])
    if values[pk_index] is None:
        return None
    for index, expression, funcs in converters:
        value = values[index]
        for func in funcs:
            value = func(value, expression, connection)
        values[index] = value
    return model.from_db(using, list(attnames), values)


def fetch(sql: str, params: Sequence[Any], using: str = "default") -> list[tuple[Any, ...]]:
    """Run one SELECT and return its rows."""
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def table(model: type[Model], using: str = "default") -> str:
    """The quoted table name of ``model``."""
    return connections[using].ops.quote_name(model._meta.db_table)


def column(model: type[Model], attname: str, using: str = "default") -> str:
    """The quoted column name of ``model``'s field ``attname`` (e.g. ``game_id``)."""
    field = next(f for f in model._meta.concrete_fields if f.attname == attname)
    return connections[using].ops.quote_name(field.column)


@cache
def _insert_sql(model: type[Model], using: str) -> tuple[str, tuple[Any, ...], bool]:
    """The INSERT of every concrete non-primary-key field of ``model`` (and whether it returns the key)."""
    connection = connections[using]
    quote = connection.ops.quote_name
    fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    returning = bool(connection.features.can_return_columns_from_insert)
    if returning:
        sql += f" RETURNING {quote(model._meta.pk.column)}"
    return sql, fields, returning


def insert(instance: Model, using: str = "default") -> None:
    """INSERT ``instance`` as ``save()`` would (``auto_now_add`` and defaults applied), without the
    model signals (none of the models written this way has receivers); sets its primary key."""
    connection = connections[using]
    sql, fields, returning = _insert_sql(type(instance), using)
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if returning:
            pk = cursor.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(cursor, instance._meta.db_table, instance._meta.pk.column)
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = using


def update(instance: Model, attnames: Sequence[str], using: str = "default") -> int:
    """UPDATE the named fields of ``instance`` by primary key; returns the rows changed."""
    connection = connections[using]
    quote = connection.ops.quote_name
    meta = instance._meta
    fields = [next(f for f in meta.concrete_fields if f.attname == name) for name in attnames]
    sql = (
        f"UPDATE {quote(meta.db_table)} SET {', '.join(f'{quote(f.column)} = %s' for f in fields)} "
        f"WHERE {quote(meta.pk.column)} = %s"
    )
    params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, instance.pk])
        return int(cursor.rowcount)


def delete_pks(model: type[Model], pks: Sequence[Any], using: str = "default") -> int:
    """DELETE the rows of ``model`` with these primary keys (no cascades: for leaf tables only)."""
    if not pks:
        return 0
    connection = connections[using]
    quote = connection.ops.quote_name
    sql = (
        f"DELETE FROM {quote(model._meta.db_table)} "
        f"WHERE {quote(model._meta.pk.column)} IN ({', '.join(['%s'] * len(pks))})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, list(pks))
        return int(cursor.rowcount)
