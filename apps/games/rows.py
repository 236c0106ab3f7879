"""The reads every move and every API request of a game makes, as hand-written SQL.

Same results as the obvious querysets (the tests compare them), without compiling a queryset each time:
see ``baogame.sqlrows``. Anything less hot uses the ORM.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from apps.accounts.models import Profile
from baogame import sqlrows
from baogame.sqlrows import column, select_list, table

from .models import Decision, Game, Move, Seat


def game_row(
    game_id: int,
    *,
    for_update: bool = False,
    overdue_at: datetime | None = None,
    seat_of_user: int | None = None,
) -> Game | None:
    """The game (row-locked with ``for_update`` where the database can).

    With ``overdue_at``, its ``overdue`` attribute says whether a decision's deadline is at or before
    that time; with ``seat_of_user`` (a user id), its ``user_seat`` attribute is that user's seat
    position or None.
    """
    params: list[Any] = []
    extra = ""
    if overdue_at is not None:
        extra += (
            f", EXISTS(SELECT 1 FROM {table(Decision)} d WHERE d.{column(Decision, 'game_id')} = "
            f"g.{column(Game, 'id')} AND d.{column(Decision, 'deadline')} <= %s)"
        )
        params.append(connection.ops.adapt_datetimefield_value(overdue_at))
    if seat_of_user is not None:
        extra += (
            f", (SELECT s.{column(Seat, 'position')} FROM {table(Seat)} s "
            f"WHERE s.{column(Seat, 'game_id')} = g.{column(Game, 'id')} "
            f"AND s.{column(Seat, 'user_id')} = %s)"
        )
        params.append(seat_of_user)
    sql = f"SELECT {select_list(Game, 'g')}{extra} FROM {table(Game)} g WHERE g.{column(Game, 'id')} = %s"
    params.append(game_id)
    if for_update and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    rows = sqlrows.fetch(sql, params)
    if not rows:
        return None
    game = sqlrows.load(Game, rows[0])
    assert game is not None
    index = sqlrows.width(Game)
    if overdue_at is not None:
        game.overdue = bool(rows[0][index])  # type: ignore[attr-defined]
        index += 1
    if seat_of_user is not None:
        game.user_seat = rows[0][index]  # type: ignore[attr-defined]
    return game


def seat_rows(game: Game, *, people: bool = False) -> list[Seat]:
    """The game's seats by position; with ``people``, each seat's user and the user's profile too."""
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
    sql += f"WHERE s.{column(Seat, 'game_id')} = %s ORDER BY s.{column(Seat, 'position')}"
    seats = []
    seat_width, user_width = sqlrows.width(Seat), sqlrows.width(user_model)
    for row in sqlrows.fetch(sql, [game.pk]):
        seat = sqlrows.load(Seat, row)
        assert seat is not None
        seat.game = game
        if people:
            user = sqlrows.load(user_model, row, seat_width)
            if user is not None:
                user.profile = sqlrows.load(Profile, row, seat_width + user_width)
            seat.user = user
        seats.append(seat)
    return seats


def attach_seats(game: Game, seats: list[Seat]) -> None:
    """Make ``game.seats.all()`` answer ``seats`` without a query, as ``prefetch_related`` would."""
    queryset = game.seats.all()
    queryset._result_cache = seats  # type: ignore[attr-defined]
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    game.__dict__.setdefault("_prefetched_objects_cache", {})["seats"] = queryset


def decision_rows(game: Game) -> list[Decision]:
    """The game's open decision rows, by deadline (the model's ordering), then id."""
    sql = (
        f"SELECT {select_list(Decision, 'd')} FROM {table(Decision)} d "
        f"WHERE d.{column(Decision, 'game_id')} = %s "
        f"ORDER BY d.{column(Decision, 'deadline')}, d.{column(Decision, 'id')}"
    )
    out = []
    for row in sqlrows.fetch(sql, [game.pk]):
        decision = sqlrows.load(Decision, row)
        assert decision is not None
        decision.game = game
        out.append(decision)
    return out


def move_by_key(game_id: int, key: str) -> Move | None:
    """The game's move submitted with this ``Idempotency-Key``, if any."""
    sql = (
        f"SELECT {select_list(Move, 'm')} FROM {table(Move)} m "
        f"WHERE m.{column(Move, 'game_id')} = %s AND m.{column(Move, 'idempotency_key')} = %s"
    )
    rows = sqlrows.fetch(sql, [game_id, key])
    return sqlrows.load(Move, rows[0]) if rows else None


# --- the writes of a move ------------------------------------------------------------------------------


def insert_move(move: Move) -> None:
    """INSERT a new move row (``Move.objects.create`` without compiling a query)."""
    sqlrows.insert(move)


def update_game(game: Game, attnames: list[str]) -> None:
    """UPDATE the named fields of the game row (``save(update_fields=…)``)."""
    sqlrows.update(game, attnames)


def delete_decisions(pks: list[int]) -> None:
    """DELETE closed decision rows by id."""
    sqlrows.delete_pks(Decision, pks)


def insert_decisions(decisions: list[Decision]) -> None:
    """INSERT new decision rows (each gets its id)."""
    for decision in decisions:
        sqlrows.insert(decision)
