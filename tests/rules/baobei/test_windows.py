"""Plucking windows and references (BB-6): who may pluck, passing, and which cards open no window."""

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
    a_game,
    act,
    decision,
    double,
    error,
    kind,
    play,
    ref,
    single,
    types,
)


def test_own_draw_pluck_discards_the_drawn_card_and_opens_no_window_bb_5_7_bb_6_3():
    """BB-5.7 / BB-6.3 / D-10: after an own-draw pluck the drawn card is discarded; no window."""
    st = a_game(FOUR, draw=[KINGF])

    st = play(st, 0, "draw")
    st, events = act(st, 0, "pluck", **single(2, 2, 0))

    assert "window_opened" not in types(events) and kind(st) == "end_turn"
    assert ref(st)["discard"][-2:] == [KINGF, KINGF]


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


def test_caller_may_pluck_in_windows_bb_6_7():
    """BB-6.7 / BB-10.3: during the final turns the caller is eligible for windows."""
    st = a_game(FOUR, draw=[HUM], active=0, bao_caller=2)

    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    assert decision(st)["seats"] == [1, 2]


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
