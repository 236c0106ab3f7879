"""One test (at least) per rule of BB-1 … BB-8 (rules/baobei.md §3)."""

from __future__ import annotations

import random

from baogame.rules.baobei.cards import CARDS, CODE_OF, DECK_TABLE

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
    SPARROW,
    TOCO,
    E,
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


def test_running_totals_start_at_zero_and_threshold_defaults_bb_1_2_bb_1_3():
    """BB-1.2 / BB-1.3 / §2.3: totals start at 0; thresholds 100 / 80 / 60."""
    st = E.setup(4, {}, 1)

    assert ref(st)["totals"] == [0, 0, 0, 0]
    assert [E.default_options(n)["threshold"] for n in range(2, 7)] == [100, 80, 80, 60, 60]


def test_deck_has_the_66_cards_of_the_table_bb_2_1():
    """BB-2.1 / §2.1: exactly 66 cards; every round uses the whole deck."""
    st = E.setup(5, {}, "deck")
    r = ref(st)
    cards = [c for d in r["displays"] for c in d] + r["discard"] + r["draw"]

    assert len(CODE_OF) == 66 and sorted(cards) == sorted(CODE_OF)
    assert sum(row[5] for row in DECK_TABLE) == 66 and CARDS[GOLDEN]["value"] == -5


