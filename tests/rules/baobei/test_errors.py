"""BB-22 / BB-23: every error code of the table, triggered through ``apply`` from a stacked position,
and the validation order of BB-22.0 and of the action-specific checks (the earlier check's code wins
when two fail). Every refused action must leave the state unchanged (BB-20.1, BB-20.4).

``no_cards`` is triggered through ``take_discard``: the ``pluck`` check 2 (``no_cards``) cannot be
reached through the contract, because a seat with no card never owns ``after_draw`` (BB-13.3) and is
never eligible for a window (BB-6.6 a), and nothing changes a display while a window is open
(BB-6.6 h); ownership (BB-22.0 step 3) therefore always fails first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from baogame.rules.core import RuleError

from .helpers import (
    CRANE,
    CUCKOO,
    DUCK,
    FOUR,
    GOLDEN,
    HUM,
    IBIS,
    KINGF,
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
    decision,
    double,
    pass_all,
    play,
    rest_of_deck,
    single,
)

#: The action error codes of the BB-23 table.
BB_23_CODES = {
    "malformed_action",
    "stale_decision",
    "window_closed",
    "not_your_turn",
    "not_eligible",
    "not_your_decision",
    "action_not_allowed",
    "already_responded",
    "commit_not_allowed",
    "wrong_count",
    "invalid_position",
    "invalid_seat",
    "duplicate_target",
    "slot_empty",
    "no_cards",
    "draw_unavailable",
    "shielded",
    "no_card_to_give",
    "gift_missing",
    "gift_not_allowed",
    "gift_slot_empty",
    "gift_is_target",
    "duplicate_gift",
    "ability_mismatch",
    "same_player",
    "already_moved",
    "not_opponent",
    "invalid_card_index",
    "card_reused",
    "shoebill_incomplete",
}

Case = tuple[dict, int, dict]


def refused(st: dict, seat: int, action: dict[str, Any]) -> str:
    """Apply a refused action; check that nothing changed; return the error code."""
    before = json.dumps(st, sort_keys=True)
    pending = E.pending(st)

    with pytest.raises(RuleError) as info:
        E.apply(st, seat, action)

    assert json.dumps(st, sort_keys=True) == before, "a refused action changed the state"
    assert E.pending(st) == pending
    return info.value.code


def a(st: dict, atype: str, **fields: Any) -> dict[str, Any]:
    """An action answering the open decision of ``st``."""
    return {"type": atype, "decision_id": decision(st)["decision_id"], **fields}


# --- positions ---------------------------------------------------------------------------------------


def turn() -> dict:
    """S0 at ``turn_action``."""
    return a_game(FOUR, draw=[HUM, HUM])


def after_draw(draw: str = HUM, hands: list | None = None, **start: Any) -> dict:
    """S0 has drawn ``draw`` (``after_draw`` open)."""
    return play(a_game(hands or FOUR, draw=[draw, HUM], **start), 0, "draw")


def window() -> dict:
    """S0 drew a Hummingbird and discarded it: a window for S1 and S2."""
    return play(after_draw(), 0, "discard")


def ability(card: str, extra: list[str] | None = None, hands: list | None = None, **start: Any) -> dict:
    """S0 discarded ``card`` directly; the window closed; S0's ``ability`` decision is open."""
    st = play(a_game(hands or FOUR, draw=[card, *(extra or [])], **start), 0, "draw")
    st = pass_all(play(st, 0, "discard"))
    assert decision(st)["kind"] == "ability"
    return st


def shoebill_place(hands: list | None = None) -> dict:
    """S0 used a Shoebill and drew a Golden Toucan and a Peacock."""
    st = ability(SHOEBILL, [GOLDEN, PEACOCK], hands=hands)
    return play(st, 0, "use_ability", ability="shoebill")


def touched() -> dict:
    """EX-7: S2's first Cuckoo swapped S0/0 and S1/3; the second Cuckoo is offered."""
    st = a_game(
        [[HUM, DUCK, IBIS, SPARROW], [CRANE, MAGPIE, KINGF, PEACOCK], [CUCKOO, HUM, DUCK, MAGPIE]],
        draw=[CUCKOO],
        active=2,
    )
    st = play(play(st, 2, "draw"), 2, "pluck", **single(2, 0))
    return play(st, 2, "use_ability", ability="blind_swap", targets=[P(0, 0), P(1, 3)])


