"""The worked examples of §7 (EX-1 … EX-15) as tests."""

from __future__ import annotations

from .helpers import (
    BPEL,
    CRANE,
    CUCKOO,
    DUCK,
    HUM,
    IBIS,
    KINGF,
    MACAW,
    MAGPIE,
    PEACOCK,
    SHOEBILL,
    SPARROW,
    TOCO,
    WPEL,
    P,
    a_game,
    act,
    decision,
    double,
    error,
    kind,
    pass_all,
    play,
    ref,
    single,
)
from .helpers import E as ENGINE


def test_ex_1_pelican_family_and_two_abilities_after_own_draw_pluck():
    """EX-1 (BB-2.2, BB-7.3, BB-9.4 a)."""
    st = a_game(
        [[BPEL, HUM, PEACOCK, KINGF], [DUCK, MAGPIE, CRANE, IBIS], [SPARROW, CUCKOO, HUM, TOCO]],
        discard=SPARROW,
        draw=[WPEL],
    )

    st = play(st, 0, "draw")
    assert ENGINE.view(st, 0)["decision"]["context"] == {"drawn": WPEL}
    st = play(st, 0, "pluck", **single(0, 0))

    r = ref(st)
    assert r["discard"][-3:] == [SPARROW, WPEL, BPEL]
    assert r["displays"][0] == [None, HUM, PEACOCK, KINGF]
    assert decision(st)["context"] == {"ability": "peek", "card": WPEL, "trigger": "own_draw_reference"}
    st = play(st, 0, "use_ability", ability="peek", target=P(1, 2))
    assert ENGINE.view(st, 0)["displays"][1][2] == CRANE
    assert ENGINE.view(st, 1)["displays"][1][2] == "?"
    assert decision(st)["context"] == {"ability": "reveal", "card": BPEL, "trigger": "single_removal"}
    st = play(st, 0, "use_ability", ability="reveal", target=P(2, 3))
    assert all(ENGINE.view(st, s)["displays"][2][3] == TOCO for s in range(3))
    assert decision(st)["kind"] == "end_turn" and decision(st)["seats"] == [0]


def test_ex_2_keep_then_offensive_pluck_with_gift():
    """EX-2 (BB-5.4, BB-6.6, BB-7.4)."""
    st = a_game(
        [[PEACOCK, HUM, SPARROW, IBIS], [CRANE, MAGPIE, KINGF, DUCK], [PEACOCK, CUCKOO, HUM, SPARROW]],
        draw=[SPARROW],
    )

    st = play(st, 0, "draw")
    st = play(st, 0, "keep", slot=0)
    assert decision(st)["kind"] == "pluck_window" and decision(st)["seats"] == [1, 2]
    window = decision(st)["decision_id"]
    st, events = act(st, 1, "pluck", **single(2, 0, 3))

    r = ref(st)
    assert r["discard"][-1] == PEACOCK
    assert r["displays"][1] == [CRANE, MAGPIE, KINGF, None]
    assert r["displays"][2] == [DUCK, CUCKOO, HUM, SPARROW]
    resolved = next(e for e in events if e["type"] == "pluck_resolved")
    assert DUCK not in str(resolved)
    from baogame.rules.core import RuleError

    try:
        ENGINE.apply(st, 2, {"type": "pluck", "decision_id": window, **single(2, 3)})
    except RuleError as exc:
        assert exc.code == "window_closed"
    else:
        raise AssertionError("a closed window accepted a pluck")
    assert kind(st) == "end_turn"


