"""Deadlines on a REAL Celery worker (Redis broker, PostgreSQL): acks_late and idempotent settling."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from apps.games import tasks
from apps.games.models import Decision, Game, Move
from tests.factories import UserFactory
from tests.support.celery_worker import celery_worker  # noqa: F401 - the module-scoped fixture

from .helpers import a_game, overdue

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def _timeouts(game: Game) -> list[int]:
    return list(
        Move.objects.filter(game=game, by_timeout=True).order_by("seq").values_list("seat", flat=True)
    )


def test_worker_settles_a_deadline_when_it_passes(celery_worker) -> None:  # noqa: F811
    users = [UserFactory() for _ in range(2)]
    # a 2-second bank for the setup peek, then an hour for the turn (queues the deadline task)
    bank = {"initial": 2, "increment": 3600, "cap": 3600}
    game = a_game("baobei", users, control="custom", control_custom=bank)
    deadline = Decision.objects.filter(game=game).values_list("deadline", flat=True).first()

    celery_worker.wait_for(lambda: len(_timeouts(game)) == 2, timeout=30)

    moves = Move.objects.filter(game=game).order_by("seq")
    assert all(m.created_at >= deadline for m in moves)
    assert [m.action["type"] for m in moves] == ["choose_peek", "choose_peek"]
    assert Decision.objects.get(game=game).kind == "turn_action"


def test_worker_killed_mid_task_and_started_again_loses_and_doubles_nothing(celery_worker, settings) -> None:  # noqa: F811
    settings.GAMES_SCHEDULE_TASKS = False  # only the task this test sends reaches the worker
    users = [UserFactory() for _ in range(2)]
    game = a_game("baobei", users)
    overdue(game)

    with transaction.atomic():  # hold the game row: the worker's task blocks inside settle_due
        Game.objects.select_for_update().get(pk=game.pk)
        tasks.settle_game.delay(game.pk)
        celery_worker.wait_for(lambda: _backends_waiting_on_a_lock() >= 1, timeout=30, close=False)
        celery_worker.kill()  # SIGKILL mid-task: the message was never acknowledged (acks_late)
    celery_worker.start()

    celery_worker.wait_for(lambda: len(_timeouts(game)) == 2, timeout=40)
    tasks.settle_game.delay(game.pk)  # a late duplicate finds nothing to do
    threading.Event().wait(5)  # longer than the visibility timeout: any redelivery has happened

    assert _timeouts(game) == [0, 1]
    assert list(Move.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]


def _backends_waiting_on_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute("select pg_stat_clear_snapshot()")
        cursor.execute(
            "select count(*) from pg_stat_activity where datname = current_database()"
            " and wait_event_type = 'Lock' and pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def test_sweeps_on_the_worker_and_here_at_once_apply_each_timeout_once(celery_worker, settings) -> None:  # noqa: F811
    from apps.games import clock

    settings.GAMES_SCHEDULE_TASKS = False
    users = [UserFactory() for _ in range(8)]
    games = [a_game("baobei", users[i : i + 2]) for i in range(0, 8, 2)]
    for game in games:
        overdue(game)

    tasks.sweep_due.delay()
    tasks.sweep_due.delay()
    for game in games:
        tasks.settle_game.delay(game.pk)
    clock.sweep()  # this process sweeps too, racing the worker
    celery_worker.wait_for(lambda: all(len(_timeouts(g)) >= 2 for g in games), timeout=30)
    threading.Event().wait(2)

    assert [_timeouts(g) for g in games] == [[0, 1]] * 4