def touched_and_shielded() -> dict:
    """As ``touched``, but S1 is a shielded caller and the first swap was S0/0 with S2/1."""
    st = a_game(
        [[HUM, DUCK, IBIS, SPARROW], [CRANE, MAGPIE, KINGF, PEACOCK], [CUCKOO, HUM, DUCK, MAGPIE]],
        draw=[CUCKOO],
        active=2,
        bao_caller=1,
        shield_active=True,
    )
    st = play(play(st, 2, "draw"), 2, "pluck", **single(2, 0))
    return play(st, 2, "use_ability", ability="blind_swap", targets=[P(0, 0), P(2, 1)])


def exhausted() -> dict:
    """Nothing to draw and nothing to recycle; S0 still holds a card."""
    return a_game([[HUM], [KINGF], rest_of_deck(HUM, KINGF, CRANE)], discard=[CRANE])


# --- one case per code -------------------------------------------------------------------------------


def _window_closed() -> Case:
    st = window()
    old = decision(st)["decision_id"]
    st = pass_all(st)
    return st, 1, {"type": "pass", "decision_id": old}


def _already_responded() -> Case:
    st = play(window(), 1, "pass")
    return st, 1, a(st, "pass")


def _no_cards() -> Case:
    st = a_game([[None, None], FOUR[1], FOUR[2]], draw=[HUM])
    return st, 0, a(st, "take_discard", slot=0)


def _shielded() -> Case:
    st = after_draw(bao_caller=2, shield_active=True)
    return st, 0, a(st, "pluck", **single(2, 0, 0))


def _no_card_to_give() -> Case:
    st = after_draw(hands=[[HUM, None, None, None], FOUR[1], FOUR[2]])
    return st, 0, a(st, "pluck", **double((0, 0), (2, 0), [None, 0]))


CASES: dict[str, Callable[[], Case]] = {
    "malformed_action": lambda: (st := turn(), 0, a(st, "draw", slot=0)),
    "stale_decision": lambda: (turn(), 0, {"type": "draw", "decision_id": "d999"}),
    "window_closed": _window_closed,
    "not_your_turn": lambda: (st := turn(), 1, a(st, "draw")),
    "not_eligible": lambda: (st := window(), 0, a(st, "pass")),
    "not_your_decision": lambda: (st := ability(WPEL), 1, a(st, "decline_ability")),
    "action_not_allowed": lambda: (st := turn(), 0, a(st, "keep", slot=0)),
    "already_responded": _already_responded,
    "commit_not_allowed": lambda: (st := window(), 1, a(st, "pass", commit_end_turn=True)),
    "wrong_count": lambda: (st := a_fresh_game(FOUR, SPARROW), 1, a(st, "choose_peek", slots=[0, 1, 2])),
    "invalid_position": lambda: (st := after_draw(), 0, a(st, "keep", slot=4)),
    "invalid_seat": lambda: (
        st := ability(TOCO, [PEACOCK]),
        0,
        a(st, "use_ability", ability="toco", target_seat=3),
    ),
    "duplicate_target": lambda: (st := a_fresh_game(FOUR, SPARROW), 2, a(st, "choose_peek", slots=[3, 3])),
    "slot_empty": lambda: (
        st := after_draw(hands=[[HUM, None, KINGF, MAGPIE], FOUR[1], FOUR[2]]),
        0,
        a(st, "keep", slot=1),
    ),
    "no_cards": _no_cards,
    "draw_unavailable": lambda: (st := exhausted(), 0, a(st, "draw")),
    "shielded": _shielded,
    "no_card_to_give": _no_card_to_give,
    "gift_missing": lambda: (st := after_draw(), 0, a(st, "pluck", **single(1, 0, None))),
    "gift_not_allowed": lambda: (st := after_draw(), 0, a(st, "pluck", **single(0, 0, 1))),
    "gift_slot_empty": lambda: (
        st := after_draw(hands=[[HUM, None, KINGF, MAGPIE], FOUR[1], FOUR[2]]),
        0,
        a(st, "pluck", **single(1, 0, 1)),
    ),
    "gift_is_target": lambda: (st := after_draw(), 0, a(st, "pluck", **double((0, 0), (1, 0), [None, 0]))),
    "duplicate_gift": lambda: (st := after_draw(), 0, a(st, "pluck", **double((1, 0), (2, 0), [3, 3]))),
    "ability_mismatch": lambda: (
        st := ability(WPEL),
        0,
        a(st, "use_ability", ability="reveal", target=P(1, 0)),
    ),
    "same_player": lambda: (
        st := ability(CUCKOO),
        0,
        a(st, "use_ability", ability="blind_swap", targets=[P(1, 0), P(1, 1)]),
    ),
    "already_moved": lambda: (
        st := touched(),
        2,
        a(st, "use_ability", ability="blind_swap", targets=[P(1, 3), P(2, 1)]),
    ),
    "not_opponent": lambda: (
        st := ability(TOCO, [PEACOCK]),
        0,
        a(st, "use_ability", ability="toco", target_seat=0),
    ),
    "invalid_card_index": lambda: (
        st := shoebill_place(),
        0,
        a(st, "shoebill_place", mine={"card": 2, "slot": 0}, theirs={"card": 1, "target": P(1, 0)}),
    ),
    "card_reused": lambda: (
        st := shoebill_place(),
        0,
        a(st, "shoebill_place", mine={"card": 1, "slot": 0}, theirs={"card": 1, "target": P(1, 0)}),
    ),
    "shoebill_incomplete": lambda: (
        st := shoebill_place(),
        0,
        a(st, "shoebill_place", mine=None, theirs={"card": 0, "target": P(1, 0)}),
    ),
}


