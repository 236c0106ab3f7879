"""The reads and writes every move and every API request of a game makes, as hand-written SQL.

Same results as the obvious querysets (the tests compare them), without compiling a queryset each time:
see ``baogame.sqlrows``. Anything less hot uses the ORM.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from apps.accounts.models import Profile
from baogame import sqlrows
from baogame.sqlrows import Statement, column, select_list, table

from .models import Decision, Game, Move, Seat


@cache
def _game_sql(vendor: str, for_update: bool, overdue: bool, seat_of: bool, key: bool) -> str:
    """The game row SELECT with the optional extra columns, built once per shape."""
    extra = ""
    if overdue:
        extra += (
            f", EXISTS(SELECT 1 FROM {table(Decision)} d WHERE d.{column(Decision, 'game_id')} = "
            f"g.{column(Game, 'id')} AND d.{column(Decision, 'deadline')} <= %s)"
        )
    if seat_of:
        for name in ("position", "hidden_moves"):
            extra += (
                f", (SELECT s.{column(Seat, name)} FROM {table(Seat)} s "
                f"WHERE s.{column(Seat, 'game_id')} = g.{column(Game, 'id')} "
                f"AND s.{column(Seat, 'user_id')} = %s)"
            )
    if key:
        extra += (
            f", (SELECT m.{column(Move, 'id')} FROM {table(Move)} m "
            f"WHERE m.{column(Move, 'game_id')} = g.{column(Game, 'id')} "
            f"AND m.{column(Move, 'idempotency_key')} = %s)"
        )
    sql = f"SELECT {select_list(Game, 'g')}{extra} FROM {table(Game)} g WHERE g.{column(Game, 'id')} = %s"
    if for_update and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql


def _game_statement(
    game_id: int,
    *,
    for_update: bool = False,
    overdue_at: datetime | None = None,
    seat_of_user: int | None = None,
    move_key: str | None = None,
) -> Statement:
    """The game row SELECT with the extra columns asked for (see ``game_row``)."""
    params: list[Any] = []
    if overdue_at is not None:
        params.append(connection.ops.adapt_datetimefield_value(overdue_at))
    if seat_of_user is not None:
        params += [seat_of_user, seat_of_user]
    if move_key is not None:
        params.append(move_key)
    params.append(game_id)
    sql = _game_sql(
        connection.vendor, for_update, overdue_at is not None, seat_of_user is not None, move_key is not None
    )
    return Statement(sql, params)


def _load_game(row: Sequence[Any], *, overdue: bool, seat_of: bool, key: bool) -> Game:
    """The game in ``row``, with the extra columns of ``_game_statement`` set as attributes."""
    game = sqlrows.load(Game, row)
    assert game is not None
    index = sqlrows.width(Game)
    if overdue:
        game.overdue = bool(row[index])  # type: ignore[attr-defined]
        index += 1
    if seat_of:
        game.user_seat, game.user_hidden_moves = row[index], row[index + 1]  # type: ignore[attr-defined]
        index += 2
    if key:
        game.key_move_id = row[index]  # type: ignore[attr-defined]
    return game


def game_row(
    game_id: int,
    *,
    for_update: bool = False,
    overdue_at: datetime | None = None,
    seat_of_user: int | None = None,
    move_key: str | None = None,
) -> Game | None:
    """The game (row-locked with ``for_update`` where the database can).

    Extra answers in the same query, as attributes of the game:

    * ``overdue_at`` -> ``overdue``: whether a decision's deadline is at or before that time;
    * ``seat_of_user`` (a user id) -> ``user_seat``: that user's seat position, or None, and
      ``user_hidden_moves``: that seat's ``hidden_moves`` (for ``selectors.viewer_version``);
    * ``move_key`` -> ``key_move_id``: the id of the game's move with that ``Idempotency-Key``, or None.
    """
    statement = _game_statement(
        game_id, for_update=for_update, overdue_at=overdue_at, seat_of_user=seat_of_user, move_key=move_key
    )
    sqlrows.batch([statement])
    if not statement.rows:
        return None
    return _load_game(
        statement.rows[0],
        overdue=overdue_at is not None,
        seat_of=seat_of_user is not None,
        key=move_key is not None,
    )


@cache
def _seats_sql(vendor: str, people: bool) -> str:
    user_model = get_user_model()
    if people:
        sql = (
            f"SELECT {select_list(Seat, 's')}, {select_list(user_model, 'u')}, {select_list(Profile, 'p')} "
            f"FROM {table(Seat)} s "
            f"LEFT OUTER JOIN {table(user_model)} u "
            f"ON u.{column(user_model, 'id')} = s.{column(Seat, 'user_id')} "
            f"LEFT OUTER JOIN {table(Profile)} p "
            f"ON p.{column(Profile, 'user_id')} = u.{column(user_model, 'id')} "
        )
    else:
        sql = f"SELECT {select_list(Seat, 's')} FROM {table(Seat)} s "
    return sql + f"WHERE s.{column(Seat, 'game_id')} = %s ORDER BY s.{column(Seat, 'position')}"


def seat_rows(game: Game, *, people: bool = False) -> list[Seat]:
    """The game's seats by position; with ``people``, each seat's user and the user's profile too."""
    return [
        _seat_from_row(game, row, people=people)
        for row in sqlrows.fetch(_seats_sql(connection.vendor, people), [game.pk])
    ]


