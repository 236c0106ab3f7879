"""Setting up a game and a round (BB-1.2, BB-1.3, BB-3): totals and threshold, dealing, the initial
discard, the setup peek, the starting player, a clean round state."""

from __future__ import annotations

import random

import pytest

from .helpers import (
    CRANE,
    FOUR,
    HUM,
    KINGF,
    MACAW,
    PEACOCK,
    SPARROW,
    E,
    a_fresh_game,
    decision,
    kind,
    pass_all,
    play,
    ref,
)


def test_running_totals_start_at_zero_and_threshold_defaults_bb_1_2_bb_1_3():
    """BB-1.2 / BB-1.3 / §2.3: totals start at 0; thresholds 100 / 80 / 60."""
    st = E.setup(4, {}, 1)

    assert ref(st)["totals"] == [0, 0, 0, 0]
    assert [E.default_options(n)["threshold"] for n in range(2, 7)] == [100, 80, 80, 60, 60]


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