def test_every_bb_23_code_has_a_case():
    """BB-23: the cases below cover the whole table, and nothing else."""
    assert set(CASES) == BB_23_CODES


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_error_code_is_raised_and_changes_nothing_bb_23(code):
    """BB-23 / BB-20.1: each code is raised through ``apply`` for its situation; the state is unchanged."""
    st, seat, action = CASES[code]()

    assert refused(st, seat, action) == code


def test_refused_window_pluck_does_not_use_up_the_response_bb_20_4_bb_6_6_d():
    """BB-20.4 / BB-6.6 d: a refused pluck is not the seat's response; the seat may still respond."""
    st = window()

    assert refused(st, 1, a(st, "pluck", **single(1, 9))) == "invalid_position"
    assert decision(st)["seats"] == [1, 2]
    st = play(st, 1, "pluck", **single(1, 0, None))
    assert decision(st)["kind"] != "pluck_window"


# --- BB-22.0: the order of the common checks -----------------------------------------------------------


def _order_cases() -> dict[str, tuple[Case, str]]:
    t = turn()
    w = window()
    w_id = decision(w)["decision_id"]
    closed = pass_all(w)
    answered = play(window(), 1, "pass")
    return {
        # step 1 before step 2: a malformed action naming an unknown decision
        "malformed_before_stale": (
            (t, 0, {"type": "draw", "decision_id": "d999", "extra": 1}),
            "malformed_action",
        ),
        # step 1: an undefined enumerated value, even from a non-owner
        "malformed_kind_before_owner": (
            (w, 0, a(w, "pluck", kind="triple", targets=[], gifts=[])),
            "malformed_action",
        ),
        # step 2 before step 3: a stale decision or a closed window from a seat that owns nothing
        "stale_before_owner": ((t, 2, {"type": "draw", "decision_id": "d999"}), "stale_decision"),
        "window_closed_before_owner": ((closed, 1, {"type": "pass", "decision_id": w_id}), "window_closed"),
        # step 3 before step 4: a non-owner sending a type the decision does not allow
        "owner_before_not_allowed": ((t, 1, a(t, "keep", slot=0)), "not_your_turn"),
        "eligible_before_not_allowed": ((w, 0, a(w, "keep", slot=0)), "not_eligible"),
        # step 4 before step 5: a seat that already passed sends a type the window does not allow
        "not_allowed_before_responded": ((answered, 1, a(answered, "keep", slot=0)), "action_not_allowed"),
        # step 5 before step 6
        "responded_before_commit": (
            (answered, 1, a(answered, "pass", commit_end_turn=True)),
            "already_responded",
        ),
        # step 6 before the action-specific checks
        "commit_before_specific": (
            (w, 2, a(w, "pluck", commit_end_turn=True, **single(2, 9))),
            "commit_not_allowed",
        ),
        # ownership before the action-specific checks
        "owner_before_specific": ((t, 1, a(t, "take_discard", slot=9)), "not_your_turn"),
    }


ORDER = _order_cases()


