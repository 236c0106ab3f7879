"""Rare situations of BB-3 … BB-15 and BB-24 / BB-30, each reached through ``apply`` from a stacked
position: double plucks with gifts, no chains, the ability-touched rule across abilities, ability order,
the Shield, recycling of Shoebill under-cards, the automatic final phase caused by another player's
penalty or during a Shoebill, zero-card players, thresholds per player count, the starting player of
later rounds, and repeated deciding rounds.

A deciding round cannot end tied through a BAO (a successful caller scores 0 or a negative total below
every other total; a failed caller scores max(2 × total, 5), above a total that is equal or lower), so
the repeated deciding rounds are reached the only way the rules allow: a deciding round that ends by the
automatic final phase (BB-12.5), where every participant scores their round total (BB-14.3 d).
"""

from __future__ import annotations

import random

import pytest

from baogame.rules.baobei.cards import CODE_OF

from .helpers import (
    BPEL,
    CRANE,
    CUCKOO,
    DUCK,
    FOUR,
    GOLDEN,
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
    E,
    P,
    a_fresh_game,
    a_game,
    act,
    decision,
    double,
    error,
    kind,
    pass_all,
    play,
    ref,
    rest_of_deck,
    single,
    types,
)


def _by_timeouts(st: dict) -> tuple[dict, list[dict]]:
    """Let every deadline pass until the current round has ended; return the state and all events."""
    events: list[dict] = []
    start = ref(st)["round"]
    while E.pending(st) and ref(st)["round"] == start:
        seat = decision(st)["seats"][0]
        st, ev = E.apply(st, seat, E.timeout_action(st, seat))
        events += ev
    return st, events


def _one(events: list[dict], etype: str) -> dict:
    found = [e for e in events if e["type"] == etype and e["visible_to"] == "all"]
    assert len(found) == 1, (etype, found)
    return found[0]


# --- BB-8: double plucks with gifts ----------------------------------------------------------------------


def test_double_pluck_with_two_gifts_places_each_gift_in_its_target_slot_bb_8_3():
    """BB-8.3 (ii), (iii) / BB-4.5: two offensive targets in two displays; each receives the gift named for
    it; the giver's slots become empty; the second target ends on top."""
    st = a_game(
        [[HUM, SPARROW, KINGF, MAGPIE], [DUCK, IBIS, CRANE, PEACOCK], [IBIS, DUCK, KINGF, MAGPIE]],
        draw=[DUCK],
    )
    st = play(st, 0, "draw")

    st, events = act(st, 0, "pluck", **double((1, 0), (2, 1), [3, 2]))

    r = ref(st)
    assert r["displays"][0] == [HUM, SPARROW, None, None]
    assert r["displays"][1] == [MAGPIE, IBIS, CRANE, PEACOCK]
    assert r["displays"][2] == [IBIS, KINGF, KINGF, MAGPIE]
    assert r["discard"][-3:] == [DUCK, DUCK, DUCK]
    assert _one(events, "pluck_resolved")["success"] is True
    assert MAGPIE not in str(_one(events, "pluck_resolved")["cards"])


def test_failed_double_pluck_with_gifts_moves_nothing_and_penalty_fills_a_gap_bb_8_4_d_6():
    """BB-8.4 / D-17 / D-6 / BB-4.4: one target matches, one does not: both shown, no gift moves, exactly one
    penalty card, which goes into the plucker's lowest empty slot (not a new slot)."""
    st = a_game(
        [[HUM, None, KINGF, MAGPIE], [DUCK, IBIS, CRANE, PEACOCK], [IBIS, SPARROW, KINGF, MAGPIE]],
        draw=[DUCK, PEACOCK],
    )
    st = play(st, 0, "draw")

    st, events = act(st, 0, "pluck", **double((1, 0), (2, 1), [3, 2]))

    r = ref(st)
    assert r["displays"][0] == [HUM, PEACOCK, KINGF, MAGPIE]
    assert r["displays"][1] == [DUCK, IBIS, CRANE, PEACOCK]
    assert r["displays"][2] == [IBIS, SPARROW, KINGF, MAGPIE]
    assert r["discard"][-1] == DUCK
    assert _one(events, "penalty_added")["slot"] == 1
    assert all(
        E.view(st, s)["displays"][1][0] == DUCK and E.view(st, s)["displays"][2][1] == SPARROW
        for s in range(3)
    )
    assert E.view(st, 0)["displays"][0][1] == "?"
    assert kind(st) == "end_turn"


