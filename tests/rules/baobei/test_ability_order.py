"""When abilities trigger and in which order (BB-9.2 – BB-9.6): references, window pluckers before
the active player, infeasible abilities, and the ability-touched rule."""

from __future__ import annotations

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
    P,
    a_game,
    act,
    decision,
    error,
    kind,
    one_event,
    play,
    ref,
    single,
    types,
)


def test_taking_an_ability_card_from_the_discard_triggers_nothing_bb_9_2():
    """BB-9.2 / BB-5.6: taking a Macaw from the discard pile and giving up a Cuckoo trigger no ability."""
    st = a_game([[CUCKOO, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], discard=[SPARROW, MACAW])
    st = play(st, 0, "take_discard", slot=0)

    st, events = act(st, 1, "pass")
    st, events = act(st, 2, "pass")

    assert "ability_offered" not in types(events) and kind(st) == "end_turn"


def test_single_own_draw_pluck_orders_reference_then_removed_ability_bb_9_4_a():
    """BB-9.4 a: first the drawn reference's ability, then the removed card's."""
    st = a_game([[MACAW, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[MACAW])

    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(0, 0))

    assert decision(st)["context"]["trigger"] == "own_draw_reference"
    st = play(st, 0, "decline_ability")
    assert decision(st)["context"]["trigger"] == "single_removal"


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

    assert one_event(events, "pluck_resolved")["success"] is False
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


def test_infeasible_ability_is_announced_without_decision_bb_9_5():
    """BB-9.5 / D-20: Toco with no eligible opponent has no effect; no decision opens."""
    st = a_game([[TOCO, HUM], [KINGF, MAGPIE]], draw=[TOCO], active=0, bao_caller=1, shield_active=True)

    st = play(st, 0, "draw")
    st, events = act(st, 0, "pluck", **single(0, 0))

    assert "ability_no_effect" in types(events) and "ability_offered" not in types(events)


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