def test_ex_3_failed_own_draw_pluck():
    """EX-3 (BB-7.5, BB-7.6, BB-4.4)."""
    st = a_game([[HUM, DUCK, HUM, IBIS], [None, MAGPIE, None, CRANE]], draw=[CUCKOO, DUCK], active=1)

    st = play(st, 1, "draw")
    st, events = act(st, 1, "pluck", **single(0, 2, 1))

    r = ref(st)
    assert r["displays"][0][2] == HUM
    assert r["discard"][-1] == CUCKOO
    assert r["displays"][1] == [DUCK, MAGPIE, None, CRANE]
    assert all(ENGINE.view(st, s)["displays"][0][2] == HUM for s in (0, 1))
    assert ENGINE.view(st, 1)["displays"][1][0] == "?"
    assert kind(st) == "end_turn"
    assert "pluck_window" not in str(events) and "ability_offered" not in [e["type"] for e in events]


def test_ex_4_double_pluck_in_window_then_discarders_ability():
    """EX-4 (BB-8.3, BB-8.5, BB-9.4 d)."""
    st = a_game(
        [[HUM, DUCK, CRANE, KINGF], [BPEL, MAGPIE, IBIS, SPARROW], [PEACOCK, WPEL, HUM, DUCK]], draw=[WPEL]
    )

    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = play(st, 2, "pluck", **double((1, 0), (2, 1), [3, None]))

    r = ref(st)
    assert r["discard"][-3:] == [WPEL, BPEL, WPEL]
    assert r["displays"][1] == [DUCK, MAGPIE, IBIS, SPARROW]
    assert r["displays"][2] == [PEACOCK, None, HUM, None]
    assert decision(st)["seats"] == [2]
    assert decision(st)["context"] == {"ability": "peek", "card": WPEL, "trigger": "double_removal"}
    st = play(st, 2, "decline_ability")
    assert decision(st)["seats"] == [0]
    assert decision(st)["context"] == {"ability": "peek", "card": WPEL, "trigger": "direct_discard"}
    st = play(st, 0, "decline_ability")
    assert kind(st) == "end_turn"


def test_ex_5_invalid_attempt_does_not_close_window():
    """EX-5 (BB-6.6 c, d, g)."""
    st = a_game(
        [[KINGF, None, IBIS, MAGPIE], [HUM, KINGF, SPARROW, DUCK], [DUCK, KINGF, None, CRANE]],
        discard=PEACOCK,
        active=1,
    )

    st = play(st, 1, "take_discard", slot=1)
    assert decision(st)["seats"] == [0, 2]
    assert error(st, 1, "pass") == "not_eligible"
    assert error(st, 2, "pluck", **single(2, 2)) == "slot_empty"
    st = play(st, 0, "pluck", **single(0, 0))

    assert ref(st)["displays"][0] == [None, None, IBIS, MAGPIE]
    assert kind(st) == "end_turn"


def test_ex_6_shield_activated_by_offensive_pluck():
    """EX-6 (BB-11.3 a, BB-11.4, BB-9.10)."""
    st = a_game(
        [[HUM, SPARROW, MACAW, None], [CRANE, KINGF, IBIS, DUCK], [MAGPIE, PEACOCK, HUM, SPARROW]],
        draw=[MACAW],
        active=1,
        bao_caller=0,
    )

    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    assert decision(st)["seats"] == [0, 2]
    st, events = act(st, 2, "pluck", **single(0, 2, 0))
    assert ref(st)["shield_active"] is True
    assert [e["type"] for e in events].index("shield_activated") > [e["type"] for e in events].index(
        "pluck_resolved"
    )
    assert ref(st)["displays"][0] == [HUM, SPARROW, MAGPIE, None]
    st = play(st, 2, "use_ability", ability="macaw", targets=[P(0, 0), P(1, 1)])
    assert decision(st)["seats"] == [1] and decision(st)["kind"] == "ability"
    assert ENGINE.view(st, 2)["displays"][0][0] == HUM and ENGINE.view(st, 2)["displays"][1][1] == KINGF
    st = play(st, 1, "use_ability", ability="macaw", targets=[P(2, 2), P(1, 0)])
    assert kind(st) == "macaw_decide"
    st = play(st, 1, "macaw_decide", swap=True)

    r = ref(st)
    assert r["displays"][1] == [HUM, KINGF, IBIS, DUCK]
    assert r["displays"][2] == [None, PEACOCK, CRANE, SPARROW]
    assert r["active"] == 2 and kind(st) == "turn_action"