def test_window_double_pluck_own_and_offensive_from_another_players_discard_bb_6_2_b_bb_8_1():
    """BB-6.2 b / BB-8.1: a non-active seat plucks two cards (one own, one of a third player) with the card
    the active player discarded by keep; the gift goes to the opponent's slot."""
    st = a_game(
        [[KINGF, SPARROW, HUM, MAGPIE], [KINGF, IBIS, CRANE, PEACOCK], [HUM, KINGF, DUCK, MAGPIE]],
        draw=[DUCK],
    )
    st = play(st, 0, "draw")
    st = play(st, 0, "keep", slot=0)

    st = play(st, 2, "pluck", **double((2, 1), (1, 0), [None, 3]))

    r = ref(st)
    assert r["displays"][1] == [MAGPIE, IBIS, CRANE, PEACOCK]
    assert r["displays"][2] == [HUM, None, DUCK, None]
    assert r["discard"][-3:] == [KINGF, KINGF, KINGF] and r["displays"][0][0] == DUCK


# --- BB-6.3 / D-9: no chains --------------------------------------------------------------------------------


def test_removed_card_is_no_reference_but_may_be_taken_later_bb_6_3_d_9():
    """BB-6.3 / D-9: a card removed by a pluck opens no window; the next player may take it, and the window
    then has the card given up as reference."""
    st = a_game(FOUR, draw=[HUM])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st, events = act(st, 2, "pluck", **single(2, 0))
    assert "window_opened" not in types(events) and ref(st)["discard"][-2:] == [HUM, HUM]
    st = play(st, 0, "end_turn", bao=False)

    st = play(st, 1, "take_discard", slot=3)

    assert ref(st)["displays"][1][3] == HUM
    assert decision(st)["context"] == {"reference": PEACOCK, "source": "take_discard", "active_seat": 1}


def test_failed_own_draw_pluck_reference_opens_no_window_bb_6_3_bb_7_5():
    """BB-6.3 / BB-7.5 (ii): a drawn card discarded because of a failed own-draw pluck opens no window and
    triggers no ability, even a Brown Pelican."""
    st = a_game(FOUR, draw=[BPEL, HUM])
    st = play(st, 0, "draw")

    st, events = act(st, 0, "pluck", **single(1, 0, 0))

    assert "window_opened" not in types(events) and "ability_offered" not in types(events)
    assert ref(st)["discard"][-1] == BPEL and kind(st) == "end_turn"


# --- BB-9: abilities ------------------------------------------------------------------------------------


def test_gift_moved_by_a_pluck_is_not_ability_touched_bb_9_6_d():
    """BB-9.6 d / D-26: a card moved as a gift is not ability-touched; the Cuckoo abilities of the same turn
    may swap it."""
    st = a_game([[HUM, SPARROW, KINGF, MAGPIE], [DUCK, CUCKOO, CRANE, PEACOCK], FOUR[2]], draw=[CUCKOO])
    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(1, 1, 0))
    assert ref(st)["displays"][1][1] == HUM and ref(st)["ability_touched"] == []

    st = play(st, 0, "use_ability", ability="blind_swap", targets=[P(1, 1), P(2, 0)])

    assert ref(st)["displays"][1][1] == HUM and ref(st)["displays"][2][0] == HUM
    assert ref(st)["ability_touched"] == [P(1, 1), P(2, 0)]


def test_cards_placed_by_a_shoebill_cannot_be_replaced_again_this_turn_bb_9_6_d_25():
    """BB-9.6 a, b / D-25: two Shoebill abilities in one turn (own-draw pluck of a Shoebill); the second may
    not replace the cards the first placed (``already_moved``), but may replace others."""
    st = a_game(
        [[SHOEBILL, HUM, SPARROW, KINGF], [DUCK, IBIS, CRANE, PEACOCK], FOUR[2]],
        draw=[SHOEBILL, GOLDEN, PEACOCK, MAGPIE, MACAW],
    )
    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(0, 0))
    st = play(st, 0, "use_ability", ability="shoebill")
    st = play(st, 0, "shoebill_place", mine={"card": 0, "slot": 1}, theirs={"card": 1, "target": P(1, 0)})
    assert decision(st)["context"]["trigger"] == "single_removal"
    st = play(st, 0, "use_ability", ability="shoebill")

    assert (
        error(st, 0, "shoebill_place", mine={"card": 0, "slot": 1}, theirs={"card": 1, "target": P(1, 1)})
        == "already_moved"
    )
    assert (
        error(st, 0, "shoebill_place", mine={"card": 0, "slot": 2}, theirs={"card": 1, "target": P(1, 0)})
        == "already_moved"
    )
    st = play(st, 0, "shoebill_place", mine={"card": 0, "slot": 2}, theirs={"card": 1, "target": P(1, 1)})

    r = ref(st)
    assert r["displays"][0] == [None, GOLDEN, MAGPIE, KINGF]
    assert r["displays"][1] == [PEACOCK, MACAW, CRANE, PEACOCK]
    assert r["under_discard"] == 4


