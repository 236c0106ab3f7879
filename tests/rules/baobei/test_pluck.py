"""Resolving a pluck (BB-7, BB-8): failures and their penalty card, double plucks and their gifts."""

from __future__ import annotations

from .helpers import (
    BPEL,
    CRANE,
    DUCK,
    FOUR,
    HUM,
    IBIS,
    KINGF,
    MAGPIE,
    PEACOCK,
    SPARROW,
    E,
    a_game,
    act,
    decision,
    double,
    error,
    kind,
    one_event,
    play,
    ref,
    rest_of_deck,
    single,
)


def test_failed_pluck_adds_one_unknown_penalty_card_bb_7_5_bb_7_6():
    """BB-7.5 / BB-7.6: a failed window pluck shows the target, gives one unseen penalty card."""
    st = a_game(FOUR, draw=[HUM, PEACOCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st, events = act(st, 1, "pluck", **single(2, 3, 0))

    r = ref(st)
    assert r["displays"][2][3] == MAGPIE and r["displays"][1] == [DUCK, IBIS, CRANE, PEACOCK, PEACOCK]
    assert all(E.view(st, s)["displays"][2][3] == MAGPIE for s in range(3))
    assert E.view(st, 1)["displays"][1][4] == "?"
    assert next(e for e in events if e["type"] == "penalty_added")["slot"] == 4


def test_penalty_skipped_when_nothing_can_be_drawn_bb_7_6():
    """BB-7.6 / BB-12.4: without any card to draw the penalty is skipped."""
    st = a_game(
        [[HUM, SPARROW], [KINGF, MAGPIE], rest_of_deck(HUM, SPARROW, KINGF, MAGPIE, CRANE)], discard=[CRANE]
    )
    st = play(st, 0, "take_discard", slot=0)

    st, events = act(st, 1, "pluck", **single(2, 0, 0))

    assert next(e for e in events if e["type"] == "penalty_added") == {
        "type": "penalty_added",
        "visible_to": "all",
        "seat": 1,
        "slot": None,
        "skipped": True,
    }
    assert ref(st)["displays"][1] == [KINGF, MAGPIE]


def test_double_pluck_needs_enough_cards_to_give_bb_8_1():
    """BB-8.1: gifts must be own cards other than own targets (``no_card_to_give``)."""
    st = a_game([[HUM, None, None, None], FOUR[1], [HUM, SPARROW, KINGF, MAGPIE]], draw=[HUM])
    st = play(st, 0, "draw")

    assert error(st, 0, "pluck", **double((0, 0), (2, 0), [None, 0])) == "no_card_to_give"


def test_successful_double_pluck_second_card_ends_on_top_bb_8_3_bb_8_5():
    """BB-8.3 / BB-8.5: the second target ends on top; only its ability triggers (own draw: the
    reference triggers nothing)."""
    st = a_game([[BPEL, HUM, KINGF, MAGPIE], FOUR[1], [HUM, SPARROW, KINGF, BPEL]], draw=[BPEL])
    st = play(st, 0, "draw")

    st = play(st, 0, "pluck", **double((0, 0), (2, 3), [None, 1]))

    assert ref(st)["discard"][-3:] == [BPEL, BPEL, BPEL]
    assert decision(st)["context"]["trigger"] == "double_removal"
    st = play(st, 0, "decline_ability")
    assert kind(st) == "end_turn"


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
    assert one_event(events, "pluck_resolved")["success"] is True
    assert MAGPIE not in str(one_event(events, "pluck_resolved")["cards"])


def test_double_pluck_failure_shows_both_and_gives_one_penalty_bb_8_4():
    """BB-8.4 / D-17: a failed double pluck shows both targets, moves nothing, one penalty card."""
    st = a_game(FOUR, draw=[HUM, PEACOCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st, events = act(st, 2, "pluck", **double((2, 0), (2, 1), [None, None]))

    res = next(e for e in events if e["type"] == "pluck_resolved")
    assert res["success"] is False and res["cards"] == [HUM, SPARROW]
    assert ref(st)["displays"][2] == [HUM, SPARROW, KINGF, MAGPIE, PEACOCK]


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
    assert one_event(events, "penalty_added")["slot"] == 1
    assert all(
        E.view(st, s)["displays"][1][0] == DUCK and E.view(st, s)["displays"][2][1] == SPARROW
        for s in range(3)
    )
    assert E.view(st, 0)["displays"][0][1] == "?"
    assert kind(st) == "end_turn"