@pytest.mark.parametrize("name", sorted(ORDER))
def test_common_checks_in_order_bb_22_0(name):
    """BB-22.0: when two checks fail, the earlier step's code is raised."""
    (st, seat, action), code = ORDER[name]

    assert refused(st, seat, action) == code


# --- BB-22: the order of the action-specific checks ----------------------------------------------------


def _specific_cases() -> dict[str, tuple[Case, str]]:
    peek_st = a_fresh_game(FOUR, SPARROW)
    zero = a_game([[None, None], FOUR[1], FOUR[2]], draw=[HUM])
    ad = after_draw()
    gap = after_draw(hands=[[HUM, None, KINGF, MAGPIE], FOUR[1], FOUR[2]])
    one = after_draw(hands=[[HUM, None, None, None], FOUR[1], FOUR[2]])
    caller = after_draw(
        hands=[[HUM, SPARROW, KINGF, MAGPIE], FOUR[1], [HUM, None, KINGF, MAGPIE]],
        bao_caller=2,
        shield_active=True,
    )
    one_vs_caller = after_draw(
        hands=[[HUM, None, None, None], FOUR[1], FOUR[2]], bao_caller=2, shield_active=True
    )
    cuckoo = ability(CUCKOO, hands=[FOUR[0], [DUCK, None, CRANE, PEACOCK], FOUR[2]])
    cuckoo_caller = ability(CUCKOO, bao_caller=2, shield_active=True)
    tch = touched_and_shielded()
    wpel = ability(WPEL)
    sb = shoebill_place()
    sb_gap = shoebill_place([[HUM, None, KINGF, MAGPIE], FOUR[1], FOUR[2]])

    def pluck(st: dict, **f: Any) -> dict:
        return a(st, "pluck", **f)

    def swap(st: dict, *targets: dict) -> dict:
        return a(st, "use_ability", ability="blind_swap", targets=list(targets))

    def place(st: dict, mine: Any, theirs: Any) -> dict:
        return a(st, "shoebill_place", mine=mine, theirs=theirs)

    return {
        # choose_peek: wrong_count, invalid_position, duplicate_target
        "peek_count_before_position": (
            (peek_st, 0, a(peek_st, "choose_peek", slots=[9, 9, 9])),
            "wrong_count",
        ),
        "peek_position_before_duplicate": (
            (peek_st, 0, a(peek_st, "choose_peek", slots=[9, 9])),
            "invalid_position",
        ),
        # take_discard: no_cards before invalid_position
        "take_no_cards_before_position": ((zero, 0, a(zero, "take_discard", slot=9)), "no_cards"),
        # pluck checks 1 … 9
        "pluck_count_before_position": (
            (ad, 0, pluck(ad, kind="single", targets=[P(9, 9)], gifts=[])),
            "wrong_count",
        ),
        "pluck_position_before_duplicate": (
            (ad, 0, pluck(ad, **double((1, 9), (1, 9), [0, 1]))),
            "invalid_position",
        ),
        "pluck_position_of_second_before_empty_first": (
            (gap, 0, pluck(gap, **double((0, 1), (7, 0), [None, 0]))),
            "invalid_position",
        ),
        "pluck_duplicate_before_empty": (
            (gap, 0, pluck(gap, **double((0, 1), (0, 1), [None, None]))),
            "duplicate_target",
        ),
        "pluck_empty_second_before_shielded_first": (
            (caller, 0, pluck(caller, **double((2, 0), (2, 1), [0, 1]))),
            "slot_empty",
        ),
        "pluck_shielded_before_no_card_to_give": (
            (one_vs_caller, 0, pluck(one_vs_caller, **double((1, 0), (2, 0), [0, None]))),
            "shielded",
        ),
        "pluck_no_card_to_give_before_gift_missing": (
            (one, 0, pluck(one, **double((0, 0), (1, 0), [None, None]))),
            "no_card_to_give",
        ),
        "pluck_gift_missing_of_first_target_first": (
            (ad, 0, pluck(ad, **double((1, 0), (0, 0), [None, 1]))),
            "gift_missing",
        ),
        "pluck_gift_not_allowed_of_first_target_first": (
            (ad, 0, pluck(ad, **double((0, 0), (1, 0), [1, None]))),
            "gift_not_allowed",
        ),
        "pluck_gift_checks_before_gift_slot_checks": (
            (ad, 0, pluck(ad, **double((0, 0), (1, 0), [9, None]))),
            "gift_not_allowed",
        ),
        "pluck_first_gift_empty_before_second_gift_invalid": (
            (gap, 0, pluck(gap, **double((1, 0), (2, 0), [1, 9]))),
            "gift_slot_empty",
        ),
        "pluck_first_gift_invalid_before_second_gift_empty": (
            (gap, 0, pluck(gap, **double((1, 0), (2, 0), [9, 1]))),
            "invalid_position",
        ),
        "pluck_gift_slot_empty_before_duplicate_gift": (
            (gap, 0, pluck(gap, **double((1, 0), (2, 0), [1, 1]))),
            "gift_slot_empty",
        ),
        # use_ability: ability_mismatch first; then the listed order
        "ability_mismatch_before_position": (
            (wpel, 0, a(wpel, "use_ability", ability="reveal", target=P(9, 9))),
            "ability_mismatch",
        ),
        "swap_count_before_position": ((cuckoo, 0, swap(cuckoo, P(9, 9))), "wrong_count"),
        "swap_position_before_empty": ((cuckoo, 0, swap(cuckoo, P(1, 1), P(2, 9))), "invalid_position"),
        "swap_empty_before_duplicate": ((cuckoo, 0, swap(cuckoo, P(1, 1), P(1, 1))), "slot_empty"),
        "swap_duplicate_before_same_player": (
            (cuckoo, 0, swap(cuckoo, P(1, 0), P(1, 0))),
            "duplicate_target",
        ),
        "swap_same_player_before_shielded": (
            (cuckoo_caller, 0, swap(cuckoo_caller, P(2, 0), P(2, 1))),
            "same_player",
        ),
        "swap_shielded_second_before_already_moved_first": (
            (tch, 2, swap(tch, P(0, 0), P(1, 0))),
            "shielded",
        ),
        # shoebill_place checks 1 … 5
        "place_index_before_reused": (
            (sb, 0, place(sb, {"card": 5, "slot": 0}, {"card": 5, "target": P(1, 0)})),
            "invalid_card_index",
        ),
        "place_reused_before_slot": (
            (sb, 0, place(sb, {"card": 0, "slot": 9}, {"card": 0, "target": P(9, 0)})),
            "card_reused",
        ),
        "place_mine_before_theirs": (
            (sb, 0, place(sb, {"card": 0, "slot": 9}, {"card": 1, "target": P(0, 0)})),
            "invalid_position",
        ),
        "place_not_opponent_before_empty": (
            (sb_gap, 0, place(sb_gap, {"card": 0, "slot": 0}, {"card": 1, "target": P(0, 1)})),
            "not_opponent",
        ),
        "place_slot_checks_before_incomplete": (
            (sb, 0, place(sb, None, {"card": 1, "target": P(1, 9)})),
            "invalid_position",
        ),
    }


