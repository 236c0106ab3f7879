"""BH-5 tribute: who gives which cards, the face-down pile, what each receiver gets."""

from __future__ import annotations

import random

from baogame.rules.baohuang.cards import sort_cards
from baogame.rules.baohuang.engine import ENGINE

from .helpers import a_game, act, find, play_deal, refused, types

HANDS = [
    ["RJ*", "2", "A", "A", "K", "6"],
    ["RJ", "2", "2", "Q", "7"],
    ["BJ*", "A", "K", "K", "8"],
    ["J", "10", "10", "9"],
    ["BJ", "BJ", "6", "6", "7"],
]


def started(result: str, emperor: int = 0, partner: int | None = 2) -> dict:
    return {"deal": 2, "previous": {"emperor": emperor, "partner": partner, "result": result}}


def test_commoners_give_one_each_after_imperial_win_bh_5_3():
    """BH-5.3, BH-5.4: after an imperial win each commoner gives his highest non-joker."""
    state = a_game(HANDS, start=started("won"))

    view1 = ENGINE.view(state, 1)
    assert ENGINE.pending(state)[0]["seats"] == [1, 3, 4]
    assert state["tribute"]["owed"] == [0, 1, 0, 1, 1] and state["tribute"]["allot"] == [2, 0, 1, 0, 0]
    assert view1["tribute"]["owed_cards"] == ["2"]
    assert ENGINE.view(state, 4)["tribute"]["owed_cards"] == ["7"]
    assert ENGINE.view(state, 0)["tribute"]["owed_cards"] is None


def test_emperor_two_partner_one_after_imperial_loss_bh_5_3():
    """BH-5.3, W-9: after a loss E gives two (2 and A), the partner one; commoners receive one each."""
    state = a_game(HANDS, start=started("lost"))

    assert state["tribute"]["owed_cards"][0] == ["A", "2"]
    assert state["tribute"]["owed_cards"][2] == ["A"]
    assert state["tribute"]["allot"] == [0, 1, 0, 1, 1]


def test_lone_emperor_win_takes_four_and_loss_gives_four_bh_5_3():
    """BH-5.3, W-10, W-11: alone and 1st: four others give 1 each to E; alone and lost: E gives 4."""
    won = a_game(HANDS, start=started("won", 0, None))
    lost = a_game(HANDS, start=started("lost", 0, None))
    drawn = a_game(HANDS, start=started("draw", 0, None))

    assert won["tribute"]["owed"] == [0, 1, 1, 1, 1] and won["tribute"]["allot"] == [4, 0, 0, 0, 0]
    assert lost["tribute"]["owed_cards"][0] == ["K", "A", "A", "2"]
    assert lost["tribute"]["allot"] == [0, 1, 1, 1, 1]
    assert drawn["tribute"] is None and drawn["phase"] == "offer"


def test_owed_cards_never_jokers_and_never_the_last_card_bh_5_4():
    """BH-5.4, BH-25.4 item 4: jokers are never given; a short giver gives what he can but his last card."""
    hands = [["RJ*", "2", "2"], ["BJ", "RJ", "9"], ["BJ*", "K"], ["6"], ["A", "BJ"]]
    state = a_game(hands, start=started("lost", 3, 4))

    assert state["tribute"]["owed"] == [0, 0, 0, 0, 1]
    assert state["tribute"]["owed_cards"][4] == ["A"]
    assert ENGINE.pending(state)[0]["seats"] == [4]


def test_tribute_pile_is_shuffled_from_seed_and_dealt_in_seat_order_bh_5_5():
    """BH-5.5, BH-25.8: nothing is handed out before all have given; the pile is shuffled in canonical
    order with key baohuang:{seed}:deal:{d}:tribute; receivers in increasing seat order."""
    state = a_game(HANDS, start=started("won"), seed="trib")
    state, ev1 = act(state, 4, {"type": "give_tribute", "cards": ["7"]})
    state, ev2 = act(state, 1, {"type": "give_tribute", "cards": ["2"]})
    assert types(ev1) == ["tribute_given"] and ENGINE.pending(state)[0]["seats"] == [3]
    assert ENGINE.view(state, 1)["hand"] == ["7", "Q", "2", "RJ"]

    state, ev3 = act(state, 3, {"type": "give_tribute", "cards": ["J"]})

    pile = sort_cards(["7", "2", "J"])
    random.Random("baohuang:trib:deal:2:tribute").shuffle(pile)
    got0 = find(ev3, "tribute_cards_received")
    assert got0["visible_to"] == [0] and got0["cards"] == sort_cards(pile[:2])
    assert [e for e in ev3 if e["type"] == "tribute_cards_received"][1]["cards"] == pile[2:]
    assert [e["count"] for e in ev3 if e["type"] == "tribute_received"] == [2, 1]
    assert ENGINE.view(state, 0)["tribute"]["received_cards"] == sort_cards(pile[:2])
    assert ENGINE.view(state, 1)["tribute"]["received_cards"] is None
    assert state["phase"] == "offer"


