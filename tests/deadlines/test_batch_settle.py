"""Batched settlement (issue 18): the sweep claims due games in batches, settles each game in its own
savepoint, and several sweeps share the due games without settling a decision twice."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.games import clock, deadlines
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
    with caplog.at_level(logging.ERROR, logger="apps.games.clock"):
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