SPECIFIC = _specific_cases()


@pytest.mark.parametrize("name", sorted(SPECIFIC))
def test_action_specific_checks_in_order_bb_22(name):
    """BB-22: the action-specific checks run in the order listed; the first failing one wins."""
    (st, seat, action), code = SPECIFIC[name]

    assert refused(st, seat, action) == code


def test_nobody_may_commit_the_end_of_turn_during_setup_bb_22_0_step_6():
    """BB-22.0 step 6 / BB-20.7: during the setup peek nobody is the active player, not even the seat that
    will start, so ``commit_end_turn: true`` is refused; ``false`` is accepted."""
    st = a_fresh_game(FOUR, SPARROW, first=1)

    assert refused(st, 1, a(st, "choose_peek", slots=[0, 1], commit_end_turn=True)) == "commit_not_allowed"
    st = play(st, 1, "choose_peek", slots=[0, 1], commit_end_turn=False)
    assert decision(st)["seats"] == [0, 2]


@pytest.mark.parametrize("did", ["w²", "w①", "w٣", "w" + "1" * 5000, "w" + "0" * 20, "w"])
def test_a_decision_id_that_names_no_window_is_stale_bb_22_0_step_2(did):
    """BB-22.0 step 2: an unknown ``decision_id`` is ``stale_decision``, even one that looks like a window
    id to ``str.isdigit`` (superscripts, circled or Arabic-Indic digits) or has thousands of digits."""
    st = window()

    with pytest.raises(RuleError) as exc:
        E.apply(st, 1, {"type": "pass", "decision_id": did})

    assert exc.value.code == "stale_decision"
