"""Closing an account on PostgreSQL, with real connections: each game is let go of in a transaction of
its own, holding that game's row only (DESIGN.md, one move end to end, step 1), so the games already let
go of and the others are played meanwhile; a task and the sweep racing on the same games each hand a
seat to the bot once."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection, transaction

from apps.accounts.closing import account_close
from apps.games import closing, lifecycle, pipeline, reliability
from apps.games.models import Game, Move, Seat
from baogame.rules.registry import get_engine
from tests.conftest import requires_postgres
from tests.factories import GameFactory
from tests.support.race import race

pytestmark = [pytest.mark.django_db(transaction=True), requires_postgres]
PASSWORD = "pw-for-tests-123"  # tests.factories.UserFactory's


def _closed_without_its_task(user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commit the closing's own transaction only; the games are let go of by the test."""
    monkeypatch.setattr(closing.scheduling, "queue_closed_account", lambda user_id: None)
    account_close(user=user, password=PASSWORD)


def test_a_move_in_a_game_let_go_of_is_not_blocked_while_the_closing_holds_the_next_game(
    toy_engine: str, users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The closing's connection stops inside its step of the second game, that game's row locked; a move
    of the first game, on another connection, goes through at once: the first game's step committed
    on its own instead of keeping its row locked until every game is done."""
    ann = users[5]
    first = GameFactory(engine=toy_engine, players=2, seated=[users[0], ann], options={"hand": 5})
    second = GameFactory(engine=toy_engine, players=2, seated=[users[1], ann], options={"hand": 5})
    _closed_without_its_task(ann, monkeypatch)
    inside, release = threading.Event(), threading.Event()
    real_to_bot = lifecycle.seat_to_bot

    def held_in_the_second(locked: Any, seat: Any) -> bool:
        if locked.game.pk == second.pk:
            inside.set()
            release.wait(30)
        return real_to_bot(locked, seat)

    monkeypatch.setattr(lifecycle, "seat_to_bot", held_in_the_second)

    def let_go() -> None:
        try:
            closing.closed_account_let_go(user_id=ann.pk)
        finally:
            connection.close()

    closer = threading.Thread(target=let_go)
    closer.start()
    assert inside.wait(10), "the closing never reached the second game"
    state = Game.objects.get(pk=first.pk).state
    decision = get_engine(toy_engine).pending(state)[0]
    action = {"type": "play", "decision_id": decision["decision_id"], "card": state["hands"][0][0]}
    moved: list[Any] = []

    def move() -> None:
        try:
            moved.append(pipeline.submit_action(game_id=first.pk, user=users[0], action=action))
        finally:
            connection.close()

    mover = threading.Thread(target=move)
    mover.start()
    mover.join(10)
    blocked = mover.is_alive()
    release.set()
    closer.join(30)
    mover.join(30)

    assert not blocked, "the move waited for the closing of another game"
    assert len(moved) == 1 and Move.objects.filter(game=first, seat=0).count() == 1
    assert all(Seat.objects.get(game=g, user=ann).bot_takeover for g in (first, second))


def test_the_task_and_the_sweep_racing_on_the_same_games_hand_each_seat_to_the_bot_once(
    toy_engine: str, users: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each step reads the seat under its game's lock: whichever connection comes second finds it done."""
    ann = users[5]
    games = [GameFactory(engine=toy_engine, players=2, seated=[users[i], ann]) for i in range(3)]
    _closed_without_its_task(ann, monkeypatch)
    marked: Counter[int] = Counter()
    lock = threading.Lock()
    real_mark = reliability.handed_to_bot

    def mark(seat: Any) -> None:
        real_mark(seat)
        game_id = seat.game_id

        def committed() -> None:
            with lock:
                marked[game_id] += 1

        transaction.on_commit(committed)

    monkeypatch.setattr(reliability, "handed_to_bot", mark)

    results = race(
        [
            lambda: closing.closed_account_let_go(user_id=ann.pk),
            closing.closed_accounts_sweep,
            lambda: closing.closed_account_let_go(user_id=ann.pk),
        ]
    )

    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(results) == 3
    assert marked == {g.pk: 1 for g in games}
    assert all(Seat.objects.get(game=g, user=ann).bot_takeover for g in games)