def test_golden_toucan_matches_toco_but_shoebill_does_not_bb_2_2():
    """BB-2.2: the Golden Toucan matches the Toco Toucan (same family)."""
    st = a_game([[GOLDEN, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[TOCO])

    st = play(st, 0, "draw")
    st, events = act(st, 0, "pluck", **single(0, 0))

    assert next(e for e in events if e["type"] == "pluck_resolved")["success"] is True


def test_kept_ability_card_triggers_nothing_bb_2_3_bb_5_4():
    """BB-2.3 / BB-5.4: keeping a Cuckoo (and discarding the old card) triggers no ability."""
    st = a_game(FOUR, draw=[CUCKOO])

    st = play(st, 0, "draw")
    st = play(st, 0, "keep", slot=3)
    st = pass_all(st)

    assert kind(st) == "end_turn"
    assert E.view(st, 0)["displays"][0][3] == CUCKOO


def test_five_cards_for_two_players_else_four_bb_3_3():
    """BB-3.3: 5 cards each with 2 participants, otherwise 4."""
    assert [len(d) for d in ref(E.setup(2, {}, 3))["displays"]] == [5, 5]
    assert [len(d) for d in ref(E.setup(6, {}, 3))["displays"]] == [4] * 6


def test_initial_discard_is_neutral_but_may_be_taken_bb_3_4():
    """BB-3.4 / D-8: the initial discard opens no window and may be taken."""
    st = a_fresh_game(FOUR, MACAW, draw=[HUM])

    assert kind(st) == "setup_peek"
    for s in range(3):
        st = play(st, s, "choose_peek", slots=[0, 1])
    assert kind(st) == "turn_action"
    st = play(st, 0, "take_discard", slot=3)

    assert ref(st)["displays"][0][3] == MACAW and kind(st) == "pluck_window"


def test_setup_peek_default_and_first_turn_after_everyone_bb_3_5_bb_3_6():
    """BB-3.5 / BB-3.6: one simultaneous decision; default slots 0 and 1; the first turn follows it."""
    st = a_fresh_game(FOUR, SPARROW, first=2)

    st = play(st, 1, "choose_peek", slots=[3, 2])
    assert kind(st) == "setup_peek" and decision(st)["seats"] == [0, 2]
    st = play(st, 0, "choose_peek", slots=[0, 1])
    st, events = E.apply(st, 2, E.timeout_action(st, 2))

    assert E.view(st, 2)["displays"][2] == [HUM, SPARROW, "?", "?"]
    assert E.view(st, 1)["displays"][1] == ["?", "?", CRANE, PEACOCK]
    assert ref(st)["active"] == 2 and kind(st) == "turn_action"
    done = next(e for e in events if e["type"] == "setup_peek_done")
    assert done["choices"] == [
        {"seat": 0, "slots": [0, 1]},
        {"seat": 1, "slots": [3, 2]},
        {"seat": 2, "slots": [0, 1]},
    ]


def test_first_player_is_chosen_from_the_seed_bb_3_7_a():
    """BB-3.7 a / BB-25.9: the first round's starting player is randrange(n) on its own key."""
    for seed in ("a", "b", "c", 17):
        st = E.setup(5, {}, seed)
        for s in range(5):
            st = play(st, s, "choose_peek", slots=[0, 1])
        assert ref(st)["active"] == random.Random(f"baobei:{seed}:round:1:first").randrange(5)


def test_round_state_starts_clean_bb_3_8():
    """BB-3.8: recycle count 0, no caller, Shield inactive, no final phase, nothing touched."""
    r = ref(E.setup(3, {}, 9))

    assert (r["recycles"], r["bao_caller"], r["shield_active"], r["final_phase"], r["ability_touched"]) == (
        0,
        None,
        False,
        None,
        [],
    )


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


def test_take_discard_gives_no_pluck_to_active_bb_5_6():
    """BB-5.6 / BB-6.6 g: taking the discard: no own pluck; the window excludes the active player."""
    st = a_game(FOUR, discard=HUM)

    st = play(st, 0, "take_discard", slot=3)

    assert decision(st)["kind"] == "pluck_window" and decision(st)["seats"] == [1, 2]
    assert decision(st)["context"] == {"reference": MAGPIE, "source": "take_discard", "active_seat": 0}


def test_direct_discard_triggers_ability_after_window_bb_5_5():
    """BB-5.5 / BB-9.1 a: the discarded drawn card's ability is offered after its window."""
    st = a_game(FOUR, draw=[BPEL])

    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    assert kind(st) == "pluck_window"
    st = pass_all(st)

    assert decision(st)["context"] == {"ability": "reveal", "card": BPEL, "trigger": "direct_discard"}


def test_own_draw_pluck_discards_the_drawn_card_and_opens_no_window_bb_5_7_bb_6_3():
    """BB-5.7 / BB-6.3 / D-10: after an own-draw pluck the drawn card is discarded; no window."""
    st = a_game(FOUR, draw=[KINGF])

    st = play(st, 0, "draw")
    st, events = act(st, 0, "pluck", **single(2, 2, 0))

    assert "window_opened" not in types(events) and kind(st) == "end_turn"
    assert ref(st)["discard"][-2:] == [KINGF, KINGF]


def test_no_possible_action_skips_to_end_of_turn_bb_5_9():
    """BB-5.9 / D-42 / BB-12.8: no draw possible and no card: the turn ends without a decision."""
    st = a_game([[None], [HUM, SPARROW], rest_of_deck(HUM, SPARROW, CRANE)], discard=[CRANE])

    r = ref(st)
    assert r["final_phase"] == {"anchor": 0, "cause": "exhaustion"}
    assert r["active"] == 1 and kind(st) == "turn_action"


def test_window_eligibility_excludes_seats_without_cards_bb_6_6_a():
    """BB-6.6 a / D-13: eligible seats are the non-active participants holding a card."""
    st = a_game([FOUR[0], [None, None, None, None], FOUR[2]], draw=[HUM])

    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    assert decision(st)["seats"] == [2]


def test_passing_is_final_bb_6_6_e():
    """BB-6.6 e / D-15: a seat that passed cannot respond again."""
    st = a_game(FOUR, draw=[HUM])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st = play(st, 1, "pass")

    assert error(st, 1, "pluck", **single(1, 0)) == "already_responded"


def test_removed_card_opens_no_window_no_chains_bb_6_3():
    """BB-6.3: a card removed by a pluck never opens a window."""
    st = a_game(FOUR, draw=[HUM])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st, events = act(st, 2, "pluck", **single(2, 0))

    assert types(events).count("window_opened") == 0 and kind(st) == "end_turn"


def test_caller_may_pluck_in_windows_bb_6_7():
    """BB-6.7 / BB-10.3: during the final turns the caller is eligible for windows."""
    st = a_game(FOUR, draw=[HUM], active=0, bao_caller=2)

    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    assert decision(st)["seats"] == [1, 2]


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


def test_double_pluck_failure_shows_both_and_gives_one_penalty_bb_8_4():
    """BB-8.4 / D-17: a failed double pluck shows both targets, moves nothing, one penalty card."""
    st = a_game(FOUR, draw=[HUM, PEACOCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st, events = act(st, 2, "pluck", **double((2, 0), (2, 1), [None, None]))

    res = next(e for e in events if e["type"] == "pluck_resolved")
    assert res["success"] is False and res["cards"] == [HUM, SPARROW]
    assert ref(st)["displays"][2] == [HUM, SPARROW, KINGF, MAGPIE, PEACOCK]


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
