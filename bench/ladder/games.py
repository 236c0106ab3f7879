"""Real games for the ladder's playing rungs, with every move of each written down before the run.

A game is created and joined through ``lifecycle`` (two players, Bao Bei, as the load test plays),
then played out in this process with the engine alone: for the seat that must act, a random action
among the first 30 legal ones (what the load test picks from ``?legal=30``). Nothing but the moves
changes a game in play (no deadline falls due in a run, no seat skips windows), so the server reaches
the same states, and each request of the run is a legal move that the site applies. The requests are
made as bytes beforehand, so the driver does not play during the run.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model

from apps.games import lifecycle
from apps.games.models import Game
from baogame.rules.registry import get_engine

from .driver import request

#: Moves a game may last at most (a guard; two-player Bao Bei games end far sooner).
LONGEST = 400


def script(state: dict[str, Any], rng: random.Random) -> list[tuple[int, dict[str, Any]]]:
    """The moves (seat, action) of a game played from ``state`` to its end."""
    engine: Any = get_engine("baobei")  # Bao Bei's engine has legal_page besides the contract
    moves: list[tuple[int, dict[str, Any]]] = []
    while len(moves) < LONGEST:
        pending = engine.pending(state)
        if not pending:
            break
        seat = pending[0]["seats"][0]
        _, page = engine.legal_page(state, seat, 0, 30)
        action = rng.choice(page)
        state, _ = engine.apply(state, seat, action)
        moves.append((seat, action))
    return moves


def move_request(game_id: int, token: str, action: dict[str, Any]) -> bytes:
    """The load test's move request: a new ``Idempotency-Key`` and ``?legal=30``."""
    body = json.dumps({"action": action}).encode()
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json",
        "Content-Type": "application/json",
        "Idempotency-Key": secrets.token_hex(8),
    }
    return request("POST", f"/api/v1/games/{game_id}/actions/?legal=30", headers, body)


def prepared(usernames: list[str], tokens: list[str], games: int, rng: random.Random) -> list[bytes]:
    """``games`` new games of the two players (seat 0, seat 1) and the requests of all their moves."""
    users = list(get_user_model().objects.filter(username__in=usernames))
    users.sort(key=lambda u: usernames.index(u.username))
    requests: list[bytes] = []
    for _ in range(games):
        game = lifecycle.game_create(creator=users[0], engine="baobei", players=2)
        lifecycle.game_join(game_id=game.pk, user=users[1])
        state = Game.objects.values_list("state", flat=True).get(pk=game.pk)
        assert state is not None, "the game starts once both seats are taken"
        requests += [move_request(game.pk, tokens[seat], action) for seat, action in script(state, rng)]
    return requests


def source(requests: list[bytes]) -> Iterator[bytes]:
    return iter(requests)