def test_macaw_swap_makes_cards_touched_for_the_second_macaw_bb_9_6_bb_9_10():
    """BB-9.10 d / BB-9.6: after a Macaw swap, both cards are ability-touched: the second Macaw of the turn
    may look at one but opens no swap decision; with two untouched cards it does."""
    st = a_game([[MACAW, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[MACAW])
    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(0, 0))
    st = play(st, 0, "use_ability", ability="macaw", targets=[P(0, 1), P(1, 0)])
    st = play(st, 0, "macaw_decide", swap=True)
    assert ref(st)["displays"][0][1] == DUCK and ref(st)["displays"][1][0] == HUM

    st = play(st, 0, "use_ability", ability="macaw", targets=[P(0, 2), P(2, 0)])

    assert kind(st) == "macaw_decide"
    st = play(st, 0, "macaw_decide", swap=False)
    assert ref(st)["displays"][0][2] == KINGF and kind(st) == "end_turn"


def test_keep_window_gives_only_the_pluckers_ability_bb_9_4_e():
    """BB-9.4 e / BB-9.2: after keep, the old card (a Brown Pelican) triggers nothing; a plucker removing a
    White Pelican earns ``peek``; no ability for the active player follows."""
    st = a_game([[BPEL, HUM, KINGF, MAGPIE], [DUCK, WPEL, CRANE, PEACOCK], FOUR[2]], draw=[CUCKOO])
    st = play(st, 0, "draw")
    st = play(st, 0, "keep", slot=0)

    st = play(st, 1, "pluck", **single(1, 1))

    assert decision(st)["seats"] == [1]
    assert decision(st)["context"] == {"ability": "peek", "card": WPEL, "trigger": "single_removal"}
    st = play(st, 1, "decline_ability")
    assert kind(st) == "end_turn"


def test_failed_window_pluck_earns_nothing_and_active_ability_still_follows_bb_9_4_d():
    """BB-9.4 d / BB-9.1 a: after a direct discard, a failed window pluck earns no ability; the discarder's
    ability is still offered after the window."""
    st = a_game(FOUR, draw=[WPEL, HUM])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st, events = act(st, 1, "pluck", **single(1, 0))

    assert _one(events, "pluck_resolved")["success"] is False
    assert decision(st)["seats"] == [0]
    assert decision(st)["context"] == {"ability": "peek", "card": WPEL, "trigger": "direct_discard"}


def test_window_plucker_ability_comes_before_active_players_bb_9_4_d_d_18():
    """BB-9.4 d / D-18: S2 removes a Brown Pelican with the discarded White Pelican: S2's ``reveal`` first,
    then S0's ``peek``."""
    st = a_game([FOUR[0], FOUR[1], [HUM, BPEL, KINGF, MAGPIE]], draw=[WPEL])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = play(st, 2, "pluck", **single(2, 1))

    assert decision(st)["seats"] == [2] and decision(st)["context"]["ability"] == "reveal"
    st = play(st, 2, "use_ability", ability="reveal", target=P(0, 0))
    assert decision(st)["seats"] == [0] and decision(st)["context"]["ability"] == "peek"


def test_toco_fills_the_lowest_empty_slot_of_the_opponent_bb_9_11_bb_4_4():
    """BB-9.11 b / BB-4.4 / D-6: the Toco card goes into the lowest empty slot (a gap), not a new slot."""
    st = a_game([FOUR[0], [DUCK, None, CRANE, None], FOUR[2]], draw=[TOCO, PEACOCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)

    st, events = act(st, 0, "use_ability", ability="toco", target_seat=1)

    assert ref(st)["displays"][1] == [DUCK, PEACOCK, CRANE, None]
    assert _one(events, "toco_added")["slot"] == 1


def test_shoebill_with_only_one_drawable_card_lets_the_user_choose_bb_9_12_b_d_28():
    """BB-9.12 b, c / D-28 / BB-12.2 / BB-12.8: the first Shoebill draw recycles the single card under the
    Shoebill; the second draw is impossible and starts the final phase (exhaustion); the user places the one
    card as the opponent replacement, leaving the own replacement out."""
    hands = [
        [HUM, SPARROW, KINGF, MAGPIE],
        [DUCK, IBIS, CRANE, PEACOCK],
        rest_of_deck(HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS, CRANE, PEACOCK, CRANE, SHOEBILL),
    ]
    st = a_game(hands, discard=[CRANE], draw=[SHOEBILL])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)

    st, events = act(st, 0, "use_ability", ability="shoebill")

    assert types(events)[:3] == ["recycled", "automatic_final_phase", "shoebill_drawn"]
    assert ref(st)["final_phase"] == {"anchor": 0, "cause": "exhaustion"} and ref(st)["drawn"] == [CRANE]
    assert E.view(st, 0)["decision"]["context"] == {
        "drawn": [CRANE],
        "own_possible": True,
        "opponent_possible": True,
    }
    st = play(st, 0, "shoebill_place", mine=None, theirs={"card": 0, "target": P(1, 3)})
    r = ref(st)
    assert r["displays"][1][3] == CRANE and r["under_discard"] == 1 and r["displays"][0][0] == HUM
    assert kind(st) != "end_turn" and r["active"] == 1


# --- BB-10 / BB-11: BAO and the Shield -------------------------------------------------------------------


def test_bao_on_the_first_turn_of_a_round_bb_10_1_d_34():
    """BB-10.1 / D-34: BAO may be called on the very first turn, right after the setup peek."""
    st = a_fresh_game(FOUR, SPARROW, draw=[HUM], first=1)
    for s in range(3):
        st = play(st, s, "choose_peek", slots=[0, 1])
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st = pass_all(st)

    st, events = act(st, 1, "end_turn", bao=True)

    assert _one(events, "bao_called")["seat"] == 1 and ref(st)["active"] == 2


def test_two_player_caller_takes_no_further_turn_bb_10_2_c():
    """BB-10.2 b–d: with two participants, the opponent takes one final turn and the round ends."""
    st = a_game(
        [[HUM, SPARROW, KINGF, MAGPIE, DUCK], [IBIS, CRANE, PEACOCK, DUCK, MAGPIE]], draw=[HUM, SPARROW]
    )
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = play(st, 1, "pass")
    st = play(st, 0, "end_turn", bao=True)
    assert ref(st)["active"] == 1
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")

    st, events = act(st, 0, "pass")

    ended = _one(events, "round_ended")
    assert ended["round"] == 1 and ended["bao"] == {"caller": 0, "success": True}
    assert ref(st)["round"] == 2


def test_failed_pluck_on_callers_card_does_not_activate_the_shield_d_32_bb_11_3_b():
    """D-32 / BB-11.3 b: a failed pluck at the caller's card is no change; a Cuckoo swap with the caller's
    card activates the Shield after the swap; later attempts are ``shielded``."""
    st = a_game(
        [[HUM, SPARROW, KINGF, None], [DUCK, IBIS, CRANE, PEACOCK], [MAGPIE, PEACOCK, HUM, SPARROW]],
        draw=[CUCKOO, IBIS, HUM],
        active=1,
        bao_caller=0,
    )
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st, events = act(st, 2, "pluck", **single(0, 0, 0))
    assert _one(events, "pluck_resolved")["success"] is False and ref(st)["shield_active"] is False

    st, events = act(st, 1, "use_ability", ability="blind_swap", targets=[P(0, 0), P(1, 0)])

    assert types(events)[:2] == ["blind_swapped", "shield_activated"]
    assert ref(st)["shield_active"] is True and ref(st)["displays"][0][0] == DUCK
    assert ref(st)["active"] == 2
    st = play(st, 2, "draw")
    assert error(st, 2, "pluck", **single(0, 1, 1)) == "shielded"


def test_double_pluck_on_two_caller_cards_completes_before_the_shield_bb_11_3_a():
    """BB-11.3 a: an opponent's double pluck of two caller cards is carried out completely (both removals,
    both gifts); the Shield activates once, after it."""
    st = a_game(
        [[HUM, HUM, KINGF, None], [DUCK, IBIS, CRANE, PEACOCK], [MAGPIE, PEACOCK, HUM, SPARROW]],
        draw=[HUM],
        active=1,
        bao_caller=0,
    )
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")

    st, events = act(st, 2, "pluck", **double((0, 0), (0, 1), [0, 1]))

    assert types(events)[:2] == ["pluck_resolved", "shield_activated"]
    assert types(events).count("shield_activated") == 1
    assert ref(st)["displays"][0] == [MAGPIE, PEACOCK, KINGF, None]


def test_shield_never_restricts_the_caller_bb_11_5():
    """BB-11.5 / BB-10.3: while the Shield is active the caller plucks their own card and swaps it with
    their earned Cuckoo; the active player's Cuckoo cannot touch the caller's cards."""
    st = a_game(
        [[CUCKOO, SPARROW, KINGF, None], [DUCK, IBIS, CRANE, PEACOCK], FOUR[2]],
        draw=[CUCKOO],
        active=1,
        bao_caller=0,
        shield_active=True,
    )
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")

    st = play(st, 0, "pluck", **single(0, 0))
    st = play(st, 0, "use_ability", ability="blind_swap", targets=[P(0, 1), P(1, 0)])

    assert ref(st)["displays"][0] == [None, DUCK, KINGF, None] and ref(st)["displays"][1][0] == SPARROW
    assert decision(st)["seats"] == [1]
    assert error(st, 1, "use_ability", ability="blind_swap", targets=[P(0, 2), P(2, 0)]) == "shielded"
    st = play(st, 1, "use_ability", ability="blind_swap", targets=[P(1, 1), P(2, 0)])
    assert ref(st)["displays"][1][1] == HUM


def test_peek_and_reveal_of_shielded_cards_are_allowed_bb_11_4():
    """BB-11.4 / BB-9.8: revealing a protected card is allowed and changes nothing."""
    st = a_game(FOUR, draw=[BPEL], active=0, bao_caller=2, shield_active=True)
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)

    st = play(st, 0, "use_ability", ability="reveal", target=P(2, 3))

    assert all(E.view(st, s)["displays"][2][3] == MAGPIE for s in range(3))