def test_ex_7_card_moved_by_abilities_only_once_per_turn():
    """EX-7 (BB-9.6, BB-9.9)."""
    st = a_game(
        [[HUM, DUCK, IBIS, SPARROW], [CRANE, MAGPIE, KINGF, PEACOCK], [CUCKOO, HUM, DUCK, MAGPIE]],
        draw=[CUCKOO],
        active=2,
    )

    st = play(st, 2, "draw")
    st = play(st, 2, "pluck", **single(2, 0))
    st = play(st, 2, "use_ability", ability="blind_swap", targets=[P(0, 0), P(1, 3)])
    assert error(st, 2, "use_ability", ability="blind_swap", targets=[P(0, 0), P(2, 1)]) == "already_moved"
    st = play(st, 2, "use_ability", ability="blind_swap", targets=[P(1, 0), P(2, 3)])

    r = ref(st)
    assert r["displays"][0] == [PEACOCK, DUCK, IBIS, SPARROW]
    assert r["displays"][1] == [MAGPIE, MAGPIE, KINGF, HUM]
    assert r["displays"][2] == [None, HUM, DUCK, CRANE]
    st = play(st, 2, "end_turn", bao=False)
    assert ref(st)["ability_touched"] == []


def test_ex_8_toco_to_player_with_no_cards():
    """EX-8 (BB-9.11, BB-13.5)."""
    st = a_game(
        [[HUM, DUCK, IBIS, SPARROW], [HUM, IBIS, None, CRANE], [None, None, None, None]], draw=[TOCO, PEACOCK]
    )

    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    assert decision(st)["seats"] == [1]
    st = play(st, 1, "pass")
    st, events = act(st, 0, "use_ability", ability="toco", target_seat=2)

    assert ref(st)["displays"][2] == [PEACOCK, None, None, None]
    assert all(ENGINE.view(st, s)["displays"][2][0] == "?" for s in range(3))
    assert PEACOCK not in str([e for e in events if e["type"] == "toco_added"])


def test_ex_9_shoebill_opponent_replacement_impossible_and_caller_fails_on_tie():
    """EX-9 (BB-9.12, BB-11.4, BB-14.3 c)."""
    st = a_game(
        [[PEACOCK, DUCK, HUM, None], [HUM, SPARROW, None, None], [None, None, None, None]],
        draw=[SHOEBILL, KINGF, CRANE],
        active=0,
        bao_caller=1,
        shield_active=True,
    )

    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = play(st, 1, "pass")
    st = play(st, 0, "use_ability", ability="shoebill")
    assert ENGINE.view(st, 0)["decision"]["context"] == {
        "drawn": [KINGF, CRANE],
        "own_possible": True,
        "opponent_possible": False,
    }
    assert (
        error(st, 0, "shoebill_place", mine={"card": 1, "slot": 0}, theirs={"card": 0, "target": P(1, 0)})
        == "shielded"
    )
    st, events = act(st, 0, "shoebill_place", mine={"card": 0, "slot": 0}, theirs=None)

    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["displays"][0] == [KINGF, DUCK, HUM, None]
    assert ended["round_totals"] == [9, 3, 0]
    assert ended["scores"] == [9, 6, 0]
    assert ended["bao"] == {"caller": 1, "success": False}


