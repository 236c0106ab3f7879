"""A turn (BB-1.1, BB-4, BB-5) and players with no cards left (BB-13): turn order, slots and gaps,
drawing, taking the discard, discarding, and what a kept or taken ability card does."""

from __future__ import annotations

from .helpers import (
    BPEL,
    CRANE,
    CUCKOO,
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
    error,
    kind,
    one_event,
    pass_all,
    play,
    ref,
    rest_of_deck,
    single,
)


def _quiet_turn(st: dict, seat: int) -> dict:
    st = play(st, seat, "draw")
    st = play(st, seat, "discard")
    st = pass_all(st)
    while kind(st) == "ability":
        st = play(st, decision(st)["seats"][0], "decline_ability")
    if kind(st) == "end_turn":
        st = play(st, seat, "end_turn", bao=False)
    return st


def test_play_passes_clockwise_and_wraps_bb_1_1():
    """BB-1.1: play passes to the next higher seat, wrapping from the highest to the lowest."""
    st = a_game(FOUR, draw=[HUM, HUM, SPARROW], active=1)

    st = _quiet_turn(st, 1)
    assert ref(st)["active"] == 2
    st = _quiet_turn(st, 2)

    assert ref(st)["active"] == 0


def test_removal_leaves_gap_and_additions_fill_lowest_empty_slot_bb_4_2_bb_4_4():
    """BB-4.2 / BB-4.4: a removed card leaves its slot empty; a penalty fills the lowest empty slot,
    or a new slot is appended."""
    st = a_game([[HUM, None, KINGF, None], FOUR[1], FOUR[2]], draw=[CRANE, DUCK])

    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(0, 0))
    assert ref(st)["displays"][0] == [HUM, DUCK, KINGF, None]

    st = a_game([[HUM, SPARROW, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[CRANE, DUCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(0, 0))
    assert ref(st)["displays"][0] == [HUM, SPARROW, KINGF, MAGPIE, DUCK]


def test_gift_takes_the_removed_cards_slot_bb_4_5():
    """BB-4.5: the gift leaves the giver's slot empty and occupies the target's slot."""
    st = a_game(FOUR, draw=[IBIS])

    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(1, 1, 3))

    assert ref(st)["displays"][0] == [HUM, SPARROW, KINGF, None]
    assert ref(st)["displays"][1] == [DUCK, MAGPIE, CRANE, PEACOCK]


def test_kept_ability_card_triggers_nothing_bb_2_3_bb_5_4():
    """BB-2.3 / BB-5.4: keeping a Cuckoo (and discarding the old card) triggers no ability."""
    st = a_game(FOUR, draw=[CUCKOO])

    st = play(st, 0, "draw")
    st = play(st, 0, "keep", slot=3)
    st = pass_all(st)

    assert kind(st) == "end_turn"
    assert E.view(st, 0)["displays"][0][3] == CUCKOO


def test_direct_discard_triggers_ability_after_window_bb_5_5():
    """BB-5.5 / BB-9.1 a: the discarded drawn card's ability is offered after its window."""
    st = a_game(FOUR, draw=[BPEL])

    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    assert kind(st) == "pluck_window"
    st = pass_all(st)

    assert decision(st)["context"] == {"ability": "reveal", "card": BPEL, "trigger": "direct_discard"}


def test_take_discard_gives_no_pluck_to_active_bb_5_6():
    """BB-5.6 / BB-6.6 g: taking the discard: no own pluck; the window excludes the active player."""
    st = a_game(FOUR, discard=HUM)

    st = play(st, 0, "take_discard", slot=3)

    assert decision(st)["kind"] == "pluck_window" and decision(st)["seats"] == [1, 2]
    assert decision(st)["context"] == {"reference": MAGPIE, "source": "take_discard", "active_seat": 0}


def test_no_possible_action_skips_to_end_of_turn_bb_5_9():
    """BB-5.9 / D-42 / BB-12.8: no draw possible and no card: the turn ends without a decision."""
    st = a_game([[None], [HUM, SPARROW], rest_of_deck(HUM, SPARROW, CRANE)], discard=[CRANE])

    r = ref(st)
    assert r["final_phase"] == {"anchor": 0, "cause": "exhaustion"}
    assert r["active"] == 1 and kind(st) == "turn_action"


def test_zero_card_player_cannot_take_the_discard_bb_13_2():
    """BB-13.2: a player without cards cannot take the discard (``no_cards``)."""
    st = a_game([[None, None], FOUR[1], FOUR[2]], draw=[HUM])

    assert decision(st)["context"]["can_take"] is False
    assert error(st, 0, "take_discard", slot=0) == "no_cards"


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

    assert one_event(events, "discarded") == {
        "type": "discarded",
        "visible_to": "all",
        "seat": 1,
        "card": IBIS,
        "automatic": True,
    }
    assert decision(st)["kind"] == "pluck_window" and decision(st)["seats"] == [0, 2]
    assert error(st, 2, "pluck", **single(1, 2, 0)) == "slot_empty"