# --- BB-12: recycling and the automatic final phase ---------------------------------------------------


def test_recycling_includes_shoebill_under_cards_and_keeps_the_top_card_bb_12_2_bb_9_12_e():
    """BB-9.12 e / BB-12.2 / BB-25.9: the cards a Shoebill put beneath the pile are recycled with the rest of
    the discard pile; its top card (the Shoebill) stays."""
    hands = [
        [HUM, SPARROW, KINGF, MAGPIE],
        [DUCK, IBIS, CRANE, PEACOCK],
        rest_of_deck(
            HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS, CRANE, PEACOCK, WPEL, SHOEBILL, GOLDEN, PEACOCK
        ),
    ]
    st = a_game(hands, discard=[WPEL], draw=[SHOEBILL, GOLDEN, PEACOCK], seed="under")
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)
    st = play(st, 0, "use_ability", ability="shoebill")
    st = play(st, 0, "shoebill_place", mine={"card": 0, "slot": 0}, theirs={"card": 1, "target": P(1, 0)})
    assert ref(st)["under_discard"] == 2 and ref(st)["draw"] == []
    st = play(st, 0, "end_turn", bao=False)

    st, events = act(st, 1, "draw")

    expected = sorted([WPEL, HUM, DUCK], key=CODE_OF.index)
    random.Random("baobei:under:round:1:recycle:1").shuffle(expected)
    r = ref(st)
    assert r["recycles"] == 1 and r["discard"] == [SHOEBILL] and r["under_discard"] == 0
    assert r["drawn"] + r["draw"] == expected
    assert _one(events, "recycled")["draw_size"] == 3


