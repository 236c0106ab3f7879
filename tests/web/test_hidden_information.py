"""No page shows a face-down card or a private hand that the seat has not legitimately seen.

Complete bot games of both games are played through ``submit_action`` by signed-in people (the bots
choose their moves); after every move every seat's page and a spectator's page are rendered and their
drawn cards compared with ``engine.view(state, seat)`` (BB-30, BH-23).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from apps.games import pipeline, selectors
from baogame.rules.registry import get_bots, get_engine
from tests.factories import GameFactory, UserFactory

from .leaks import check_baobei_page, check_baohuang_page

pytestmark = pytest.mark.django_db

#: Small stacked Bao Huang deals (BH-25.4), so a game ends after a few short deals.
BH_DEALS = [
    {
        "hands": [
            ["RJ*", "K", "9", "6"],
            ["BJ*", "A", "7", "6"],
            ["2", "Q", "8", "7"],
            ["RJ", "J", "10", "8"],
            ["BJ", "K", "9", "6"],
        ]
    },
    {"hands": [["A", "A", "9"], ["RJ*", "6", "7"], ["BJ*", "Q", "Q"], ["K", "8", "8"], ["J", "10", "2"]]},
    {"hands": [["RJ*", "BJ*", "6", "7"], ["A", "8"], ["K", "9"], ["Q", "10"], ["J", "2"]]},
]


def play_and_check(game: Any, users: list[Any], client_for: Any, check: Any, max_moves: int) -> int:
    """Let the bots choose every seat's moves; after each, check every seat's page and a spectator's."""
    engine = get_engine(game.engine)
    bots, default = get_bots(game.engine)
    clients = [client_for(u) for u in users] + [client_for(None)]
    moves = 0
    while moves < max_moves:
        game.refresh_from_db()
        for position, c in enumerate(clients):
            seat = None if position == len(users) else position
            html = c.get(f"/games/{game.public_id}/").content.decode()
            check(html, engine.view(game.state, seat), seat, selectors.game_history(game=game, seat=seat))
            if game.is_over:
                assert game.seed in html
            else:
                assert game.seed not in html
        pending = engine.pending(game.state)
        if not pending:
            return moves
        seat = pending[0]["seats"][0]
        action = bots[default](engine.view(game.state, seat), random.Random(f"{game.pk}:{moves}"))
        pipeline.submit_action(game_id=game.pk, user=users[seat], action=action)
        moves += 1
    raise AssertionError("the game did not end")


def new_game(engine: str, players: int, options: dict[str, Any]) -> tuple[Any, list[Any]]:
    users = [UserFactory() for _ in range(players)]
    return GameFactory(engine=engine, players=players, seated=users, options=options), users


def test_bao_bei_pages_show_only_what_each_seat_has_seen_bb_30(client_for):
    game, users = new_game("baobei", 3, {"threshold": 15})

    moves = play_and_check(
        game,
        users,
        client_for,
        lambda html, view, seat, history: check_baobei_page(html, view, [h["event"] for h in history]),
        max_moves=400,
    )

    assert moves > 10


def test_bao_huang_pages_show_only_my_own_hand_bh_23(client_for):
    game, users = new_game("baohuang", 5, {"target_score": 1, "deals": BH_DEALS})

    moves = play_and_check(
        game,
        users,
        client_for,
        lambda html, view, seat, history: check_baohuang_page(html, view, seat),
        max_moves=400,
    )

    assert moves > 10


def test_the_leak_check_catches_a_page_drawn_from_the_referee_view(baobei_game, client_for, monkeypatch):
    """The check above can fail: a page built from ``referee_view`` is caught at once."""
    game, players = baobei_game
    engine = get_engine("baobei")
    monkeypatch.setattr(
        selectors,
        "game_view",
        lambda *, game, seat: {
            **engine.view(game.state, seat),
            "displays": engine.referee_view(game.state)["displays"],
        },
    )

    html = client_for(players[0]).get(f"/games/{game.public_id}/").content.decode()

    with pytest.raises(AssertionError, match="face the seat has not seen"):
        check_baobei_page(html, engine.view(game.state, 0), [])


def test_the_hand_check_catches_another_seats_hand(client_for, monkeypatch):
    """A page that drew seat 1's hand for seat 0 is caught."""
    game, users = new_game("baohuang", 5, {"deals": BH_DEALS})
    engine = get_engine("baohuang")
    monkeypatch.setattr(
        selectors,
        "game_view",
        lambda *, game, seat: {**engine.view(game.state, seat), "hand": engine.view(game.state, 1)["hand"]},
    )

    html = client_for(users[0]).get(f"/games/{game.public_id}/").content.decode()

    with pytest.raises(AssertionError, match="my hand differs"):
        check_baohuang_page(html, engine.view(game.state, 0), 0)
