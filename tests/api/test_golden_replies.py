"""The hot API replies, byte for byte: a move's reply and a ``/legal`` read of the same state and seat
are exactly what they were when these files were captured, for both games.

The lean request path (no session, cheaper authentication and JSON) must not change one byte of what a
client reads, so each case plays a seeded game to a fixed point through the API and compares the whole
body (and its status and content type) with a file under ``tests/api/golden/``. Each move is the first
legal action of the seat that must act, so the same moves are played on every run and database.

A replayed reply is the exception that depends on the database: its events are read back from the
stored move, and PostgreSQL's JSONB keeps an object's keys in its own order (shorter keys first), while
SQLite keeps them as written. Those files carry the database's name (``….postgresql.json``).

A change that adds a field on purpose regenerates the files on both databases (``DATABASE_URL`` naming
a PostgreSQL database), then shows them in its diff::

    make golden
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.db import connection

from apps.games import lifecycle as game_lifecycle
from apps.games.models import Game
from baogame.rules.registry import get_engine

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"

#: engine -> (players, moves before the captured move replies, moves before the captured reads). Bao Bei:
#: the second captured move is a draw, after which the mover decides again (a non-empty ``legal``); then
#: the reads come after a draw (the pluck choices). Bao Huang: the moves answer the declarations window, owned
#: by all five seats at once (BH-8.1, BH-8.4), and the reads are made while it is open.
GAMES = {"baobei": (2, 10, 12), "baohuang": (5, 1, 2)}


def _started(engine: str, users: list[Any], client_for: Any) -> tuple[Game, list[Any]]:
    """A seeded game of ``engine`` with every seat taken (users in seat order) and a client per seat."""
    players = GAMES[engine][0]
    with mock.patch("celery.app.task.Task.apply_async"):
        game = game_lifecycle.game_create(creator=users[0], engine=engine, players=players, options={})
        seed = f"golden-{engine}"  # before the last seat is taken: the deal comes from it
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_hash=hashlib.sha256(seed.encode()).hexdigest())
        for user in users[1:players]:
            game_lifecycle.game_join(game_id=game.pk, user=user)
    return game, [client_for(user) for user in users[:players]]


def _next_move(game: Game) -> tuple[int, dict[str, Any]]:
    """The seat that must act and its first legal action."""
    game.refresh_from_db()
    rules = get_engine(game.engine)
    seat = rules.pending(game.state)[0]["seats"][0]
    return seat, rules.legal_actions(game.state, seat)[0]


def _post(client: Any, game: Game, action: dict[str, Any], query: str, key: str) -> Any:
    with mock.patch("celery.app.task.Task.apply_async"):
        return client.post(
            f"/api/v1/games/{game.pk}/actions/{query}",
            {"action": action},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key,
        )


def _check(name: str, response: Any, status: int, *, per_database: bool = False) -> None:
    """The reply's status, content type and body are the golden file's, byte for byte."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    path = GOLDEN / (f"{name}.{connection.vendor}.json" if per_database else f"{name}.json")
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(response.content)
    assert response.content == path.read_bytes(), f"{name}: the reply differs from {path}"


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_a_move_reply_is_byte_identical_to_its_golden_file(engine: str, users: list, client_for: Any) -> None:
    """The default reply, the reply with ``?legal=N`` (the mover's own next actions) and a retry's
    replayed reply of the same move (same Idempotency-Key)."""
    game, clients = _started(engine, users, client_for)
    for n in range(GAMES[engine][1]):
        seat, action = _next_move(game)
        assert _post(clients[seat], game, action, "", f"warm-{n}").status_code == 201

    seat, action = _next_move(game)
    plain = _post(clients[seat], game, action, "", "golden-plain")
    seat, action = _next_move(game)
    with_legal = _post(clients[seat], game, action, "?legal=30", "golden-legal")
    replayed = _post(clients[seat], game, action, "?legal=30", "golden-legal")

    _check(f"{engine}-move", plain, 201)
    _check(f"{engine}-move-legal", with_legal, 201)
    _check(f"{engine}-move-replayed", replayed, 200, per_database=True)


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_a_legal_read_is_byte_identical_to_its_golden_file(engine: str, users: list, client_for: Any) -> None:
    """``/legal`` of the seat that must act (the default page and a later one), and of a seat that has
    nothing to decide."""
    game, clients = _started(engine, users, client_for)
    for n in range(GAMES[engine][2]):
        seat, action = _next_move(game)
        assert _post(clients[seat], game, action, "", f"warm-{n}").status_code == 201
    seat, _ = _next_move(game)
    idle = next(s for s in range(len(clients)) if s not in get_engine(engine).pending(game.state)[0]["seats"])

    default = clients[seat].get(f"/api/v1/games/{game.pk}/legal/")
    page = clients[seat].get(f"/api/v1/games/{game.pk}/legal/?offset=1&limit=3")
    nothing = clients[idle].get(f"/api/v1/games/{game.pk}/legal/")

    _check(f"{engine}-legal", default, 200)
    _check(f"{engine}-legal-page", page, 200)
    _check(f"{engine}-legal-idle", nothing, 200)
