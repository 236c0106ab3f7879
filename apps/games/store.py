"""The locked game and the SQL of a move: ``lock_game`` is the only way any code locks a game.

``lock_game(game_id, move_key=...)`` takes the game row lock and reads, in the same round trip, the
game's seats (with their people) and open decision rows, and the move already made with an
Idempotency-Key. It returns them as a ``LockedGame``, which also collects what the transaction will
write and queue. While a service holds the lock it is the only writer of the game's seats and decision
rows, so it keeps the ``LockedGame`` in step with its own writes instead of reading them again.

The reads and writes every move and every API request of a game makes are hand-written SQL: same
results as the obvious querysets (the tests compare them), without compiling a queryset each time (see
``baogame.sqlrows``). Anything less hot uses the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
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


@dataclass
class GameRow:
    """A game as stored, with the extra answers ``game_row`` was asked for in the same query."""

    game: Game
    overdue: bool = False  #: a decision's deadline is at or before ``overdue_at``
    user_seat: int | None = None  #: the seat position of ``seat_of_user`` (None: not seated)
    user_hidden_moves: int = 0  #: that seat's ``hidden_moves`` (for ``selectors.viewer_version``)


def game_row(
    game_id: int, *, overdue_at: datetime | None = None, seat_of_user: int | None = None
) -> GameRow | None:
    """The game as it is stored, unlocked (``lock_game`` locks), and the extra answers asked for."""
    statement = _game_statement(game_id, overdue_at=overdue_at, seat_of_user=seat_of_user)
    sqlrows.batch([statement])
    if not statement.rows:
        return None
    row = statement.rows[0]
    game = sqlrows.load(Game, row)
    assert game is not None
    found = GameRow(game)
    index = sqlrows.width(Game)
    if overdue_at is not None:
        found.overdue = bool(row[index])
        index += 1
    if seat_of_user is not None:
        found.user_seat, found.user_hidden_moves = row[index], row[index + 1] or 0
    return found


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


def update_seat(seat: Seat, attnames: list[str]) -> Statement:
    """UPDATE the named fields of the seat row (``save(update_fields=…)``)."""
    return sqlrows.update_statement(seat, attnames)


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


# --- the locked game -------------------------------------------------------------------------------------


@dataclass
class TaskPlan:
    """What one transaction queues for one game when it commits (``apps.games.scheduling`` fills and
    sends it): the bot task, near deadline tasks, or a fresh look at the committed rows."""

    version: int = 0
    bots: bool = False
    bots_handed_over: bool = False
    queue: str = ""
    deadlines: set[datetime] = field(default_factory=set)
    after_commit: bool = False  #: the move plan is registered with ``transaction.on_commit``
    rescan: bool = False  #: ``scheduling.queue_game_tasks`` is registered with ``transaction.on_commit``


@dataclass(eq=False)
class LockedGame:
    """A game whose row this transaction has locked, with everything a move reads and will write.

    ``seats`` (by position, with users and profiles) and ``decisions`` (the open decision rows, by
    deadline) are kept in step with the transaction's own writes; ``key_move_id`` is the move made
    with the Idempotency-Key asked for (None: none, or no key asked for); ``writes`` are the statements
    of the move being made, run together by ``flush``; ``tasks`` what to queue at commit; ``bot_loop``
    says that the server's bots are playing this game in this transaction (``autoplay``).
    """

    game: Game
    seats: dict[int, Seat]
    decisions: list[Decision]
    key_move_id: int | None = None
    writes: list[Statement] = field(default_factory=list)
    tasks: TaskPlan = field(default_factory=TaskPlan)
    bot_loop: bool = False
    #: ``pipeline.settle`` sets it: each move's writes wait in ``writes`` (and what must follow them in
    #: ``after_flush``) so that all the timeouts of the game are written in one round trip.
    defer_flush: bool = False
    after_flush: list[Callable[[], None]] = field(default_factory=list)

    @property
    def pk(self) -> int:
        return int(self.game.pk)

    @property
    def state(self) -> dict[str, Any]:
        """The state of the started game (the engine's plain JSON dict)."""
        assert self.game.state is not None, f"game {self.game.pk} has not started"
        state: dict[str, Any] = self.game.state
        return state

    def seat_of(self, user: User | AnonymousUser | None) -> Seat | None:
        """The user's seat, or None."""
        if user is None or not user.is_authenticated:
            return None
        return next((s for s in self.seats.values() if s.user_id == user.pk), None)

    def away(self) -> set[int]:
        """The seats whose player is on vacation."""
        return {position for position, s in self.seats.items() if on_vacation(s)}

    def people(self) -> frozenset[int]:
        """The seats a person plays now (not a bot, not handed to the bot): who may be mailed."""
        return frozenset(p for p, s in self.seats.items() if s.user_id is not None and not s.played_by_bot)

    def reload_decisions(self) -> None:
        """Read the decision rows again, after a write that did not go through this object."""
        self.decisions = decision_rows(self.game)

    def flush(self) -> None:
        """Run the collected writes, in one round trip where the database allows it, then what waited
        for them (``after_flush``, in order)."""
        writes, self.writes = self.writes, []
        sqlrows.batch(writes)
        while self.after_flush:
            self.after_flush.pop(0)()


def on_vacation(seat: Seat) -> bool:
    """Whether the seat's player is on vacation (a seat loaded with its people)."""
    profile = getattr(seat.user, "profile", None) if seat.user_id else None
    return profile is not None and profile.vacation_started_at is not None


def lock_game(game_id: int, *, move_key: str | None = None) -> LockedGame:
    """Lock the game row and read its seats (with people) and open decision rows, in one round trip;
    with ``move_key``, also the id of the game's move made with that Idempotency-Key.

    The seat and decision SELECTs run after the lock is granted, each on a fresh snapshot, so they see
    everything committed by the transaction the lock waited for. Raises ``Game.DoesNotExist``.
    """
    lock = _game_statement(game_id, for_update=True, move_key=move_key)
    seats = Statement(_seats_sql(connection.vendor, True), [game_id])
    decisions = Statement(_decisions_sql(connection.vendor), [game_id])
    sqlrows.batch([lock, seats, decisions])
    if not lock.rows:
        raise Game.DoesNotExist(f"no game {game_id}")
    row = lock.rows[0]
    game = sqlrows.load(Game, row)
    assert game is not None
    return LockedGame(
        game=game,
        seats={s.position: s for s in (_seat_from_row(game, r, people=True) for r in seats.rows)},
        decisions=[_decision_from_row(game, r) for r in decisions.rows],
        key_move_id=row[sqlrows.width(Game)] if move_key is not None else None,
    )


# --- many games at once: the sweep's batches --------------------------------------------------------------


@cache
def _claim_sql(vendor: str, skip_locked: bool) -> str:
    sql = (
        f"SELECT g.{column(Game, 'id')} FROM {table(Game)} g "
        f"WHERE g.{column(Game, 'status')} = %s AND g.{column(Game, 'id')} > %s "
        f"AND g.{column(Game, 'id')} IN (SELECT d.{column(Decision, 'game_id')} FROM {table(Decision)} d "
        f"WHERE d.{column(Decision, 'deadline')} <= %s) "
        f"ORDER BY g.{column(Game, 'id')} LIMIT %s"
    )
    if skip_locked:
        sql += " FOR UPDATE SKIP LOCKED"
    return sql


def claim_due_games(*, now: datetime, after: int, limit: int) -> list[int]:
    """Lock and return the ids (ascending, each above ``after``) of up to ``limit`` active games with a
    decision due by ``now``, skipping games another transaction has locked (it is settling them, or
    making a move, which settles first). Must run in a transaction; ``lock_games`` then reads them.

    On a database without row locks (SQLite, which lets one writer in at a time) it is a plain SELECT.
    """
    skip_locked = bool(connection.features.has_select_for_update_skip_locked)
    statement = Statement(
        _claim_sql(connection.vendor, skip_locked),
        [Game.Status.ACTIVE, after, connection.ops.adapt_datetimefield_value(now), limit],
    )
    sqlrows.batch([statement])
    return [int(row[0]) for row in statement.rows]


def _in_list(count: int) -> str:
    return f"IN ({', '.join(['%s'] * count)})"


@cache
def _games_sql(vendor: str, count: int) -> tuple[str, str, str]:
    """The game rows (locked, in id order), their seats with people, and their decision rows."""
    user_model = get_user_model()
    games = (
        f"SELECT {select_list(Game, 'g')} FROM {table(Game)} g "
        f"WHERE g.{column(Game, 'id')} {_in_list(count)} ORDER BY g.{column(Game, 'id')}"
    )
    if connection.features.has_select_for_update:
        games += " FOR UPDATE"
    user_id, seat_user = column(user_model, "id"), column(Seat, "user_id")
    seats = (
        f"SELECT {select_list(Seat, 's')}, {select_list(user_model, 'u')}, {select_list(Profile, 'p')} "
        f"FROM {table(Seat)} s "
        f"LEFT OUTER JOIN {table(user_model)} u ON u.{user_id} = s.{seat_user} "
        f"LEFT OUTER JOIN {table(Profile)} p ON p.{column(Profile, 'user_id')} = u.{user_id} "
        f"WHERE s.{column(Seat, 'game_id')} {_in_list(count)} ORDER BY s.{column(Seat, 'position')}"
    )
    decisions = (
        f"SELECT {select_list(Decision, 'd')} FROM {table(Decision)} d "
        f"WHERE d.{column(Decision, 'game_id')} {_in_list(count)} "
        f"ORDER BY d.{column(Decision, 'deadline')}, d.{column(Decision, 'id')}"
    )
    return games, seats, decisions


def lock_games(game_ids: Sequence[int]) -> list[LockedGame]:
    """``lock_game`` for many games at once: lock their rows in id order (no deadlocks with each other)
    and read their seats (with people) and open decision rows, all in one round trip.

    Returns the games found, in id order, each as ``lock_game`` would return it (without a move key).
    """
    ids = sorted(set(game_ids))
    if not ids:
        return []
    games_sql, seats_sql, decisions_sql = _games_sql(connection.vendor, len(ids))
    lock, seats, decisions = (Statement(sql, list(ids)) for sql in (games_sql, seats_sql, decisions_sql))
    sqlrows.batch([lock, seats, decisions])
    found: dict[int, LockedGame] = {}
    for row in lock.rows:
        game = sqlrows.load(Game, row)
        assert game is not None
        found[game.pk] = LockedGame(game=game, seats={}, decisions=[])
    game_column = _attindex(Seat, "game_id")
    for row in seats.rows:
        locked = found.get(row[game_column])
        if locked is not None:
            seat = _seat_from_row(locked.game, row, people=True)
            locked.seats[seat.position] = seat
    decision_column = _attindex(Decision, "game_id")
    for row in decisions.rows:
        locked = found.get(row[decision_column])
        if locked is not None:
            locked.decisions.append(_decision_from_row(locked.game, row))
    return list(found.values())


@cache
def _attindex(model: type[Any], attname: str) -> int:
    """The index of field ``attname`` in ``select_list(model)``'s columns."""
    return next(i for i, f in enumerate(model._meta.concrete_fields) if f.attname == attname)
