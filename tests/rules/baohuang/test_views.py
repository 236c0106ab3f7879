"""BH-23 information, BH-24 events and their visibility, BH-25 referee view, stacked deals, start."""

from __future__ import annotations

import json

from baogame.rules.baohuang.engine import ENGINE

from .helpers import a_game, act, find, keep_and_declare, play_deal, run_script

HANDS = [["RJ*", "9", "6", "6", "2"], ["BJ*", "A", "K"], ["7", "7", "A"], ["8", "Q"], ["10", "J"]]
REFEREE_KEYS = {
    "hands",
    "trick",
    "leader",
    "active",
    "emperor",
    "partner",
    "alone",
    "multiplier",
    "finished",
    "round_scores",
    "totals",
    "over",
    "winners",
}


def test_views_show_own_hand_and_only_counts_of_others_bh_23_2():
    """BH-23.1, BH-23.2, BH-23.12: own hand sorted; counts public; a spectator has no hand."""
    state = a_game(HANDS)

    v = ENGINE.view(state, 2)
    assert v["hand"] == ["7", "7", "A"] and v["counts"] == [5, 3, 3, 2, 2]
    assert ENGINE.view(state, None)["hand"] is None and ENGINE.view(state, None)["decision"] is None
    offer = [{"type": "keep_emperor"}, {"type": "pass_emperor"}]
    assert ENGINE.view(state, 0)["decision"]["actions"] == offer
    assert ENGINE.view(state, 1)["pending"][0]["seats"] == [0] and "allowed" not in v["pending"][0]
    assert json.loads(json.dumps(v)) == v


def test_tribute_cards_only_to_giver_and_receiver_bh_23_3():
    """BH-23.3: counts public; owed/given cards to the giver, received cards to the receiver."""
    start = {"deal": 3, "previous": {"emperor": 1, "partner": None, "result": "lost"}}
    state = a_game(HANDS, start=start)
    state, events = act(state, 1, {"type": "give_tribute", "cards": ["A", "K"]})

    assert ENGINE.view(state, 1)["tribute"]["given_cards"] == ["K", "A"]
    for seat in (0, 2, 3, 4, None):
        t = ENGINE.view(state, seat)["tribute"]
        assert t["given_cards"] is None and t["owed_cards"] is None
        assert t["given"][1] == 2
    received = [e for e in events if e["type"] == "tribute_cards_received"]
    assert all(e["visible_to"] == [e["seat"]] for e in received)
    assert ENGINE.view(state, 1)["tribute"]["received_cards"] is None
    assert ENGINE.view(state, 0)["tribute"]["received_cards"] is not None


def test_partner_known_only_as_rules_allow_bh_23_5_bh_23_6():
    """BH-23.5: partner visible to E, to the partner himself, to all after the reveal."""
    state, _ = keep_and_declare(a_game(HANDS))

    assert [ENGINE.view(state, s)["partner"] for s in range(5)] == [1, 1, None, None, None]
    assert ENGINE.view(state, None)["partner"] is None
    state, _ = run_script(state, [(0, ["9"]), (1, ["BJ*"])])
    assert [ENGINE.view(state, s)["partner"] for s in (2, 3, None)] == [1, 1, 1]


def test_declarations_and_plays_are_public_bh_23_7_bh_23_8():
    """BH-23.7, BH-23.8: declarations (including none) and plays are public events and in views."""
    state = a_game(HANDS)
    state, events = keep_and_declare(state, {2: {"type": "pledge", "side": "oppose"}})

    assert ENGINE.view(state, None)["declarations"] == ["none", "none", "oppose", "none", "none"]
    assert all(e["visible_to"] == "all" for e in events if e["type"] != "partner_notice")
    state, _ = act(state, 0, {"type": "play", "cards": ["6", "6"]})
    assert ENGINE.view(state, None)["trick"] == [{"seat": 0, "cards": ["6", "6"], "no_beat_request": False}]


def test_end_of_deal_publishes_hands_partner_and_guesses_bh_23_11_bh_25_6():
    """BH-15.5, BH-23.11, BH-25.6: deal_ended has every fixed field, visible to all."""
    state, events = play_deal([0, 2, 1, 3, 4], 0, 2)

    ended = find(events, "deal_ended")
    assert ended["visible_to"] == "all"
    assert {
        "deal",
        "finished",
        "places",
        "emperor",
        "partner",
        "alone",
        "multiplier",
        "result",
        "scores",
        "totals",
        "hands",
        "guesses",
    } <= set(ended)
    assert ENGINE.view(state, 3)["last_deal"]["partner"] == 2
    assert ENGINE.referee_view(state)["round_scores"] == ended["scores"]


def test_event_visibility_table_bh_24():
    """BH-24: private events go to their recipients only; all others to everyone."""
    state, events = ENGINE.setup_with_events(5, {"deal": {"hands": HANDS}}, 1)
    state, ev = keep_and_declare(state)
    events += ev
    private = {"hand_dealt", "tribute_owed", "tribute_cards_received", "partner_notice"}

    for e in events:
        assert (e["visible_to"] != "all") == (e["type"] in private)
    assert find(events, "partner_notice")["visible_to"] == [0]


def test_referee_view_schema_bh_25_3():
    """BH-25.3: exactly the standard keys, with null fields outside play."""
    state = a_game(HANDS)
    referee = ENGINE.referee_view(state)

    assert set(referee) == REFEREE_KEYS
    assert referee["active"] == 0 and referee["emperor"] is None and referee["alone"] is None
    assert referee["trick"] is None and referee["leader"] is None and referee["round_scores"] is None
    state, _ = keep_and_declare(state)
    referee = ENGINE.referee_view(state)
    assert (referee["leader"], referee["active"], referee["partner"], referee["alone"]) == (0, 0, 1, False)


def test_several_stacked_deals_and_start_bh_25_4_bh_25_5():
    """BH-25.4 items 2-5, BH-25.5: the i-th stacked deal is deal f+i; totals start from start.totals."""
    second = [["RJ*", "6"], ["BJ*", "7"], ["8"], ["9"], ["10"]]
    start = {"deal": 7, "totals": [1, 2, 3, 4, -10]}
    state, events = play_deal([0, 2, 1, 3, 4], 0, 2, deals=[second], start=start)

    assert find(events, "deal_ended")["deal"] == 7
    assert find(events, "deal_ended")["totals"] == [7, -1, 6, 1, -13]
    started = [e for e in events if e["type"] == "deal_started"][-1]
    assert (started["deal"], started["shuffler"], started["first_drawer"]) == (8, 2, 4)
    assert state["tribute"]["owed"] == [0, 0, 0, 0, 0] or ENGINE.pending(state)[0]["kind"] == "tribute"
    assert ENGINE.referee_view(state)["hands"][2] in (["8"], ["8", "9"], ["8", "10"], ["8", "8"])


def test_automatic_steps_inside_apply_next_deal_dealt_bh_25_2():
    """BH-25.2: the action that ends a deal returns the next deal already dealt with its decision open."""
    state, events = play_deal([0, 2, 1, 3, 4], 0, 2)

    assert [e["type"] for e in events][-1] in ("tribute_owed", "hand_dealt")
    assert state["deal"] == 2 and ENGINE.pending(state)[0]["kind"] == "tribute"
    assert sum(len(h) for h in ENGINE.referee_view(state)["hands"]) == 168