def test_penalty_causing_second_recycling_anchors_on_the_active_player_d_39():
    """BB-12.5 / D-39: S1's failed window pluck needs a penalty card; the resulting second recycling starts
    the automatic final phase with the active S0 as anchor; S0 gets no ``end_turn``; S1 and S2 still take
    their final turns, then the round ends."""
    hands = [
        [HUM, SPARROW, KINGF, MAGPIE],
        [DUCK, IBIS, CRANE, PEACOCK],
        rest_of_deck(HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS, CRANE, PEACOCK, WPEL, MACAW, HUM),
    ]
    st = a_game(hands, discard=[WPEL, MACAW], draw=[HUM], recycles=1)
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st, events = act(st, 1, "pluck", **single(1, 0))

    assert types(events).index("recycled") < types(events).index("automatic_final_phase")
    assert ref(st)["final_phase"] == {"anchor": 0, "cause": "recycling"} and ref(st)["recycles"] == 2
    assert ref(st)["displays"][1][4] is not None
    assert ref(st)["active"] == 1 and kind(st) == "turn_action"
    st = play(st, 1, "take_discard", slot=0)
    st = pass_all(st)
    assert ref(st)["active"] == 2 and kind(st) == "turn_action"
    st = play(st, 2, "take_discard", slot=0)
    st, events = act(st, 0, "pass")
    st, events = act(st, 1, "pass")
    assert _one(events, "round_ended")["round"] == 1


