"""The locked game and the hot reads and writes (``apps.games.store``, ``apps.games.sql``) give exactly
what the ORM's querysets give: same rows, same field values and types, on SQLite and PostgreSQL alike,
with ``GAMES_HAND_SQL`` on (SQL built once, sent in one round trip) and off (the plain ORM)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.db.models import JSONField
from django.utils import timezone

from apps.api.authentication import token_by_digest
from apps.api.models import token_digest
from apps.api.services import token_create
from apps.games import pipeline, sql
from apps.games import store as rows
from apps.games.models import Decision, Game, Move, Seat
from tests.factories import GameFactory
from tests.support.both_paths import both_paths, model_values  # noqa: F401 - both_paths: every test twice

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(toy_engine: str, users: list[Any]) -> Game:
    """A started 3-seat toy game: two players (one on vacation) and a bot."""
    game = GameFactory(engine=toy_engine, players=3, bots=1, seated=users[:2])
    users[1].profile.vacation_started_at = timezone.now()
    users[1].profile.save()
    return Game.objects.get(pk=game.pk)


def test_game_row_equals_the_orms_game(game: Game) -> None:
    found = rows.game_row(game.pk)
    assert found is not None
    loaded = found.game

    assert model_values(loaded) == model_values(Game.objects.get(pk=game.pk))
    assert isinstance(loaded.state, dict) and loaded.started_at is not None
    assert loaded._state.adding is False and loaded._state.db == "default"
    assert rows.game_row(game.pk + 1000) is None


def test_game_row_flags_overdue_decisions(game: Game) -> None:
    deadline = Decision.objects.get(game=game).deadline
    with transaction.atomic():
        locked = rows.game_row(game.pk, overdue_at=deadline - timedelta(seconds=1))
        due = rows.game_row(game.pk, overdue_at=deadline)

    assert locked is not None and locked.overdue is False
    assert due is not None and due.overdue is True


def test_game_row_finds_the_users_seat(game: Game, users: list[Any]) -> None:
    seated = rows.game_row(game.pk, seat_of_user=users[1].pk)
    outsider = rows.game_row(game.pk, seat_of_user=users[4].pk)

    assert seated is not None and seated.user_seat == 1
    assert outsider is not None and outsider.user_seat is None


def test_seat_rows_with_people_equal_the_orms_select_related(game: Game) -> None:
    expected = list(Seat.objects.filter(game=game).select_related("user__profile").order_by("position"))

    loaded = rows.seat_rows(game, people=True)

    assert [model_values(s) for s in loaded] == [model_values(s) for s in expected]
    for mine, theirs in zip(loaded, expected, strict=True):
        if theirs.user is None:
            assert mine.user is None  # the bot seat
        else:
            assert model_values(mine.user) == model_values(theirs.user)
            assert model_values(mine.user.profile) == model_values(theirs.user.profile)
    assert loaded[1].user.profile.vacation_started_at is not None


def test_attached_seats_answer_without_a_query(game: Game, django_assert_num_queries: Any) -> None:
    found = rows.game_row(game.pk)
    assert found is not None
    loaded = found.game
    rows.attach_seats(loaded)

    with django_assert_num_queries(0):
        positions = [s.position for s in loaded.seats.all()]

    assert positions == [0, 1, 2]


def test_decision_rows_equal_the_orms_rows(game: Game) -> None:
    Decision.objects.create(
        game=game, seat=2, decision_id="x", kind="window", timing="reaction", opened_at=timezone.now(),
        deadline=None, remaining=timedelta(hours=3),
    )  # fmt: skip

    loaded = rows.decision_rows(game)

    assert [model_values(d) for d in loaded] == [model_values(d) for d in Decision.objects.filter(game=game)]
    assert [d.remaining for d in loaded if d.deadline is None] == [timedelta(hours=3)]


def test_move_insert_and_lookup_by_idempotency_key_round_trip(game: Game, users: list[Any]) -> None:
    move = Move(
        game=game, seq=7, seat=0, user=users[0], action={"type": "play", "card": 3},
        events=[{"type": "played", "visible_to": "all"}], idempotency_key="k-1",
    )  # fmt: skip

    rows.run_writes([rows.insert_move(move)])

    stored = Move.objects.get(pk=move.pk)
    assert model_values(stored) == model_values(move) and stored.created_at is not None
    with transaction.atomic():
        keyed = rows.lock_game(game.pk, move_key="k-1")
        unkeyed = rows.lock_game(game.pk, move_key="k-2")
    assert keyed.key_move_id == move.pk
    assert unkeyed.key_move_id is None
    found = rows.move_by_id(move.pk)
    assert found is not None and model_values(found) == model_values(stored)
    by_key = rows.move_by_key(game.pk, "k-1")
    assert by_key is not None and by_key.pk == move.pk and rows.move_by_key(game.pk, "k-2") is None


def test_game_update_writes_only_the_named_fields(game: Game) -> None:
    found = rows.game_row(game.pk)
    assert found is not None
    loaded = found.game
    loaded.state = {**loaded.state, "marker": [1, 2]}
    loaded.version = 41
    loaded.title = "not written"

    rows.run_writes([rows.update_game(loaded, ["state", "version"])])

    stored = Game.objects.get(pk=game.pk)
    assert (stored.state["marker"], stored.version, stored.title) == ([1, 2], 41, game.title)


def test_decision_insert_and_delete(game: Game) -> None:
    new = Decision(game=game, seat=1, decision_id="n", kind="turn", timing="turn", opened_at=timezone.now())

    rows.run_writes(rows.insert_decisions([new]))
    assert model_values(Decision.objects.get(pk=new.pk)) == model_values(new)

    rows.run_writes(rows.delete_decisions([new.pk]))
    assert not Decision.objects.filter(pk=new.pk).exists()


def test_token_lookup_by_digest_loads_the_user(users: list[Any]) -> None:
    _, raw = token_create(user=users[2], name="bot")

    token = token_by_digest(token_digest(raw))

    assert token is not None and token.user.pk == users[2].pk
    assert model_values(token.user) == model_values(type(users[2]).objects.get(pk=users[2].pk))
    assert token_by_digest(token_digest(raw + "x")) is None


def test_a_closed_decision_row_is_reused_for_the_next_decision(toy_engine: str, users: list[Any]) -> None:
    """Seat 0 plays: its turn closes and the window opens for seats 1 and 2 — one row is rewritten in
    place, one inserted; the rows then equal what the engine has pending, with fresh deadlines."""
    game = GameFactory(engine=toy_engine, players=3, seated=users[:3])
    before = Decision.objects.get(game=game)
    action = {"type": "play", "decision_id": before.decision_id, "card": game.state["hands"][0][0]}

    pipeline.submit_action(game_id=game.pk, user=users[0], action=action)

    after = list(Decision.objects.filter(game=game).order_by("seat"))
    assert [(d.seat, d.kind) for d in after] == [(1, "window"), (2, "window")]
    reused = next(d for d in after if d.pk == before.pk)
    assert reused.opened_at > before.opened_at and reused.reminded_at is None
    assert reused.decision_id != before.decision_id and len({d.pk for d in after}) == 2


def test_locking_a_game_reads_its_seats_and_decisions_in_the_same_batch(game: Game) -> None:
    with transaction.atomic():
        locked = rows.lock_game(game.pk, move_key="nope")
        with pytest.raises(Game.DoesNotExist):
            rows.lock_game(game.pk + 1000)

    assert model_values(locked.game) == model_values(Game.objects.get(pk=game.pk))
    assert locked.key_move_id is None
    seats = list(locked.seats.values())
    expected = rows.seat_rows(game, people=True)
    assert list(locked.seats) == [s.position for s in expected]
    assert [model_values(s) for s in seats] == [model_values(s) for s in expected]
    assert [s.user.profile.pk for s in seats if s.user] == [s.user.profile.pk for s in expected if s.user]
    assert [model_values(d) for d in locked.decisions] == [
        model_values(d) for d in Decision.objects.filter(game=game)
    ]


def test_a_failing_statement_in_a_batch_raises_djangos_error_and_writes_nothing(game: Game) -> None:
    """A duplicate idempotency key (unique per game) fails the batch as an IntegrityError."""
    first = Move(game=game, seq=50, seat=0, action={}, events=[], idempotency_key="dup")
    second = Move(game=game, seq=51, seat=0, action={}, events=[], idempotency_key="dup")

    with pytest.raises(IntegrityError), transaction.atomic():
        rows.run_writes([rows.insert_move(first), rows.insert_move(second)])

    assert not Move.objects.filter(game=game, idempotency_key="dup").exists()


def test_counting_a_hidden_move_adds_one_in_the_database(game: Game) -> None:
    seat = Seat.objects.get(game=game, position=0)
    stale = Seat.objects.get(pk=seat.pk)

    rows.run_writes([rows.count_hidden_move(seat), rows.count_hidden_move(stale)])

    assert Seat.objects.get(pk=seat.pk).hidden_moves == seat.hidden_moves + 2


def test_a_select_is_compiled_only_with_every_marker_found(game: Game) -> None:
    select = sql.compile_select(Seat.objects.filter(game_id=-5).select_related("user__profile"), game_id=-5)

    assert [name for _, name in select.slots] == ["game_id"]
    assert set(select.models) == {"", "user", "user__profile"}
    loaded = [select.load(row) for row in sql.fetch(select.sql, [game.pk])]
    expected = Seat.objects.filter(game=game).values_list("pk", flat=True)
    assert sorted(s.pk for s in loaded if s) == sorted(expected)
    with pytest.raises(ValueError, match="user_id"):
        sql.compile_select(Seat.objects.filter(game_id=-5), game_id=-5, user_id=-6)


def test_rows_load_into_instances_equal_to_the_orms_from_db(game: Game, hand_sql: bool) -> None:
    """``sql.load`` makes its instances without ``Model.__init__`` when nothing would notice: the
    instance dict (but the state) and the state's flags are what ``Model.from_db`` gives."""
    seat = Seat.objects.filter(game=game).select_related("user__profile").exclude(user=None).first()
    assert seat is not None
    for model, instance in [(Game, game), (Seat, seat), (type(seat.user), seat.user)]:
        assert sql._plain_init(model)
        attnames = [f.attname for f in model._meta.concrete_fields]
        values = [getattr(instance, name) for name in attnames]
        fast = sql._instance(model, attnames, list(values), "default")
        slow = model.from_db("default", attnames, list(values))
        assert {k: v for k, v in vars(fast).items() if k != "_state"} == {
            k: v for k, v in vars(slow).items() if k != "_state"
        }
        flags = (fast._state.adding, fast._state.db)
        assert flags == (slow._state.adding, slow._state.db) == (False, "default")
        assert fast == slow and fast.pk == instance.pk


