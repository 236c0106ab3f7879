"""``/api/v1/games/{id}/orders/``: my standing orders, own seat only, stable error codes."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import pipeline
from apps.games.models import Game, Move
from tests.factories import GameFactory, UserFactory
from tests.support.bh_turns import ORDERS_HANDS, five_at_play

pytestmark = pytest.mark.django_db

HANDS = ORDERS_HANDS


@pytest.fixture
def bh() -> tuple[Game, list[Any]]:
    """A Bao Huang game of five people at the start of play: seat 0 leads."""
    game, people = five_at_play()
    return game, people


def test_put_get_delete_my_orders(client_for: Any, bh: tuple[Game, list[Any]]) -> None:
    """PUT sets the whole list, GET lists it, DELETE clears it (204)."""
    game, people = bh
    me = client_for(people[1])
    url = f"/api/v1/games/{game.pk}/orders/"

    put = me.put(
        url,
        {"orders": [{"kind": "pass_unbeatable"}, {"kind": "declare", "params": {"answer": "pledge"}}]},
        format="json",
    )
    listed = me.get(url).json()
    cleared = me.delete(url)

    assert put.status_code == 200
    assert [o["kind"] for o in listed["orders"]] == ["pass_unbeatable", "declare"]
    assert listed["orders"][0] == {
        "kind": "pass_unbeatable",
        "params": {},
        "bound": None,
        "text": "pass when I cannot beat",
    }
    assert cleared.status_code == 204 and me.get(url).json() == {"orders": []}


def test_an_order_set_by_api_answers_when_the_turn_comes_bh_12_5(
    client_for: Any, bh: tuple[Game, list[Any]]
) -> None:
    """BH-12.5: "pass when I cannot beat" set by API passes seat 1 after seat 0's A A."""
    game, people = bh
    client_for(people[1]).put(
        f"/api/v1/games/{game.pk}/orders/", {"orders": [{"kind": "pass_unbeatable"}]}, format="json"
    )

    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "play", "cards": ["A", "A"]})

    # Compared in Python: on SQLite a JSON field is matched as text, and the stored JSON is compact.
    assert {"type": "pass"} in [m.action for m in Move.objects.filter(game=game, seat=1)]


@pytest.mark.parametrize(
    ("orders", "code"),
    [
        ([{"kind": "autopass"}], "unknown_order"),
        ([{"kind": "offer", "params": {"answer": "maybe"}}], "invalid_order"),
        ([{"kind": "play_if_beats", "params": {"cards": ["RJ"]}}], "card_not_in_hand"),
        (
            [{"kind": "pass_unbeatable"}, {"kind": "play_if_beats", "params": {"cards": ["7", "8"]}}],
            "not_a_combination",
        ),
    ],
)
def test_bad_orders_are_refused_with_a_stable_code_and_nothing_is_stored(
    client_for: Any, bh: tuple[Game, list[Any]], orders: list, code: str
) -> None:
    game, people = bh
    me = client_for(people[1])
    url = f"/api/v1/games/{game.pk}/orders/"

    refused = me.put(url, {"orders": orders}, format="json")

    assert refused.status_code == 400 and refused.json()["code"] == code
    assert me.get(url).json() == {"orders": []}


def test_another_users_orders_are_never_shown(client_for: Any, bh: tuple[Game, list[Any]]) -> None:
    """Own seat only: another player lists only their own (empty) orders; a user without a seat gets
    403 ``not_seated``; anonymous 401; nobody sees seat 1's order anywhere in the game's API reads."""
    game, people = bh
    url = f"/api/v1/games/{game.pk}/orders/"
    client_for(people[1]).put(
        url, {"orders": [{"kind": "play_if_beats", "params": {"cards": ["K"]}}]}, format="json"
    )

    other = client_for(people[2])
    stranger = client_for(UserFactory())

    assert other.get(url).json() == {"orders": []}
    assert stranger.get(url).status_code == 403 and stranger.get(url).json()["code"] == "not_seated"
    assert stranger.put(url, {"orders": []}, format="json").status_code == 403
    assert stranger.delete(url).status_code == 403
    assert client_for(None).get(url).status_code in (401, 403)
    for read in ("", "history/", "legal/"):
        body = other.get(f"/api/v1/games/{game.pk}/{read}").content.decode()
        assert "play_if_beats" not in body and "orders" not in body


def test_a_game_i_may_not_see_is_404(client_for: Any, bh: tuple[Game, list[Any]]) -> None:
    game, people = bh
    assert client_for(people[1]).get(f"/api/v1/games/{game.pk + 1000}/orders/").status_code == 404


def test_no_answer_ahead_for_a_next_deal_of_a_one_deal_game_bh_17_6(client_for: Any) -> None:
    """BH-17.6: in play, a one-deal game has no next deal due (one comes only after a shared lead,
    BH-17.3): an offer or a declaration for it is refused with ``no_next_deal`` (400), all or nothing;
    the same PUT in a two-deal game sets them for deal 2."""
    people = [UserFactory() for _ in range(5)]
    options = [{"deals": [{"hands": HANDS}], "deal_limit": limit} for limit in (1, 2)]
    games = [GameFactory(engine="baohuang", players=5, seated=people, options=o) for o in options]
    for game in games:
        pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
        for seat in range(5):
            pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})
    me = client_for(people[1])
    wanted = [{"kind": "pass_unbeatable"}, {"kind": "offer", "params": {"answer": "keep"}}]

    refused = [
        me.put(f"/api/v1/games/{games[0].pk}/orders/", {"orders": o}, format="json")
        for o in (
            wanted,
            [{"kind": "declare", "params": {"answer": "none"}}],
        )
    ]
    accepted = me.put(f"/api/v1/games/{games[1].pk}/orders/", {"orders": wanted}, format="json")

    for answer in refused:
        assert answer.status_code == 400 and answer.json()["code"] == "no_next_deal"
    assert me.get(f"/api/v1/games/{games[0].pk}/orders/").json() == {"orders": []}
    assert accepted.status_code == 200 and accepted.json()["orders"][1]["bound"] == "2"