def test_ex_10_recycling_for_a_window_penalty():
    """EX-10 (BB-7.6, BB-12.2, BB-12.3)."""
    hands = [[DUCK, SPARROW, KINGF, None], [CRANE, CRANE, MAGPIE, MAGPIE], [HUM, PEACOCK, DUCK, MAGPIE]]
    st = a_game(hands, discard=[HUM, CRANE, MAGPIE], draw=[IBIS], under=[SPARROW], active=2)
    others = ref(st)["draw"][1:]
    # Make the draw pile exactly [Ibis]: the other cards lie at the bottom of the discard pile.
    st = a_game(hands, discard=others + [HUM, CRANE, MAGPIE], draw=[IBIS], under=[SPARROW], active=2)

    st = play(st, 2, "draw")
    st = play(st, 2, "keep", slot=1)
    assert ref(st)["draw"] == [] and ref(st)["discard"][-1] == PEACOCK
    st, events = act(st, 0, "pluck", **single(0, 2))

    r = ref(st)
    assert r["recycles"] == 1
    assert r["discard"] == [PEACOCK]
    assert r["displays"][0][3] is not None and r["displays"][0][2] == KINGF
    assert len(r["draw"]) == len(others) + 4 - 1
    assert kind(st) == "end_turn"


def test_ex_11_second_recycling_starts_automatic_final_phase():
    """EX-11 (BB-12.5, BB-12.6)."""
    hands = [[HUM, HUM, HUM, HUM], [SPARROW] * 4, [KINGF] * 4, [MAGPIE] * 4]
    st = a_game(hands, discard=[DUCK, HUM], draw=[], active=1, recycles=1)
    r = ref(st)
    st = ENGINE.setup(
        4,
        {"deal": {"hands": hands, "discard": r["draw"] + [DUCK, HUM]}, "start": {"active": 1, "recycles": 1}},
        "t",
    )

    st, events = act(st, 1, "draw")

    r = ref(st)
    assert r["recycles"] == 2 and r["final_phase"] == {"anchor": 1, "cause": "recycling"}
    st = play(st, 1, "keep", slot=0)
    st = pass_all(st)
    assert kind(st) == "turn_action" and ref(st)["active"] == 2
    for seat in (2, 3, 0):
        st = play(st, seat, "draw")
        st = play(st, seat, "discard")
        st = pass_all(st)
        while kind(st) == "ability":
            st = play(st, decision(st)["seats"][0], "decline_ability")
    assert ref(st)["round"] == 2


def test_ex_12_bao_final_turns_and_pluck_by_caller():
    """EX-12 (BB-10, BB-14.3 b): S2 calls BAO at the end of its turn; S0 and S1 take final turns (S2
    plucks in S0's window); the round ends after S1 and S2's BAO succeeds."""
    st = a_game(
        [[KINGF, DUCK, IBIS, None], [KINGF, IBIS, None, None], [HUM, SPARROW, None, MAGPIE]],
        draw=[CRANE, HUM, PEACOCK],
        active=2,
    )
    st = play(st, 2, "draw")
    st = play(st, 2, "discard")
    st = pass_all(st)
    assert kind(st) == "end_turn" and decision(st)["seats"] == [2]

    st, events = act(st, 2, "end_turn", bao=True)

    assert [e["type"] for e in events][:2] == ["bao_called", "turn_ended"]
    assert ref(st)["bao_caller"] == 2 and ref(st)["active"] == 0 and kind(st) == "turn_action"
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    assert decision(st)["seats"] == [1, 2]
    st = play(st, 2, "pluck", **single(2, 0))
    assert ref(st)["displays"][2] == [None, SPARROW, None, MAGPIE]
    assert ref(st)["active"] == 1 and kind(st) == "turn_action"
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st, events = act(st, 0, "pass")
    st, events = act(st, 2, "pass")

    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["round_totals"] == [14, 9, 6]
    assert ended["scores"] == [14, 9, 0]
    assert ended["bao"] == {"caller": 2, "success": True}