def _json_value(field: Any, value: Any) -> Any:
    """A saved value as compared: a JSON column's JSON decoded (PostgreSQL: the Jsonb wrapper's object)."""
    value = getattr(value, "obj", value)
    return json.loads(value) if isinstance(field, JSONField) and isinstance(value, str) else value


def test_write_statements_carry_the_values_the_orm_would_save(game: Game, users: list[Any]) -> None:
    """The write statements skip the field calls that give a value back unchanged, or the time that a
    field sets itself to; what they carry is still every field's ``get_db_prep_save(pre_save(...))``,
    for every column of every model written (a JSON column: the same JSON, which msgspec writes without
    the standard library's spaces; a ``TextChoices`` member: the member itself, as the ORM passes it)."""
    from django.db import connection

    seat = Seat.objects.filter(game=game).exclude(user=None).first()
    decision = Decision.objects.filter(game=game).first()
    move = Move(game=game, seq=99, seat=0, user=users[0], action={"type": "x"}, events=[{"a": 1}])
    assert seat is not None and decision is not None
    # every kind of value the plain paths take: a float, an aware date-time, a duration, and None
    seat.bank_seconds, seat.bank_since = 1234.5, timezone.now()
    decision.remaining, decision.deadline = timedelta(minutes=3), None
    game.status = Game.Status.ACTIVE  # a str of another class
    for instance, add in [(move, True), (game, False), (seat, False), (decision, False)]:
        fields = [f for f in type(instance)._meta.concrete_fields if not f.primary_key]
        expected = [f.get_db_prep_save(f.pre_save(instance, add), connection) for f in fields]
        got = sql.save_values(instance, fields, add)
        assert [type(v) for v in got] == [type(v) for v in expected]
        timed = [getattr(f, "auto_now", 0) or getattr(f, "auto_now_add", 0) for f in fields]
        clock = {i for i, is_timed in enumerate(timed) if is_timed}
        same = [_json_value(fields[i], v) for i, v in enumerate(got) if i not in clock]  # the clock moved on
        assert same == [_json_value(fields[i], v) for i, v in enumerate(expected) if i not in clock]
        adapt = connection.ops.adapt_datetimefield_value
        set_to = [adapt(getattr(instance, fields[i].attname)) for i in clock]
        assert set_to == [got[i] for i in clock]  # the time saved is the one the instance was given


def test_a_json_column_keeps_integers_beyond_64_bits_on_the_hand_path(game: Game) -> None:
    """Bao Bei's ``known`` masks pass 64 bits: the hand path's JSON (msgspec) writes and reads them back
    exactly, as the ORM's ``json`` does (a library that turned them into floats would break the game)."""
    mask = (1 << 70) + 5
    game.state = {**(game.state or {}), "known": [mask, 3]}

    sql.batch([sql.update_statement(game, ["state"])])
    found = rows.game_row(game.pk)

    assert found is not None and found.game.state is not None
    assert found.game.state["known"] == [mask, 3] and type(found.game.state["known"][0]) is int
