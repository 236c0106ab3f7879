"""The SQL statements one move request costs are pinned, so they cannot silently grow.

Each move is posted through the API (token authentication, the pipeline, the after-commit receivers),
as the load test does, and every statement is counted: the request's and its after-commit work's. The
tasks a move queues are not run (a worker runs them, not the request), only counted as sent. Seeded
games, the first legal action of the seat that must act: the same moves every run.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.games import lifecycle as game_lifecycle
from apps.games import sql
from apps.games.models import Game
from baogame.rules.registry import get_engine

pytestmark = pytest.mark.django_db

#: (typical, most) statements of a move request, after-commit work included, and the typical round
#: trips to the database (a pipelined batch is one; on SQLite every statement is one). An ordinary Bao
#: Bei move: the savepoint (BEGIN in production, sent with the next batch); the token, then the game
#: locked (only while the token is good) with its seats and decisions, in one pipelined batch (on
#: SQLite the token is read first, by itself); the move's writes with the reliability record's
#: UPDATE, and in the same batch the ``move_recorded`` receivers' statements: the mail outbox row when
#: someone must be mailed, and the webhook row if a player has a webhook; the release (COMMIT: in a
#: request, which owns its transaction, it rides in the writes' batch instead,
#: ``tests/games/test_commit_with_writes.py``). A move that opens more decisions writes more rows in
#: the same batch; so do the time banks: one UPDATE per seat whose bank changed (the mover's bank
#: debited and credited, the next owner's started), in the move's batch, no round trip more; and the
#: move that closes a simultaneous decision answered in secret counts those hidden answers in the
#: reliability record (``reliability.hidden_told``, BB-30.6), in the same batch. Lower these when a
#: change saves one; raising them needs a reason in the commit.
PINNED = {"baobei": (12, 15, 4), "baohuang": (14, 21, 4)}
MOVES = 12


def _statements(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries]


def _spy(pipelined: list[str]) -> Any:
    """``sql.batch`` noting the statements it sends in one pipeline: they bypass Django's cursor, so
    ``CaptureQueriesContext`` does not see them (a batch of one, or on SQLite, goes through it)."""
    real = sql.batch

    def batch(statements: Any, using: str = "default", **kwargs: Any) -> bool:
        if connection.vendor == "postgresql" and len(statements) > 1:
            batch_no = len({line.split("]")[0] for line in pipelined}) + 1
            pipelined.extend(f"[pipeline {batch_no} of {len(statements)}] {s.sql}" for s in statements)
        return real(statements, using, **kwargs)

    return batch


def _play(engine: str, players: int, users: list[Any], client_for: Any, on_commit: Any) -> list[list[str]]:
    """Create and fill a seeded game, then post ``MOVES`` moves; the statements of each."""
    clients = [client_for(user) for user in users[:players]]
    with mock.patch("celery.app.task.Task.apply_async"), on_commit(execute=True):
        game = game_lifecycle.game_create(creator=users[0], engine=engine, players=players, options={})
        seed = f"query-count-{engine}"  # before the last seat is taken: the deal comes from it
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_hash=hashlib.sha256(seed.encode()).hexdigest())
        for user in users[1:players]:
            game_lifecycle.game_join(game_id=game.pk, user=user)
        for client in clients:  # each token's first use records it (then once per 5 minutes)
            assert client.get("/api/v1/me/").status_code == 200
    rules = get_engine(engine)
    moves = []
    for n in range(MOVES):
        game.refresh_from_db()
        pending = rules.pending(game.state)
        assert pending, "the game ended before the moves counted here"
        seat = pending[0]["seats"][0]
        action = rules.legal_actions(game.state, seat)[0]
        pipelined: list[str] = []
        with (
            mock.patch("celery.app.task.Task.apply_async"),  # queued, not run: a worker runs them
            mock.patch.object(sql, "batch", _spy(pipelined)),
            CaptureQueriesContext(connection) as captured,
            on_commit(execute=True),
        ):
            response = clients[seat].post(
                f"/api/v1/games/{game.pk}/actions/?legal=30",
                {"action": action},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"move-{n}",
            )
        assert response.status_code == 201, response.json()
        moves.append(_statements(captured) + pipelined)
    return moves


def _round_trips(statements: list[str]) -> int:
    """Statements sent alone, plus one per pipelined batch."""
    batches = {line.split("]")[0] for line in statements if line.startswith("[pipeline ")}
    return sum(not line.startswith("[pipeline ") for line in statements) + len(batches)


def _check(engine: str, moves: list[list[str]]) -> None:
    counts = [len(m) for m in moves]
    typical = Counter(counts).most_common(1)[0][0]
    trips = Counter(_round_trips(m) for m in moves).most_common(1)[0][0]
    listing = "\n".join(moves[counts.index(max(counts))])
    expected = PINNED[engine] if connection.vendor == "postgresql" else PINNED[engine][:2] + (typical,)
    assert (typical, max(counts), trips) == expected, (
        f"statements per move {counts}; the costliest:\n{listing}"
    )


def test_a_bao_bei_move_request_costs_a_pinned_number_of_statements(
    users: list[Any], client_for: Any, django_capture_on_commit_callbacks: Any
) -> None:
    moves = _play("baobei", 2, users, client_for, django_capture_on_commit_callbacks)

    _check("baobei", moves)


def test_a_bao_huang_move_request_costs_a_pinned_number_of_statements(
    users: list[Any], client_for: Any, django_capture_on_commit_callbacks: Any
) -> None:
    moves = _play("baohuang", 5, users, client_for, django_capture_on_commit_callbacks)

    _check("baohuang", moves)
