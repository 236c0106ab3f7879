"""Concurrency on PostgreSQL: lock order decides plucks; concurrent settlement applies timeouts once."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction

from apps.games import clock, pipeline
from apps.games.models import Game, Move, Seat
from apps.games.store import LockedGame
from baogame.rules.core import RuleError
from tests.conftest import requires_postgres
from tests.factories import UserFactory

from .helpers import a_game, baobei_window, overdue, pending

pytestmark = [requires_postgres, pytest.mark.django_db(transaction=True)]


def _waiting_on_locks() -> int:
    with connection.cursor() as cursor:
        cursor.execute("select pg_stat_clear_snapshot()")  # statistics are cached per transaction
        cursor.execute(
            "select count(*) from pg_stat_activity where datname = current_database()"
            " and wait_event_type = 'Lock' and pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def _run(threads: list[threading.Thread], *, queued: int) -> None:
    """Start ``threads`` and wait until ``queued`` connections wait on the game row lock in total."""
    for t in threads:
        t.start()
    for _ in range(3000):
        if _waiting_on_locks() >= queued:
            return
        threading.Event().wait(0.01)
    raise AssertionError(f"only {_waiting_on_locks()} of {queued} attempts queued on the lock")


def test_fifty_racing_plucks_resolve_exactly_one_the_first_valid_by_lock_order_bb_6_6(monkeypatch) -> None:
    users = [UserFactory() for _ in range(6)]
    game = baobei_window(users, players=6)
    window = pending(game)[0]
    owners = window["seats"]
    order: list[int] = []
    outcome: dict[int, str] = {}
    real_settle = pipeline.settle

    def settle_recording_lock_order(locked_game: LockedGame, now: Any) -> int:
        index = threading.current_thread().index
        if index not in order:  # submit_action calls this right after taking the row lock
            order.append(index)  # (later calls come from the deadline task queued on commit)
        return real_settle(locked_game, now)

    monkeypatch.setattr(pipeline, "settle", settle_recording_lock_order)

    def attempt(index: int) -> None:
        threading.current_thread().index = index
        seat = owners[index % len(owners)]
        slot = 9 if index < 25 else 0  # the first 25 name a slot that does not exist: refused
        try:
            pipeline.submit_action(
                game_id=game.pk,
                user=users[seat],
                action={
                    "type": "pluck",
                    "decision_id": window["decision_id"],
                    "kind": "single",
                    "targets": [{"seat": seat, "slot": slot}],
                    "gifts": [None],
                },
            )
            outcome[index] = "accepted"
        except RuleError as exc:
            outcome[index] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(50)]
    with transaction.atomic():  # hold the row lock while all 50 queue behind it, illegal ones first
        Game.objects.select_for_update().get(pk=game.pk)
        _run(threads[:25], queued=25)
        _run(threads[25:], queued=50)
    for t in threads:
        t.join(60)

    accepted = [i for i, result in outcome.items() if result == "accepted"]
    winner = accepted[0]
    position = order.index(winner)
    valid = [i for i in order if i >= 25]
    assert len(order) == 50 and len(accepted) == 1
    assert winner == valid[0]
    assert position > 0, "an illegal attempt took the lock before the winner"
    assert all(outcome[i] == "invalid_position" for i in order[:position])
    assert all(outcome[i] in {"window_closed", "stale_decision"} for i in order[position + 1 :])
    assert Move.objects.filter(game=game, action__type="pluck").count() == 1


def test_two_sweeps_and_a_deadline_task_at_once_apply_each_timeout_once() -> None:
    users = [UserFactory() for _ in range(6)]
    games = [a_game("baobei", users[i : i + 2], players=2) for i in (0, 2, 4)]
    for game in games:
        overdue(game)  # both seats' setup peeks are overdue
    start = threading.Barrier(3)
    results: list[int] = []

    def run(fn: Any) -> None:
        start.wait()
        try:
            results.append(fn())
        finally:
            connection.close()

    workers = [
        threading.Thread(target=run, args=(clock.sweep,)),
        threading.Thread(target=run, args=(clock.sweep,)),
        threading.Thread(target=run, args=(lambda: clock.settle_game(games[0].pk),)),
    ]
    for t in workers:
        t.start()
    for t in workers:
        t.join(60)

    assert sum(results) == 6
    for game in games:
        moves = Move.objects.filter(game=game, by_timeout=True)
        assert sorted(moves.values_list("seat", flat=True)) == [0, 1]


def test_empty_banks_time_out_once_under_concurrent_settlement_and_keep_only_the_increment() -> None:
    """Every seat's bank runs out in the setup peek; two sweeps and a deadline task settle at once:
    each timeout applies once (the existing timeout path), and each bank is then the increment."""
    users = [UserFactory() for _ in range(6)]
    bank = {"initial": 60, "increment": 30, "cap": 60}
    games = [
        a_game("baobei", users[i : i + 2], players=2, control="custom", control_custom=bank)
        for i in (0, 2, 4)
    ]
    for game in games:
        overdue(game)
    start = threading.Barrier(3)
    results: list[int] = []

    def run(fn: Any) -> None:
        start.wait()
        try:
            results.append(fn())
        finally:
            connection.close()

    workers = [
        threading.Thread(target=run, args=(clock.sweep,)),
        threading.Thread(target=run, args=(clock.sweep,)),
        threading.Thread(target=run, args=(lambda: clock.settle_game(games[-1].pk),)),
    ]
    for t in workers:
        t.start()
    for t in workers:
        t.join(60)

    assert sum(results) == 6
    for game in games:
        assert sorted(Move.objects.filter(game=game, by_timeout=True).values_list("seat", flat=True)) == [
            0,
            1,
        ]
        seats = Seat.objects.filter(game=game).order_by("position")
        assert [(s.bank_seconds, s.consecutive_timeouts) for s in seats] == [(30, 1), (30, 1)]