def _seat_from_row(game: Game, row: Sequence[Any], *, people: bool) -> Seat:
    seat = sqlrows.load(Seat, row)
    assert seat is not None
    seat.game = game
    if people:
        user_model = get_user_model()
        seat_width = sqlrows.width(Seat)
        user = sqlrows.load(user_model, row, seat_width)
        if user is not None:
            user.profile = sqlrows.load(Profile, row, seat_width + sqlrows.width(user_model))
        seat.user = user
    return seat


def attach_seats(game: Game, seats: list[Seat]) -> None:
    """Make ``game.seats.all()`` answer ``seats`` without a query, as ``prefetch_related`` would."""
    queryset = game.seats.all()
    queryset._result_cache = seats
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    game.__dict__.setdefault("_prefetched_objects_cache", {})["seats"] = queryset


@cache
def _decisions_sql(vendor: str) -> str:
    return (
        f"SELECT {select_list(Decision, 'd')} FROM {table(Decision)} d "
        f"WHERE d.{column(Decision, 'game_id')} = %s "
        f"ORDER BY d.{column(Decision, 'deadline')}, d.{column(Decision, 'id')}"
    )


def decision_rows(game: Game) -> list[Decision]:
    """The game's open decision rows, by deadline (the model's ordering), then id."""
    found = sqlrows.fetch(_decisions_sql(connection.vendor), [game.pk])
    return [_decision_from_row(game, row) for row in found]


def _decision_from_row(game: Game, row: Sequence[Any]) -> Decision:
    decision = sqlrows.load(Decision, row)
    assert decision is not None
    decision.game = game
    return decision


@cache
def _move_sql(vendor: str) -> str:
    return f"SELECT {select_list(Move, 'm')} FROM {table(Move)} m WHERE m.{column(Move, 'id')} = %s"


def move_by_id(move_id: int) -> Move | None:
    """One move row."""
    rows = sqlrows.fetch(_move_sql(connection.vendor), [move_id])
    return sqlrows.load(Move, rows[0]) if rows else None


@cache
def _move_key_sql(vendor: str) -> str:
    return (
        f"SELECT {select_list(Move, 'm')} FROM {table(Move)} m "
        f"WHERE m.{column(Move, 'game_id')} = %s AND m.{column(Move, 'idempotency_key')} = %s"
    )


def move_by_key(game_id: int, key: str) -> Move | None:
    """The game's move submitted with this ``Idempotency-Key``, if any."""
    rows = sqlrows.fetch(_move_key_sql(connection.vendor), [game_id, key])
    return sqlrows.load(Move, rows[0]) if rows else None


# --- the writes of a move ------------------------------------------------------------------------------
#
# Each returns the statement; ``baogame.sqlrows.batch`` runs a move's writes together in one round trip.


def insert_move(move: Move) -> Statement:
    """INSERT a new move row (``Move.objects.create``); the batch sets its id."""
    return sqlrows.insert_statement(move)


def count_hidden_move(seat: Seat) -> Statement:
    """Add one to the seat's ``hidden_moves``, in the database itself (a stale instance cannot lose a
    count)."""
    field = column(Seat, "hidden_moves")
    return Statement(
        f"UPDATE {table(Seat)} SET {field} = {field} + 1 WHERE {column(Seat, 'id')} = %s", [seat.pk]
    )


def update_game(game: Game, attnames: list[str]) -> Statement:
    """UPDATE the named fields of the game row (``save(update_fields=…)``)."""
    return sqlrows.update_statement(game, attnames)


#: Every field of a decision row but its id and game: what reusing a row rewrites.
DECISION_FIELDS = (
    "seat", "decision_id", "kind", "timing", "opened_at", "deadline", "remaining", "reminded_at",
)  # fmt: skip


def reuse_decision_row(pk: int, decision: Decision) -> Statement:
    """Write the new ``decision`` over the closed decision row ``pk`` of the same game (it takes the id)."""
    decision.pk = pk
    decision._state.adding = False
    decision._state.db = "default"
    return sqlrows.update_statement(decision, DECISION_FIELDS)


def delete_decisions(pks: list[int]) -> list[Statement]:
    """DELETE closed decision rows by id (no statement when there are none)."""
    return [sqlrows.delete_statement(Decision, pks)] if pks else []


def insert_decisions(decisions: list[Decision]) -> list[Statement]:
    """INSERT new decision rows (the batch gives each its id)."""
    return [sqlrows.insert_statement(d) for d in decisions]


# --- the reads of a locked game -----------------------------------------------------------------------


def lock_game_with_rows(
    game_id: int, *, move_key: str | None = None
) -> tuple[Game | None, list[Seat], list[Decision]]:
    """Lock the game row and read its seats (with people) and open decision rows, in one round trip.

    The seat and decision SELECTs run after the lock is granted, each on a fresh snapshot, so they see
    everything committed by the transaction the lock waited for.
    """
    lock = _game_statement(game_id, for_update=True, move_key=move_key)
    seats = Statement(_seats_sql(connection.vendor, True), [game_id])
    decisions = Statement(_decisions_sql(connection.vendor), [game_id])
    sqlrows.batch([lock, seats, decisions])
    if not lock.rows:
        return None, [], []
    game = _load_game(lock.rows[0], overdue=False, seat_of=False, key=move_key is not None)
    return (
        game,
        [_seat_from_row(game, row, people=True) for row in seats.rows],
        [_decision_from_row(game, row) for row in decisions.rows],
    )