def test_ex_13_failed_bao_score_and_next_starting_player():
    """EX-13 (BB-14.3 c, BB-3.7): S0 6, S1 6, S2 10, S0 fails -> 12; round 5 starts with S0."""
    st = ENGINE.setup(
        3,
        {
            "deal": {
                "hands": [[HUM, MAGPIE, HUM], [SPARROW, MAGPIE], [DUCK, DUCK]],
                "discard": SPARROW,
                "draw": [HUM],
            },
            "start": {"active": 2, "bao_caller": 0, "round": 4},
            "first_player": 1,
        },
        "t",
    )

    st = play(st, 2, "draw")
    st = play(st, 2, "discard")
    st = play(st, 0, "pass")
    st, events = act(st, 1, "pass")

    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["round_totals"] == [6, 6, 10]
    assert ended["scores"] == [12, 6, 10]
    assert ended["bao"] == {"caller": 0, "success": False}
    assert ref(st)["round"] == 5
    assert next(e for e in events if e["type"] == "round_started")["starting_seat"] == 0


def test_ex_14_turn_of_player_with_no_cards():
    """EX-14 (BB-13.3, BB-13.4)."""
    st = a_game(
        [[HUM, DUCK, IBIS, SPARROW], [None, None, None, None], [KINGF, MAGPIE, CRANE, DUCK]],
        draw=[BPEL],
        active=1,
    )

    st, events = act(st, 1, "draw")
    public = [e["type"] for e in events if e["visible_to"] == "all"]
    assert public[:3] == ["drew", "discarded", "window_opened"]
    st = pass_all(st)
    st = play(st, 1, "use_ability", ability="reveal", target=P(0, 1))
    assert all(ENGINE.view(st, s)["displays"][0][1] == DUCK for s in range(3))
    st = play(st, 1, "end_turn", bao=True)

    assert ref(st)["bao_caller"] == 1 and ref(st)["active"] == 2


def test_ex_15_end_of_game_and_deciding_round():
    """EX-15 (BB-15): totals 82/64/64 after a round -> deciding round S1 vs S2, 5 cards each; S2 wins it
    with a successful BAO; running totals unchanged; standings S2, S1, S0."""
    deciding = {
        "hands": [[], [PEACOCK, CRANE, MAGPIE, DUCK, IBIS], [HUM, SPARROW, HUM, KINGF, SPARROW]],
        "discard": MAGPIE,
        "draw": [HUM, HUM, HUM],
    }
    st = ENGINE.setup(
        3,
        {
            "deals": [
                {"hands": [[SPARROW], [HUM], [SPARROW]], "discard": [SPARROW], "draw": [HUM, HUM]},
                deciding,
            ],
            "start": {"active": 2, "round": 7, "totals": [80, 64, 62], "bao_caller": 1},
        },
        "t",
    )

    for seat in (2, 0):
        st = play(st, seat, "draw")
        st = play(st, seat, "discard")
        st = pass_all(st)

    r = ref(st)
    assert r["totals"] == [82, 64, 64] and r["round"] == 8
    assert r["displays"][0] == [] and len(r["displays"][1]) == 5 and len(r["displays"][2]) == 5
    assert kind(st) == "setup_peek" and decision(st)["seats"] == [1, 2]
    st = play(st, 1, "choose_peek", slots=[0, 1])
    st = play(st, 2, "choose_peek", slots=[0, 1])
    events: list[dict] = []
    while ENGINE.pending(st):
        d = decision(st)
        seat = d["seats"][0]
        if d["kind"] == "turn_action":
            st, events = act(st, seat, "draw")
        elif d["kind"] == "after_draw":
            st, events = act(st, seat, "discard")
        elif d["kind"] == "pluck_window":
            st, events = act(st, seat, "pass")
        elif d["kind"] == "end_turn":
            st, events = act(st, seat, "end_turn", bao=seat == 2)
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["scores"] == [None, 38, 0] and ended["bao"] == {"caller": 2, "success": True}
    game = next(e for e in events if e["type"] == "game_ended")
    assert game["winner"] == 2
    assert [(s["seat"], s["position"]) for s in game["standings"]] == [(2, 1), (1, 2), (0, 3)]
    assert ref(st)["totals"] == [82, 64, 64] and ref(st)["winners"] == [2] and ref(st)["over"] is True