def test_tribute_errors_in_order_bh_20_1():
    """BH-20.1: invalid_card, wrong_tribute_count, card_not_in_hand, wrong_tribute_cards."""
    state = a_game(HANDS, start=started("lost"))

    assert refused(state, 0, {"type": "give_tribute", "cards": ["X", "Y"]}) == "invalid_card"
    assert refused(state, 0, {"type": "give_tribute", "cards": ["2"]}) == "wrong_tribute_count"
    assert refused(state, 0, {"type": "give_tribute", "cards": ["2", "9"]}) == "card_not_in_hand"
    assert refused(state, 0, {"type": "give_tribute", "cards": ["2", "K"]}) == "wrong_tribute_cards"
    assert refused(state, 0, {"type": "give_tribute", "cards": ["2", "RJ*"]}) == "wrong_tribute_cards"
    assert refused(state, 1, {"type": "give_tribute", "cards": ["2"]}) == "not_your_turn"
    state, _ = act(state, 0, {"type": "give_tribute", "cards": ["A", "2"]})
    assert refused(state, 0, {"type": "give_tribute", "cards": ["A", "A"]}) == "already_submitted"


def test_tribute_default_gives_owed_cards_and_receivers_give_nothing_back_bh_5_5():
    """BH-5.5 steps 1 and 4, BH-18.1: the default gives the owed cards; nothing comes back."""
    state = a_game(HANDS, start=started("lost"))
    for seat in (0, 2):
        state, events = act(state, seat, ENGINE.timeout_action(state, seat))
        assert find(events, "tribute_given")["by_timeout"] is True

    assert state["phase"] == "offer"
    assert [len(h) for h in ENGINE.referee_view(state)["hands"]] == [4, 6, 4, 5, 6]


def test_short_pile_serves_receivers_in_seat_order_bh_5_5():
    """BH-5.5 step 3: with a short pile (stacked deals), receivers in seat order until it is empty."""
    hands = [["RJ*", "6"], ["BJ*", "7"], ["8"], ["9"], ["10"]]
    state = a_game(hands, start=started("lost", 0, None))

    assert state["tribute"]["owed"] == [1, 0, 0, 0, 0]
    state, events = act(state, 0, {"type": "give_tribute", "cards": ["6"]})
    assert [(e["seat"], e["count"]) for e in events if e["type"] == "tribute_received"] == [
        (1, 1),
        (2, 0),
        (3, 0),
        (4, 0),
    ]


def test_marked_jokers_never_move_in_tribute_and_roles_come_from_previous_deal_bh_5_2_bh_5_6():
    """BH-5.2, BH-5.6: tribute seats are last deal's roles; marked jokers stay put."""
    state = a_game(HANDS, start=started("won", 3, 1))

    assert state["tribute"]["allot"] == [0, 1, 0, 2, 0]
    assert state["tribute"]["owed"] == [1, 0, 1, 0, 1]


def test_imperial_win_then_tribute_in_next_deal_w_7():
    """W-7, BH-16.2, BH-5: E=s0, K=s2; s2 1st, s0 2nd; s0 +6, s2 +3, others -3; then s1, s3, s4 give."""
    nxt = [["RJ*", "6"], ["RJ", "2", "2", "K"], ["BJ*", "7"], ["A", "9"], ["Q", "8"]]
    state, events = play_deal([2, 0, 1, 3, 4], 0, 2, deals=[nxt])

    ended = find(events, "deal_ended")
    assert ended["scores"] == [6, -3, 3, -3, -3] and ended["result"] == "won"
    assert state["tribute"]["owed_cards"][1] == ["2"]
    assert state["tribute"]["allot"] == [2, 0, 1, 0, 0]
    assert ENGINE.pending(state)[0]["seats"] == [1, 3, 4]


def test_no_tribute_after_a_draw_bh_5_1_w_8():
    """BH-5.1, W-8: E=s4 goes out first, three commoners next: partner 5th, S=0, no tribute next deal."""
    state, events = play_deal([4, 0, 1, 2, 3], 4, 3, deals=[HANDS])

    assert find(events, "deal_ended")["scores"] == [0, 0, 0, 0, 0]
    assert find(events, "deal_ended")["finished"] == [4, 0, 1, 2, 3]
    assert state["tribute"] is None and state["phase"] == "offer"
