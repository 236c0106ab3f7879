"""BH-1 to BH-4 and BH-25.8: seats, the pack, game structure, dealing and randomness."""

from __future__ import annotations

import random

from baogame.rules.baohuang.cards import CODES, COPIES, PACK, STRENGTH
from baogame.rules.baohuang.engine import ENGINE
from baogame.rules.baohuang.state import next_active, nxt, roles_of_deal
from baogame.rules.core import RuleError

from .helpers import a_game, find, refused


def test_five_fixed_seats_and_turn_order_bh_1():
    """BH-1.1, BH-1.2, BH-1.3: five seats, next(s) = s+1 mod 5, next_active skips empty hands."""
    state = a_game([["7"], ["RJ*"], ["8"], ["BJ*"], ["9"]])
    state = dict(state, hands=[h[:] for h in state["hands"]])
    state["hands"][2] = [0] * 14

    assert [nxt(s) for s in range(5)] == [1, 2, 3, 4, 0]
    assert next_active(state, 1) == 3
    assert ENGINE.min_players == ENGINE.max_players == 5
    for players in (4, 6):
        try:
            ENGINE.setup(players, {}, 1)
            raise AssertionError("setup accepted a wrong player count")
        except RuleError as err:
            assert err.code == "invalid_options"


def test_pack_has_168_cards_with_two_marked_jokers_bh_2():
    """BH-2.1 to BH-2.5: 14 codes, 168 cards, marked jokers as strong as their twins."""
    assert len(PACK) == 168
    assert CODES == ("6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "BJ*", "RJ", "RJ*")
    assert [COPIES[c] for c in ("6", "2", "BJ", "BJ*", "RJ", "RJ*")] == [16, 16, 3, 1, 3, 1]
    assert STRENGTH["BJ*"] == STRENGTH["BJ"] == 16 and STRENGTH["RJ*"] == STRENGTH["RJ"] == 17
    state = ENGINE.setup(5, {}, "pack")
    assert sum(len(h) for h in ENGINE.referee_view(state)["hands"]) == 168


def test_options_and_stacked_deal_validation_bh_3():
    """BH-3.2, BH-3.3, BH-25.1: target_score default 30, no deal limit; invalid stacked deals are rejected."""
    assert ENGINE.default_options(5) == {"target_score": 30, "deal_limit": None}
    bad = [
        {"target_score": 0},
        {"target_score": True},
        {"colour": 1},
        {"deal": {"hands": [["RJ*"], ["BJ*"], ["6"], ["6"]]}},
        {"deal": {"hands": [["RJ*"], ["BJ*"], ["6"], ["6"], []]}},
        {"deal": {"hands": [["RJ"], ["BJ*"], ["6"], ["6"], ["7"]]}},
        {"deal": {"hands": [["RJ*", "RJ*"], ["BJ*"], ["6"], ["6"], ["7"]]}},
        {"deal": {"hands": [["RJ*"], ["BJ*"], ["5"], ["6"], ["7"]]}},
        {"deal": {"hands": [["RJ*"], ["BJ*"], ["6"], ["6"], ["7"]], "x": 1}},
        {
            "deal": {"hands": [["RJ*"], ["BJ*"], ["6"], ["6"], ["7"]]},
            "deals": [{"hands": [["RJ*"], ["BJ*"], ["6"], ["6"], ["7"]]}],
        },
        {"start": {"deal": 0}},
        {"start": {"totals": [0, 0, 0]}},
        {"start": {"foo": 1}},
        {"start": {"previous": {"emperor": 0, "partner": 1, "result": "won"}}},
        {"start": {"deal": 2, "previous": {"emperor": 0, "partner": 0, "result": "won"}}},
        {"start": {"deal": 2, "previous": {"emperor": 0, "partner": 1, "result": "maybe"}}},
        {"start": {"deal": 2, "previous": {"emperor": 0, "result": "won", "x": 1}}},
    ]
    for options in bad:
        try:
            ENGINE.setup(5, options, 1)
            raise AssertionError(f"accepted {options}")
        except RuleError as err:
            assert err.code == "invalid_options"


def test_deal_structure_starts_with_dealing_then_offer_in_deal_one_bh_3_1():
    """BH-3.1: deal 1 has no tribute; the emperor offer opens right after dealing."""
    state = ENGINE.setup(5, {}, 5)

    assert ENGINE.pending(state)[0]["allowed"] == ["keep_emperor", "pass_emperor"]
    assert state["deal"] == 1


def test_shuffler_rotates_and_first_drawer_gets_extra_cards_bh_4_w_1():
    """BH-4.1, BH-4.3, W-1: deal 4 gives 34 cards to s0, s1, s2; deal 5 to s1, s2, s3."""
    assert roles_of_deal(1) == (0, 1, 2)
    assert roles_of_deal(4) == (3, 4, 0)
    deal4 = ENGINE.setup(5, {"start": {"deal": 4}}, "w1")
    deal5 = ENGINE.setup(5, {"start": {"deal": 5}}, "w1")

    assert [len(h) for h in ENGINE.referee_view(deal4)["hands"]] == [34, 34, 34, 33, 33]
    assert [len(h) for h in ENGINE.referee_view(deal5)["hands"]] == [33, 34, 34, 34, 33]
    assert ENGINE.view(deal4, 0)["shuffler"] == 3 and ENGINE.view(deal4, 0)["first_drawer"] == 0


def test_deal_recomputed_from_seed_matches_referee_view_bh_25_8():
    """BH-25.8, BH-25.9: the pack in canonical order, shuffled once by Random("baohuang:{seed}:deal:{d}")."""
    seed = "c0ffee"
    for d in (1, 2, 3):
        state = ENGINE.setup(5, {"start": {"deal": d}}, seed)
        pack = [code for code in CODES for _ in range(COPIES[code])]
        random.Random(f"baohuang:{seed}:deal:{d}").shuffle(pack)
        first = ((d - 1) % 5 + 2) % 5
        expected: list[list[str]] = [[] for _ in range(5)]
        for k, code in enumerate(pack):
            expected[(first + k) % 5].append(code)
        order = {c: i for i, c in enumerate(CODES)}

        assert ENGINE.referee_view(state)["hands"] == [sorted(h, key=order.__getitem__) for h in expected]


def test_integer_seed_stands_for_its_string_bh_25_8():
    """BH-25.8 1: 7 and "7" give the same game."""
    assert ENGINE.setup(5, {}, 7) == ENGINE.setup(5, {}, "7")


def test_hand_dealt_event_is_private_bh_4_4():
    """BH-4.4, BH-24: each hand_dealt event is visible to its owner only."""
    state, events = ENGINE.setup_with_events(5, {}, 3)

    dealt = [e for e in events if e["type"] == "hand_dealt"]
    assert [e["visible_to"] for e in dealt] == [[0], [1], [2], [3], [4]]
    assert find(events, "deal_started")["visible_to"] == "all"
    assert refused(state, 9, {"type": "keep_emperor"}) == "not_your_turn"