# --- BB-13: participants without cards ------------------------------------------------------------------


def test_giving_away_the_last_card_leaves_the_plucker_in_the_round_bb_13_1_bb_13_2():
    """BB-7.4 (iii) / BB-13.1 – BB-13.3: a plucker may give away their last card; they stay in the round,
    cannot be targeted, and on their turn the drawn card is discarded automatically, with a window."""
    st = a_game([FOUR[0], [None, None, KINGF, None], FOUR[2]], draw=[HUM, IBIS])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = play(st, 1, "pluck", **single(2, 0, 2))
    assert ref(st)["displays"][1] == [None, None, None, None] and ref(st)["displays"][2][0] == KINGF
    st = play(st, 0, "end_turn", bao=False)
    assert decision(st)["context"]["can_take"] is False

    st, events = act(st, 1, "draw")

    assert _one(events, "discarded") == {
        "type": "discarded",
        "visible_to": "all",
        "seat": 1,
        "card": IBIS,
        "automatic": True,
    }
    assert decision(st)["kind"] == "pluck_window" and decision(st)["seats"] == [0, 2]
    assert error(st, 2, "pluck", **single(1, 2, 0)) == "slot_empty"


# --- BB-1.3 / BB-3.7 / BB-15: thresholds, starting players, deciding rounds -------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("missing", [1, 2])
def test_default_threshold_per_player_count_ends_the_game_bb_1_3_bb_15_1(players, missing):
    """§2.3 / BB-15.1: the game ends after a round in which a running total reaches the default threshold
    for the number of players (100 / 80 / 80 / 60 / 60), not before. S0 scores 1 in the round."""
    threshold = {2: 100, 3: 80, 4: 80, 5: 60, 6: 60}[players]
    hands = [[HUM], [GOLDEN]] + [[SPARROW]] * (players - 2)
    totals = [threshold - missing] + [0] * (players - 1)
    st = E.setup(
        players,
        {
            "deal": {"hands": hands, "discard": [SPARROW], "draw": [KINGF] * 5},
            "start": {"active": 2 % players, "bao_caller": 1, "totals": totals},
        },
        "t",
    )

    while E.pending(st) and ref(st)["round"] == 1:
        seat = decision(st)["seats"][0]
        st = (
            play(st, seat, "draw")
            if kind(st) == "turn_action"
            else play(st, seat, "discard")
            if kind(st) == "after_draw"
            else play(st, seat, "pass")
        )

    assert ref(st)["totals"][:2] == [threshold - missing + 1, -5]
    assert ref(st)["over"] is (missing == 1)


@pytest.mark.parametrize(("first", "expected"), [(1, 2), (0, 0), (2, 2)])
def test_later_round_starts_with_highest_score_earliest_in_turn_order_bb_3_7_b_c(first, expected):
    """BB-3.7 b, c / D-46: S0 and S2 share the highest score (12); the next round starts with whichever of
    them comes first in the previous round's turn order counted from its starting player."""
    deal = {"hands": [[PEACOCK], [HUM], [PEACOCK]], "discard": [SPARROW], "draw": [KINGF] * 2}
    st = E.setup(3, {"deal": deal, "start": {"active": 2, "bao_caller": 1}, "first_player": first}, "t")
    for seat in (2, 0):
        st = play(st, seat, "draw")
        st = play(st, seat, "discard")
        st = pass_all(st)
    assert ref(st)["round_scores"] == [12, 0, 12] and ref(st)["round"] == 2

    for s in range(3):
        st = play(st, s, "choose_peek", slots=[0, 1])

    assert ref(st)["active"] == expected and kind(st) == "turn_action"


