"""``?fields=`` on a move: a smaller reply with only the keys a client asks for, each exactly as in the
whole reply; an unknown key is refused before anything is applied. Without it the reply is whole
(``test_golden_replies``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from apps.games.models import Game

from .test_golden_replies import GAMES, GOLDEN, _next_move, _post, _started

pytestmark = pytest.mark.django_db


def test_a_move_with_fields_answers_only_those_keys_as_the_whole_reply_has_them(
    users: list, client_for: Any
) -> None:
    """The same move as the golden ``baobei-move-legal`` reply, asked for its decisions and legal
    actions only."""
    game, clients = _started("baobei", users, client_for)
    for n in range(GAMES["baobei"][1] + 1):
        seat, action = _next_move(game)
        assert _post(clients[seat], game, action, "", f"warm-{n}").status_code == 201
    seat, action = _next_move(game)

    brief = _post(clients[seat], game, action, "?legal=30&fields=decisions,legal", "brief")

    whole = json.loads((GOLDEN / "baobei-move-legal.json").read_bytes())
    assert brief.status_code == 201
    assert brief.json() == {"decisions": whole["decisions"], "legal": whole["legal"]}


@pytest.mark.parametrize("fields", ["version,cards", ""])
def test_unknown_or_no_fields_are_refused_and_nothing_is_applied(
    users: list, client_for: Any, fields: str
) -> None:
    game, clients = _started("baobei", users, client_for)
    seat, action = _next_move(game)
    version = Game.objects.get(pk=game.pk).version

    refused = _post(clients[seat], game, action, f"?fields={fields}", "refused")

    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid" and "fields" in refused.json()["errors"]
    assert Game.objects.get(pk=game.pk).version == version
