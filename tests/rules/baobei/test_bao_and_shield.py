"""Calling BAO and the Shield (BB-10, BB-11): final turns, when the Shield activates, what it protects."""

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
    P,
    a_fresh_game,
    a_game,
    act,
    decision,
    double,
    error,
    kind,
    one_event,
    pass_all,
    play,
    ref,
    single,
    types,
)


def test_bao_on_the_first_turn_of_a_round_bb_10_1_d_34():
    """BB-10.1 / D-34: BAO may be called on the very first turn, right after the setup peek."""
    st = a_fresh_game(FOUR, SPARROW, draw=[HUM], first=1)
    for s in range(3):
        st = play(st, s, "choose_peek", slots=[0, 1])
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st = pass_all(st)

    st, events = act(st, 1, "end_turn", bao=True)

    assert one_event(events, "bao_called")["seat"] == 1 and ref(st)["active"] == 2


def test_bao_gives_every_other_participant_one_final_turn_bb_10_2():
    """BB-10.1 / BB-10.2: after BAO the others play once each; the caller plays no more."""
    st = a_game(FOUR, draw=[HUM, HUM, SPARROW, SPARROW])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)
    st = play(st, 0, "end_turn", bao=True)
    for seat in (1, 2):
        assert ref(st)["active"] == seat
        st = play(st, seat, "draw")
        st = play(st, seat, "discard")
        assert kind(st) == "pluck_window"
        st = pass_all(st)
        assert kind(st) != "end_turn"

    assert ref(st)["round"] == 2


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

    ended = one_event(events, "round_ended")
    assert ended["round"] == 1 and ended["bao"] == {"caller": 0, "success": True}
    assert ref(st)["round"] == 2


def test_own_changes_never_activate_the_shield_bb_11_2_bb_11_3():
    """BB-11.2 / BB-11.3: the caller's own plucks never activate the Shield; an opponent's pluck on the
    caller's display does, after its gifts."""
    st = a_game(FOUR, draw=[HUM, KINGF], active=0, bao_caller=2)
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = play(st, 2, "pluck", **single(2, 0))
    assert ref(st)["shield_active"] is False
    st = play(st, 1, "draw")
    st, events = act(st, 1, "pluck", **single(2, 2, 0))

    assert types(events)[:2] == ["pluck_resolved", "shield_activated"]
    assert next(e for e in events if e["type"] == "round_ended")["displays"][2][2] == DUCK


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
    assert one_event(events, "pluck_resolved")["success"] is False and ref(st)["shield_active"] is False

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


def test_shielded_card_cannot_be_targeted_even_by_a_failing_pluck_bb_11_4():
    """BB-11.4 / D-33: ``shielded`` for any pluck at the caller's cards."""
    st = a_game(FOUR, draw=[HUM], active=0, bao_caller=2, shield_active=True)
    st = play(st, 0, "draw")

    assert error(st, 0, "pluck", **single(2, 3, 0)) == "shielded"


def test_peek_and_reveal_of_shielded_cards_are_allowed_bb_11_4():
    """BB-11.4 / BB-9.8: revealing a protected card is allowed and changes nothing."""
    st = a_game(FOUR, draw=[BPEL], active=0, bao_caller=2, shield_active=True)
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)

    st = play(st, 0, "use_ability", ability="reveal", target=P(2, 3))

    assert all(E.view(st, s)["displays"][2][3] == MAGPIE for s in range(3))


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
