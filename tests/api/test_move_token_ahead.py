"""A move request with a token reads the token in the round trip that locks the game
(``authentication.TokenAhead``): the lock holds only while the token is good, and every refusal is
the one it was when the token was read first, in the same order (DESIGN.md, the move pipeline)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections, transaction

from apps.api.models import ApiToken
from apps.games.models import Game, Move
from baogame.rules.registry import get_engine
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

BAD_HEADERS = ["Bearer not-a-token", "Bearer", "Bearer two words", "Token \u00e9t\u00e9"]


def _action(game: Game) -> dict[str, Any]:
    """Seat 0's first legal action (seat 0 acts first)."""
    game.refresh_from_db()
    return get_engine(game.engine).legal_actions(game.state, 0)[0]


def _move(client: Any, game: Game, body: Any, **headers: Any) -> Any:
    return client.post(f"/api/v1/games/{game.pk}/actions/", body, format="json", **headers)


def _stranger(client_for: Any, header: str) -> Any:
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION=header.encode("utf-8").decode("latin-1"))
    return client


@pytest.mark.parametrize("header", BAD_HEADERS, ids=["unknown", "no-token", "two-words", "not-ascii"])
def test_a_move_with_a_bad_token_is_refused_401_and_writes_nothing(
    header: str, toy_game: Game, client_for: Any
) -> None:
    answer = _move(_stranger(client_for, header), toy_game, {"action": _action(toy_game)})

    assert answer.status_code == 401 and answer.json()["code"] in {
        "authentication_failed",
        "not_authenticated",
    }
    assert "WWW-Authenticate" in answer
    assert not Move.objects.filter(game=toy_game).exists()


def test_a_move_with_a_revoked_token_or_by_an_inactive_user_is_refused(
    toy_game: Game, users: list[Any], client_for: Any
) -> None:
    revoked, inactive = client_for(users[0]), client_for(users[1])
    ApiToken.objects.filter(user=users[0]).delete()
    users[1].is_active = False
    users[1].save(update_fields=["is_active"])

    assert _move(revoked, toy_game, {"action": _action(toy_game)}).status_code == 401
    assert _move(inactive, toy_game, {"action": _action(toy_game)}).status_code == 401
    assert not Move.objects.filter(game=toy_game).exists()


@pytest.mark.parametrize(
    ("body", "headers"),
    [
        ({"nothing": 1}, {}),  # no action
        ({"action": "play"}, {}),  # not an object
        ({"action": {"type": "play"}}, {"HTTP_IDEMPOTENCY_KEY": "x" * 200}),  # a key too long
    ],
    ids=["no-action", "action-not-object", "bad-key"],
)
def test_a_bad_request_with_a_bad_token_is_refused_for_the_token_first(
    body: Any, headers: dict[str, str], toy_game: Game, users: list[Any], client_for: Any
) -> None:
    """Refusals found before the lock's round trip still come after the token's, as when the token was
    read before anything else: a caller without a good token learns only that."""
    stranger = _stranger(client_for, "Bearer not-a-token")
    player = client_for(users[0])

    assert _move(stranger, toy_game, body, **headers).status_code == 401
    assert _move(player, toy_game, body, **headers).status_code in {400, 422}


def test_a_move_over_the_write_limit_is_refused_429_and_writes_nothing(
    toy_game: Game, users: list[Any], client_for: Any, settings: Any
) -> None:
    settings.API_WRITE_RATE = "1/min"
    player = client_for(users[0])
    player.post("/api/v1/tokens/", {"name": "uses the one write"}, format="json")

    answer = _move(player, toy_game, {"action": _action(toy_game)})

    assert answer.status_code == 429 and answer.json()["code"] == "throttled"
    assert not Move.objects.filter(game=toy_game).exists()


@pytest.mark.django_db(transaction=True)
def test_a_move_with_a_bad_token_does_not_wait_for_the_games_lock(
    toy_engine: str, users: list[Any], client_for: Any
) -> None:
    """Another transaction holds the game's row lock (a move being made); a request with a bad token
    is answered at once, not after it: its lock statement finds no game to lock."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite lets one writer in at a time)")
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    held, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                held.set()
                release.wait(20)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert held.wait(10)
        with connection.cursor() as cursor:  # waiting for the lock would fail the request, not hang it
            cursor.execute("SET lock_timeout = '5s'")
        answer = _move(_stranger(client_for, "Bearer not-a-token"), game, {"action": _action(game)})
        lock_still_held = not release.is_set() and holder.is_alive()
    finally:
        release.set()
        holder.join(30)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")

    assert answer.status_code == 401
    assert lock_still_held