def test_repeated_deciding_rounds_through_apply_bb_15_3_bb_15_4_bb_15_5():
    """BB-15.3 – BB-15.5 / D-45 / BB-25.2 1: S1, S2, S3 tie on the lowest total → deciding round (4 cards
    each, S0 sits out). It ends by the second recycling (BB-12.5) with S1 and S2 tied on 10 → a second
    deciding round between them (5 cards each), which S1 wins. Running totals never change; standings:
    S1, S2 (out in the later deciding round), S3 (out earlier), S0."""
    start_deal = {"hands": [[PEACOCK], [HUM], [HUM], [HUM]], "discard": [SPARROW], "draw": [SPARROW] * 3}
    deciding_1 = {
        "hands": [
            [],
            [HUM, SPARROW, KINGF, MAGPIE],
            [MAGPIE, KINGF, SPARROW, HUM],
            [PEACOCK, CRANE, IBIS, DUCK],
        ],
        "discard": IBIS,
    }
    deciding_2 = {
        "hands": [[], [HUM, HUM, SPARROW, SPARROW, KINGF], [DUCK, DUCK, IBIS, IBIS, MAGPIE], []],
        "discard": CRANE,
    }
    st = E.setup(
        4,
        {
            "deals": [start_deal, deciding_1, deciding_2],
            "threshold": 80,
            "start": {"round": 7, "totals": [75, 60, 60, 60], "active": 1, "bao_caller": 0},
        },
        "dr",
    )
    for seat in (1, 2, 3):
        st = play(st, seat, "draw")
        st = play(st, seat, "discard")
        st = pass_all(st)
    assert ref(st)["totals"] == [99, 61, 61, 61] and ref(st)["round"] == 8
    assert kind(st) == "setup_peek" and decision(st)["seats"] == [1, 2, 3]

    st, events = _by_timeouts(st)

    assert _one(events, "automatic_final_phase")["cause"] == "recycling"
    ended = _one(events, "round_ended")
    assert ended["deciding"] is True and ended["bao"] is None
    assert ended["scores"] == [None, 10, 10, 34] and ended["totals"] == [99, 61, 61, 61]
    started = _one(events, "round_started")
    assert started["round"] == 9 and started["deciding"] is True and started["participants"] == [1, 2]
    assert ref(st)["displays"] == [[], deciding_2["hands"][1], deciding_2["hands"][2], []]
    st = play(st, 1, "choose_peek", slots=[0, 1])
    st = play(st, 2, "choose_peek", slots=[0, 1])
    assert ref(st)["active"] == [1, 2][random.Random("baobei:dr:round:9:first").randrange(2)]

    st, events = _by_timeouts(st)

    assert _one(events, "round_ended")["scores"] == [None, 9, 26, None]
    game = _one(events, "game_ended")
    assert game["winner"] == 1 and ref(st)["winners"] == [1] and ref(st)["totals"] == [99, 61, 61, 61]
    assert [(s["seat"], s["position"]) for s in game["standings"]] == [(1, 1), (2, 2), (3, 3), (0, 4)]
    assert [r["seats"] for r in game["deciding_rounds"]] == [[1, 2, 3], [1, 2]]


# --- BB-24: defaults ----------------------------------------------------------------------------------


def test_default_shoebill_placement_bb_24():
    """BB-24: card 0 replaces the user's lowest untouched card, card 1 the first eligible opponent card in
    turn order after the user (S2 before S0, skipping the shielded caller S0)."""
    st = a_game(
        [[HUM, SPARROW, KINGF, MAGPIE], [None, IBIS, CRANE, PEACOCK], [None, None, DUCK, MAGPIE]],
        draw=[SHOEBILL, GOLDEN, PEACOCK],
        active=1,
        bao_caller=0,
        shield_active=True,
    )
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st = pass_all(st)
    st = play(st, 1, "use_ability", ability="shoebill")

    t = E.timeout_action(st, 1)

    assert (t["mine"], t["theirs"]) == ({"card": 0, "slot": 1}, {"card": 1, "target": P(2, 2)})
    st = E.apply(st, 1, t)[0]
    assert ref(st)["displays"][1][1] == GOLDEN and ref(st)["displays"][2][2] == PEACOCK


def test_default_turn_takes_the_discard_when_draw_is_impossible_bb_24():
    """BB-24 / D-43: with nothing to draw, the default turn takes the discard into the lowest occupied
    slot."""
    st = a_game([[None, HUM], [KINGF], rest_of_deck(HUM, KINGF, CRANE)], discard=[CRANE])

    t = E.timeout_action(st, 0)

    assert t == {
        "type": "take_discard",
        "decision_id": decision(st)["decision_id"],
        "slot": 1,
        "timeout": True,
    }
    st = E.apply(st, 0, t)[0]
    assert ref(st)["displays"][0] == [None, CRANE]


