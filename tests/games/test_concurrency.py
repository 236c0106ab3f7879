"""Concurrent submissions on PostgreSQL: the game row lock serialises moves (DESIGN.md step 1)."""

from __future__ import annotations

import pytest

from apps.games import pipeline
from apps.games.models import Move
from baogame.rules.core import RuleError
from baogame.rules.registry import get_engine
from tests.conftest import requires_postgres
from tests.factories import GameFactory
from tests.support.race import race

pytestmark = [pytest.mark.django_db(transaction=True), requires_postgres]


def test_the_same_move_from_many_threads_applies_once(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2], options={"hand": 5})
    decision = get_engine(toy_engine).pending(game.state)[0]
    action = {"type": "play", "decision_id": decision["decision_id"], "card": game.state["hands"][0][0]}

    results = race([lambda: pipeline.submit_action(game_id=game.pk, user=users[0], action=dict(action))] * 12)

    applied = [r for r in results if isinstance(r, pipeline.MoveResult)]
    refused = [r for r in results if isinstance(r, RuleError)]
    assert len(applied) == 1 and len(refused) == 11
    assert {r.code for r in refused} == {"stale_decision"}
    assert Move.objects.filter(game=game).count() == 1


def test_concurrent_answers_to_one_window_each_apply_once_in_lock_order(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=4, seated=users[:4], options={"hand": 5})
    engine = get_engine(toy_engine)
    first = engine.pending(game.state)[0]
    pipeline.submit_action(
        game_id=game.pk,
        user=users[0],
        action={"type": "play", "decision_id": first["decision_id"], "card": game.state["hands"][0][0]},
    )
    game.refresh_from_db()
    window = engine.pending(game.state)[0]

    results = race(
        [
            (
                lambda u=u: pipeline.submit_action(
                    game_id=game.pk, user=u, action={"type": "pass", "decision_id": window["decision_id"]}
                )
            )
            for u in users[1:4]
        ]
    )

    assert all(isinstance(r, pipeline.MoveResult) for r in results)
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    assert [m.seq for m in moves] == [1, 2, 3, 4]
    assert sorted(m.seat for m in moves[1:]) == [1, 2, 3]
    assert sorted(r.move.seq for r in results) == [2, 3, 4]


def test_a_retried_request_with_one_idempotency_key_applies_once(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2], options={"hand": 5})
    decision = get_engine(toy_engine).pending(game.state)[0]
    action = {"type": "play", "decision_id": decision["decision_id"], "card": game.state["hands"][0][0]}

    results = race(
        [lambda: pipeline.submit_action(game_id=game.pk, user=users[0], action=dict(action), key="retry-1")]
        * 8
    )

    assert all(isinstance(r, pipeline.MoveResult) for r in results), results
    assert sum(not r.replayed for r in results) == 1
    assert Move.objects.filter(game=game).count() == 1
