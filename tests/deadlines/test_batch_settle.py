"""Batched settlement: the sweep claims due games in batches and writes a batch's moves and
decision rows together (falling back to a savepoint per game when that fails), and several sweeps
share the due games without settling a decision twice."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.games import clock
from apps.games.clock import deadlines, settlement
from apps.games.models import Decision, Game, Move
from tests.conftest import requires_postgres

from .helpers import a_game, overdue


def _overdue_games(users: list[Any], count: int) -> list[Game]:
    """``count`` Bao Bei games between the same two players, both setup peeks overdue in each."""
    games = [a_game("baobei", users[:2], players=2) for _ in range(count)]
    for game in games:
        overdue(game)
    return games


def _timed_out_seats(game: Game) -> list[int]:
    return sorted(Move.objects.filter(game=game, by_timeout=True).values_list("seat", flat=True))


@pytest.mark.django_db
def test_the_sweep_settles_every_due_game_over_several_batches(users: list, settings) -> None:
    settings.GAMES_SETTLE_BATCH = 2
    games = _overdue_games(users, 5)

    swept = clock.settle_overdue()

    assert swept == 10
    assert all(_timed_out_seats(game) == [0, 1] for game in games)
    assert not Decision.objects.filter(deadline__lte=timezone.now()).exists()
    assert clock.settle_overdue() == 0


@pytest.mark.django_db
def test_a_game_that_fails_rolls_back_alone_and_the_batch_goes_on(
    users: list, settings, monkeypatch, caplog
) -> None:
    settings.GAMES_SETTLE_BATCH = 10
    first, broken, last = _overdue_games(users, 3)
    before = Game.objects.get(pk=broken.pk)
    real = deadlines.record_timeout

    def fails_in_the_broken_game(game: Game, seat: Any, **kwargs: Any) -> bool:
        if game.pk == broken.pk:  # after its first timeout move was written: the savepoint must undo it
            raise RuntimeError("corrupt game")
        return real(game, seat, **kwargs)

    monkeypatch.setattr(deadlines, "record_timeout", fails_in_the_broken_game)
    with caplog.at_level(logging.ERROR, logger="apps.games.clock.settlement"):
        swept = clock.settle_overdue()

    after = Game.objects.get(pk=broken.pk)
    assert swept == 4
    assert _timed_out_seats(first) == [0, 1] and _timed_out_seats(last) == [0, 1]
    assert not Move.objects.filter(game=broken).exists()
    assert (after.version, after.state) == (before.version, before.state)
    assert Decision.objects.filter(game=broken, deadline__lte=timezone.now()).count() == 2
    assert [r.getMessage() for r in caplog.records] == [f"settling game {broken.pk} failed"]


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_three_sweeps_at_once_settle_each_decision_exactly_once(users: list, settings) -> None:
    settings.GAMES_SETTLE_BATCH = 3  # many small batches: the sweeps interleave and skip each other's
    games = _overdue_games(users, 12)
    start = threading.Barrier(3)
    results: list[int] = []
    errors: list[BaseException] = []

    def sweep() -> None:
        start.wait()
        try:
            results.append(clock.settle_overdue())
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)

    moves = Counter(Move.objects.filter(by_timeout=True).values_list("game_id", "seat"))
    assert not errors and len(results) == 3
    assert sum(results) == 24
    assert moves == Counter({(game.pk, seat): 1 for game in games for seat in (0, 1)})
    assert not Decision.objects.filter(deadline__lte=timezone.now()).exists()


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_the_sweep_skips_a_game_another_transaction_holds_instead_of_waiting(users: list) -> None:
    held, free = _overdue_games(users, 2)
    results: list[int] = []

    def sweep() -> None:
        try:
            results.append(clock.settle_overdue())
        finally:
            connection.close()

    with transaction.atomic():  # a move (or another worker) holds the game row
        Game.objects.select_for_update().get(pk=held.pk)
        thread = threading.Thread(target=sweep)
        thread.start()
        thread.join(60)
        assert not thread.is_alive(), "the sweep waited for a locked game"

    assert results == [2]
    assert _timed_out_seats(free) == [0, 1] and _timed_out_seats(held) == []
    assert clock.settle_overdue() == 2  # the next sweep settles it
    assert _timed_out_seats(held) == [0, 1]


def _spy_batches(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The SQL of every round trip ``apps.games.sql.batch`` makes from now on (it still runs them)."""
    from apps.games import sql

    sent: list[list[str]] = []
    real = sql.batch

    def batch(statements: Any, using: str = "default", **kwargs: Any) -> bool:
        sent.append([s.sql for s in statements])
        return real(statements, using, **kwargs)

    monkeypatch.setattr(sql, "batch", batch)
    return sent