# --- BB-30.6: multi-owner decisions -------------------------------------------------------------------


def test_passes_and_peek_choices_are_public_only_when_the_decision_closes_bb_30_6_d_50():
    """BB-30.6 / D-50: a pass and a setup-peek choice publish nothing while the decision stays open; the
    closing events list them."""
    st = a_fresh_game(FOUR, SPARROW, draw=[HUM])
    st, events = act(st, 1, "choose_peek", slots=[2, 3])
    assert [e for e in events if e["visible_to"] == "all"] == []
    st = play(st, 0, "choose_peek", slots=[0, 1])
    st, events = act(st, 2, "choose_peek", slots=[1, 0])
    assert _one(events, "setup_peek_done")["choices"][1] == {"seat": 1, "slots": [2, 3]}
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st, events = act(st, 2, "pass")

    assert [e for e in events if e["visible_to"] == "all"] == []
    st, events = act(st, 1, "pass")
    assert _one(events, "window_closed")["passed"] == [1, 2]


# --- further rare rules ---------------------------------------------------------------------------------


def test_shoebill_does_not_match_toco_despite_equal_value_bb_2_2():
    """BB-2.2 / §2.2: matching is by family only: a drawn Toco Toucan (13) does not match a Shoebill (13)."""
    st = a_game([[SHOEBILL, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[TOCO, PEACOCK])
    st = play(st, 0, "draw")

    st, events = act(st, 0, "pluck", **single(0, 0))

    assert _one(events, "pluck_resolved")["success"] is False
    assert ref(st)["displays"][0] == [SHOEBILL, HUM, KINGF, MAGPIE, PEACOCK]


def test_taking_an_ability_card_from_the_discard_triggers_nothing_bb_9_2():
    """BB-9.2 / BB-5.6: taking a Macaw from the discard pile and giving up a Cuckoo trigger no ability."""
    st = a_game([[CUCKOO, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], discard=[SPARROW, MACAW])
    st = play(st, 0, "take_discard", slot=0)

    st, events = act(st, 1, "pass")
    st, events = act(st, 2, "pass")

    assert "ability_offered" not in types(events) and kind(st) == "end_turn"


def test_golden_toucan_has_no_ability_bb_9_13_bb_9_4_a():
    """BB-9.13 / BB-9.4 a: an own-draw Toco pluck removing the Golden Toucan offers only the Toco's
    ability."""
    st = a_game([[GOLDEN, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[TOCO, PEACOCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(0, 0))

    assert decision(st)["context"] == {"ability": "toco", "card": TOCO, "trigger": "own_draw_reference"}
    st = play(st, 0, "decline_ability")
    assert kind(st) == "end_turn"


def test_third_recycling_changes_nothing_bb_12_5_d_bb_12_7():
    """BB-12.5 / BB-12.7 / BB-25.4: the second recycling anchors the final phase on S1; a third recycling in
    S0's final turn changes neither the anchor nor the end (after S0, the seat before the anchor). The
    finished game's referee view keeps the last round's recycle count and final phase."""
    hands = [
        [HUM, SPARROW, KINGF, MAGPIE],
        [DUCK, IBIS, CRANE, PEACOCK],
        rest_of_deck(HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS, CRANE, PEACOCK, SPARROW, KINGF, HUM),
    ]
    st = a_game(hands, discard=[SPARROW, KINGF], draw=[HUM], recycles=1)
    st = play(st, 0, "draw")
    st = pass_all(play(st, 0, "discard"))
    st = play(st, 0, "end_turn", bao=False)
    st = play(st, 1, "draw")
    assert ref(st)["final_phase"] == {"anchor": 1, "cause": "recycling"}
    st = pass_all(play(st, 1, "discard"))
    st = pass_all(play(play(st, 2, "draw"), 2, "discard"))
    assert ref(st)["active"] == 0 and ref(st)["draw"] == []

    st, events = act(st, 0, "draw")

    assert ref(st)["recycles"] == 3 and "automatic_final_phase" not in types(events)
    st = play(st, 0, "discard")
    st, events = act(st, 1, "pass")
    st, events = act(st, 2, "pass")
    assert _one(events, "round_ended")["bao"] is None
    r = ref(st)
    assert r["over"] is True and r["recycles"] == 3
    assert r["final_phase"] == {"anchor": 1, "cause": "recycling"}
