"""A run of writes of distinct rows goes to PostgreSQL as one statement (``sql.fuse``), with the rows,
row counts and answers each write would have had alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from apps.games import reliability, sql
from apps.games.models import Decision, Game, Move, Seat, SeatTenure
from tests.conftest import requires_postgres
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(toy_engine: str, users: list[Any]) -> Game:
    return GameFactory(engine=toy_engine, players=3, seated=users[:3])


def _writes(game: Game) -> tuple[Move, list[sql.Statement]]:
    """A move's kind of writes: the move, the game, a seat, another seat's counter, a decision row."""
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    decision = Decision.objects.filter(game=game).first()
    assert decision is not None
    move = Move(game=game, seq=game.version + 1, seat=0, action={"type": "x"}, events=[])
    game.version += 1
    seats[0].consecutive_timeouts = 2
    return move, [
        sql.insert_statement(move),
        sql.update_statement(game, ["version"]),
        sql.update_statement(seats[0], ["consecutive_timeouts"]),
        sql.increment_statement(seats[1], "hidden_moves"),
        sql.delete_statement(Decision, [decision.pk]),
    ]


def test_consecutive_writes_of_distinct_rows_become_one_statement(game: Game) -> None:
    _, statements = _writes(game)

    fused = sql.fuse(statements)

    assert len(fused) == 1 and fused[0].sql.startswith("WITH ")
    assert fused[0].params == [p for s in statements for p in s.params]


def test_a_second_write_of_the_same_row_starts_a_new_statement(game: Game) -> None:
    seat = Seat.objects.get(game=game, position=0)
    first, second = (
        sql.increment_statement(seat, "hidden_moves"),
        sql.increment_statement(seat, "hidden_moves"),
    )

    assert sql.fuse([first, second]) == [first, second]


def test_a_statement_without_a_shape_keeps_its_place_between_runs(game: Game) -> None:
    _, statements = _writes(game)
    select = sql.Statement("SELECT 1", [])
    one_alone, *rest = statements

    fused = sql.fuse([one_alone, select, *rest])

    assert fused[:2] == [one_alone, select]
    assert len(fused) == 3 and fused[2].sql.startswith("WITH ")


@requires_postgres
def test_a_fused_batch_writes_and_answers_as_its_statements_would(game: Game) -> None:
    hidden_before = Seat.objects.get(game=game, position=1).hidden_moves
    move, statements = _writes(game)
    deleted = statements[-1].params[0]

    with transaction.atomic():
        sql.batch(statements)

    assert move.pk is not None and Move.objects.get(pk=move.pk).action == {"type": "x"}
    assert [s.rowcount for s in statements] == [1, 1, 1, 1, 1]
    assert statements[0].rows == [(move.pk,)] and all(s.rows == [] for s in statements[1:])
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Seat.objects.get(game=game, position=0).consecutive_timeouts == 2
    assert Seat.objects.get(game=game, position=1).hidden_moves == hidden_before + 1
    assert not Decision.objects.filter(pk=deleted).exists()


@requires_postgres
def test_a_write_of_no_row_answers_a_row_count_of_zero(game: Game) -> None:
    seat = Seat.objects.get(game=game, position=0)
    missing = Seat(pk=seat.pk + 10_000, game=game, position=9)
    statements = [
        sql.increment_statement(seat, "hidden_moves"),
        sql.increment_statement(missing, "hidden_moves"),
    ]

    sql.batch(statements)

    assert [s.rowcount for s in statements] == [1, 0]


def test_a_write_by_filter_joins_writes_of_other_tables_but_not_of_its_own(game: Game) -> None:
    """The reliability record's UPDATE (by a filter) goes with the move's writes; another write of its
    table could write the same row, so it starts a new statement."""
    answered = reliability.answer_counted(game_id=game.pk, position=0, user_id=1).write
    assert isinstance(answered, sql.Statement)
    seat = Seat.objects.get(game=game, position=0)
    tenure = _tenure(game, seat)
    bump_seat = sql.increment_statement(seat, "hidden_moves")

    assert len(sql.fuse([bump_seat, answered])) == 1
    again = reliability.answer_counted(game_id=game.pk, position=1, user_id=2).write
    assert sql.fuse([bump_seat, answered, again])[1:] == [again]
    bump_tenure = sql.increment_statement(tenure, "answered")
    assert sql.fuse([answered, bump_tenure]) == [answered, bump_tenure]


@requires_postgres
def test_a_fused_write_by_filter_answers_its_row_count(game: Game, users: list[Any], settings: Any) -> None:
    settings.GAMES_HAND_SQL = True
    seat = Seat.objects.get(game=game, position=0)
    _tenure(game, seat)
    counted = reliability.answer_counted(game_id=game.pk, position=0, user_id=users[0].pk).write
    missed = reliability.answer_counted(game_id=game.pk, position=0, user_id=users[1].pk).write
    assert isinstance(counted, sql.Statement) and isinstance(missed, sql.Statement)

    sql.batch([sql.increment_statement(seat, "hidden_moves"), counted])
    sql.batch([sql.increment_statement(seat, "hidden_moves"), missed])

    assert (counted.rowcount, missed.rowcount) == (1, 0)
    assert SeatTenure.objects.get(game=game, position=0, ended_at=None).answered == 1


def _tenure(game: Game, seat: Seat) -> SeatTenure:
    """The seat's open tenure (the game's start opens them when it commits)."""
    tenure, _ = SeatTenure.objects.get_or_create(
        game=game, position=seat.position, user_id=seat.user_id, ended_at=None,
        defaults={"started_at": timezone.now()},
    )  # fmt: skip
    return tenure


def test_a_run_stops_before_it_would_pass_the_parameter_bound(
    game: Game, toy_engine: str, users: list[Any], monkeypatch: Any
) -> None:
    monkeypatch.setattr(sql, "FUSED_PARAMS", 4)
    other = GameFactory(engine=toy_engine, players=3, seated=users[3:6])
    seats = list(Seat.objects.filter(game__in=[game, other]))
    statements = [sql.increment_statement(seat, "hidden_moves") for seat in seats]  # one parameter each

    fused = sql.fuse(statements)

    assert len(seats) == 6 and [len(s.params) for s in fused] == [4, 2]


def test_a_lone_statement_answers_its_rows_and_a_write_without_returning_none(game: Game) -> None:
    """Either database: a SELECT answers its rows (none when nothing matches), a write without RETURNING
    answers no rows and its row count."""
    seat = Seat.objects.get(game=game, position=0)
    table = Seat._meta.db_table
    found = sql.Statement(f"SELECT position FROM {table} WHERE game_id = %s ORDER BY position", [game.pk])
    none = sql.Statement(f"SELECT position FROM {table} WHERE game_id = %s", [game.pk + 10_000])
    write = sql.Statement(f"UPDATE {table} SET hidden_moves = hidden_moves WHERE id = %s", [seat.pk])

    for statement in (found, none, write):
        sql.batch([statement])

    assert [tuple(r) for r in found.rows] == [(0,), (1,), (2,)]
    assert list(none.rows) == []
    assert list(write.rows) == [] and write.rowcount == 1