@requires_postgres
@pytest.mark.django_db
def test_a_batch_is_written_in_one_round_trip_of_the_same_statements_whatever_its_size(
    users: list, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch's moves and decision rows go as few statements as the pipeline allows: the
    same write of every game is one multi-row statement, so 2 games and 9 games send the same ones."""
    settings.GAMES_HAND_SQL = True
    settings.GAMES_SETTLE_BATCH = 100
    writes_of = {}
    for count in (2, 9):
        games = _overdue_games(users, count)
        sent = _spy_batches(monkeypatch)
        assert clock.settle_overdue() == 2 * count
        monkeypatch.undo()
        # The mail outbox's row (people play these games) is still one INSERT a move, on its own: the
        # moves, game rows, seats and decision rows are what the batch shares.
        writes = [
            round_trip
            for round_trip in sent
            if round_trip[0].split()[0] != "SELECT" and "movemailoutbox" not in round_trip[0]
        ]
        assert len(writes) == 1, "one round trip writes the whole batch"
        writes_of[count] = sorted(writes[0])
        assert all(_timed_out_seats(game) == [0, 1] for game in games)
    assert writes_of[2] == writes_of[9]
    assert len(writes_of[9]) < 2 * 9, "statements are shared by the games, not one set per game"


@pytest.mark.django_db
def test_games_settled_together_end_as_if_settled_one_by_one(users: list, settings) -> None:
    """The batch's merged writes leave every game, move and decision row as the one-by-one path does."""
    settings.GAMES_SETTLE_BATCH = 10
    together = _overdue_games(users, 3)
    one_by_one = _overdue_games(users, 3)
    with transaction.atomic():
        assert settlement._settle_one_by_one([g.pk for g in one_by_one]) == 6
    assert clock.settle_overdue() == 6

    def stored(game: Game) -> Any:
        game.refresh_from_db()
        moves = Move.objects.filter(game=game).order_by("seq")
        decisions = Decision.objects.filter(game=game).order_by("seat", "decision_id")
        return (
            game.version,
            game.public_version,
            game.status,
            [(m.seq, m.public_seq, m.hidden, m.seat, m.action, m.events, m.by_timeout) for m in moves],
            [(d.kind, d.timing, d.deadline is not None) for d in decisions],
            sorted(game.seats.values_list("position", "consecutive_timeouts", "hidden_moves")),
        )

    # Same seeds would deal the same cards; the games differ by seed, so compare the shape of what was
    # written and, game by game, that the stored state is its seed and move log replayed.
    from apps.games.replay import verify_game

    shapes = {
        str([(v, pv, st, [m[:4] + m[6:] for m in moves], ds, seats)])
        for v, pv, st, moves, ds, seats in map(stored, together + one_by_one)
    }
    assert len(shapes) == 1
    assert all(verify_game(game_id=game.pk) is None for game in together + one_by_one)


@pytest.mark.django_db
def test_a_batch_whose_writes_fail_is_settled_again_game_by_game(
    users: list, settings, caplog: pytest.LogCaptureFixture
) -> None:
    """A game whose write fails in the database (here: a move number already taken) would fail the
    batch's shared statements; the batch is then rolled back and settled game by game, so only that
    game stays unsettled (and is logged) while the others commit."""
    settings.GAMES_SETTLE_BATCH = 10
    first, broken, last = _overdue_games(users, 3)
    broken.refresh_from_db()
    Move.objects.create(game=broken, seq=broken.version + 1, seat=0, action={"type": "x"}, events=[])

    with caplog.at_level(logging.WARNING, logger="apps.games.clock.settlement"):
        swept = clock.settle_overdue()

    assert swept == 4
    assert _timed_out_seats(first) == [0, 1] and _timed_out_seats(last) == [0, 1]
    assert _timed_out_seats(broken) == []
    assert Decision.objects.filter(game=broken, deadline__lte=timezone.now()).count() == 2
    messages = [r.getMessage() for r in caplog.records if r.name == "apps.games.clock.settlement"]
    assert messages[0].startswith(f"settling games {first.pk}-{last.pk} together failed (IntegrityError)")
    assert messages[1:] == [f"settling game {broken.pk} failed"]


@pytest.mark.django_db(transaction=True)
def test_a_batch_looks_up_its_games_webhooks_once_and_fans_out_only_where_one_is_registered(
    users: list, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every timeout move of a batch asks whether a seat of its game has a webhook: one query answers
    for the whole batch, and only the game with an endpoint gets its fan-out, as a webhook row of the
    outbox written in the batch's transaction."""
    from django.db import connections
    from django.test.utils import CaptureQueriesContext

    from apps.notifications import outbox
    from apps.notifications.models import MoveMailOutbox
    from apps.webhooks.models import WebhookEndpoint

    settings.GAMES_SETTLE_BATCH = 10
    settings.GAMES_SETTLE_THREADS = 1  # the queries are captured on this thread's connection
    hooked_user = users[2]
    plain = _overdue_games(users, 2)
    hooked = a_game("baobei", [users[0], hooked_user], players=2)
    overdue(hooked)
    WebhookEndpoint.objects.create(user=hooked_user, url="https://example.invalid/hook", secret="s" * 20)
    monkeypatch.setattr(outbox, "publish", lambda name, args, **kwargs: True)  # no worker here

    with CaptureQueriesContext(connections["default"]) as queries:
        assert clock.settle_overdue() == 6

    lookups = [q["sql"] for q in queries.captured_queries if "webhooks_webhookendpoint" in q["sql"]]
    assert len(lookups) == 1
    rows = MoveMailOutbox.objects.filter(channel=MoveMailOutbox.Channel.WEBHOOK)
    assert Counter(rows.values_list("game_id", flat=True)) == Counter({hooked.pk: 2})
    assert all(_timed_out_seats(game) == [0, 1] for game in [*plain, hooked])


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_one_process_sweeps_in_its_settle_threads_and_settles_each_decision_once(
    users: list, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside a transaction, on PostgreSQL, ``settle_overdue`` runs ``GAMES_SETTLE_THREADS`` sweeps at
    once, each on its own connection; they share the due games without settling one twice."""
    settings.GAMES_SETTLE_BATCH = 2
    settings.GAMES_SETTLE_THREADS = 3
    games = _overdue_games(users, 10)
    swept_in: list[str] = []
    real = settlement._sweep

    def recorded(now: Any) -> int:
        swept_in.append(threading.current_thread().name)
        return real(now)

    monkeypatch.setattr(settlement, "_sweep", recorded)
    assert clock.settle_overdue() == 20

    assert sorted(swept_in) == ["settle-0", "settle-1", "settle-2"]
    moves = Counter(Move.objects.filter(by_timeout=True).values_list("game_id", "seat"))
    assert moves == Counter({(game.pk, seat): 1 for game in games for seat in (0, 1)})
    assert not Decision.objects.filter(deadline__lte=timezone.now()).exists()


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_an_error_in_one_settle_thread_is_raised_to_the_sweep_after_the_others_end(
    users: list, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweep thread that fails outside a batch's savepoints (the database gone, say) does not vanish
    in its thread: the others finish their games and the sweep (its Celery task) raises the error."""
    from django.db import OperationalError

    settings.GAMES_SETTLE_BATCH = 2
    settings.GAMES_SETTLE_THREADS = 2
    games = _overdue_games(users, 4)
    real = settlement.settle_batch

    def fails_in_one_thread(**kwargs: Any) -> tuple[int | None, int]:
        if threading.current_thread().name == "settle-1":
            raise OperationalError("server closed the connection unexpectedly")
        return real(**kwargs)

    monkeypatch.setattr(settlement, "settle_batch", fails_in_one_thread)
    with pytest.raises(OperationalError, match="server closed"):
        clock.settle_overdue()

    assert all(_timed_out_seats(game) == [0, 1] for game in games)


@pytest.mark.django_db
def test_a_sweep_inside_a_transaction_settles_in_the_calling_thread(
    users: list, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Threads would not see the caller's uncommitted rows (nor could they hold their locks), so a sweep
    run inside a transaction, or on SQLite, settles in its own thread whatever GAMES_SETTLE_THREADS."""
    settings.GAMES_SETTLE_THREADS = 3
    games = _overdue_games(users, 2)
    swept_in: list[str] = []
    real = settlement._sweep
    monkeypatch.setattr(
        settlement, "_sweep", lambda now: swept_in.append(threading.current_thread().name) or real(now)
    )

    assert clock.settle_overdue() == 4

    assert swept_in == [threading.current_thread().name]
    assert all(_timed_out_seats(game) == [0, 1] for game in games)
