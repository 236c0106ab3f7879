"""The replies about a game's set-up, field for field: creating a game, joining it by its invitation
(the join that leaves a seat open, and the one that fills the table and starts the game) and reading it
(each player, a spectator) answer exactly what they did when the files under ``tests/api/golden/``
were captured, on either database.

What changes from run to run is put in words first, each value in the order it first appears: the
game's number, its public id and invitation token, the players' names and every moment (``<time 1>``,
…). Everything else, the fields' order included, is compared as it is. The games are seeded, so the
deal, the views and the decisions are the same on every run. Regenerate the files as the other golden
replies are (``make golden``) after a change to these replies on purpose.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any
from unittest import mock

import pytest

from apps.accounts.models import display_name
from apps.games.models import Game

from .test_golden_replies import GOLDEN, UPDATE

pytestmark = pytest.mark.django_db

_MOMENT = re.compile(r'"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?"')


def _in_words(body: bytes, names: dict[str, str]) -> str:
    """The reply's text with its run's own values named (``names``: value -> word), moments numbered."""
    text = body.decode()
    for value, word in names.items():
        text = text.replace(value, word)
    moments: dict[str, str] = {}
    return _MOMENT.sub(lambda m: moments.setdefault(m.group(0), f'"<time {len(moments) + 1}>"'), text)


def _check(name: str, response: Any, status: int, names: dict[str, str]) -> None:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    text = _in_words(response.content, names)
    path = GOLDEN / f"{name}.json"
    if UPDATE:
        path.write_text(text)
    assert text == path.read_text(), f"{name}: the reply differs from {path}"


def _post(client: Any, path: str, body: dict[str, Any]) -> Any:
    with mock.patch("celery.app.task.Task.apply_async"):
        return client.post(path, body, format="json")


def _create(client: Any, players: int) -> tuple[Any, Game]:
    """A Bao Bei game of ``players`` created by ``client``'s user, seeded before anyone joins."""
    created = _post(client, "/api/v1/games/", {"engine": "baobei", "players": players, "title": "Golden"})
    game = Game.objects.get(pk=created.json()["id"])
    seed = f"golden-setup-{players}"  # before the last seat is taken: the deal comes from it
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_hash=hashlib.sha256(seed.encode()).hexdigest())
    return created, game


def _names(game: Game, token: str, users: list[Any]) -> dict[str, str]:
    return {
        json.dumps(game.public_id)[1:-1]: "<public id>",
        token: "<invite token>",
        **{display_name(user): f"<player {n}>" for n, user in enumerate(users)},
        f'"id":{game.pk},': '"id":"<game>",',
        f"/games/{game.pk}/": "/games/<game>/",
    }


def test_a_two_player_game_is_created_joined_and_read_as_the_golden_files(
    users: list[Any], client_for: Any
) -> None:
    """The creation's reply (with its invitation), the join that starts the game, and the game read by
    each seat and by a spectator."""
    clients = [client_for(user) for user in users[:3]]

    created, game = _create(clients[0], 2)
    token = created.json()["invite_token"]
    joined = _post(clients[1], "/api/v1/games/join/", {"invite_token": token})
    details = [client.get(f"/api/v1/games/{game.pk}/") for client in clients]

    names = _names(game, token, users[:3])
    _check("setup-create", created, 201, names)
    _check("setup-join-starts", joined, 200, names)
    for seat, detail in enumerate(details):
        _check(f"setup-detail-{seat if seat < 2 else 'spectator'}", detail, 200, names)


def test_a_join_that_leaves_a_seat_open_answers_as_its_golden_file(users: list[Any], client_for: Any) -> None:
    """The join of a three-player game's second seat (the game still waits) and that game read by its
    creator."""
    clients = [client_for(user) for user in users[:2]]

    created, game = _create(clients[0], 3)
    token = created.json()["invite_token"]
    joined = _post(clients[1], "/api/v1/games/join/", {"invite_token": token, "position": 2})
    detail = clients[0].get(f"/api/v1/games/{game.pk}/")

    names = _names(game, token, users[:2])
    _check("setup-join-waits", joined, 200, names)
    _check("setup-detail-waiting", detail, 200, names)
