"""BH-6 the emperor offer, BH-7 partner and lone emperor, BH-8 declarations, BH-9 guesses."""

from __future__ import annotations

from baogame.rules.baohuang.engine import ENGINE

from .helpers import a_game, act, find, keep_and_declare, refused, types

BASE = [["6", "7"], ["8", "9"], ["10", "J"], ["Q", "K"], ["A", "2"]]


def hands_with(rj: int, bj: int) -> list[list[str]]:
    hands = [h[:] for h in BASE]
    hands[rj].append("RJ*")
    hands[bj].append("BJ*")
    return hands


def test_emperor_card_passes_to_next_seat_and_keeper_becomes_emperor_bh_6_w_2():
    """BH-6.1, BH-6.2, BH-7.3, W-2: s3 passes, s4 passes, s0 keeps and is told where BJ* is."""
    state, setup_events = ENGINE.setup_with_events(5, {"deal": {"hands": hands_with(3, 1)}}, "w2")
    assert find(setup_events, "emperor_card_shown")["seat"] == 3

    state, ev1 = act(state, 3, {"type": "pass_emperor"})
    state, ev2 = act(state, 4, {"type": "pass_emperor"})
    counts = ENGINE.view(state, None)["counts"]
    state, ev3 = act(state, 0, {"type": "keep_emperor"})

    assert find(ev1, "emperor_card_passed") == {
        "type": "emperor_card_passed",
        "visible_to": "all",
        "from": 3,
        "to": 4,
        "by_timeout": False,
    }
    assert counts == [3, 3, 2, 2, 2]
    assert types(ev3) == ["emperor_settled", "partner_notice"]
    assert find(ev3, "partner_notice") == {"type": "partner_notice", "visible_to": [0], "partner": 1}
    assert ENGINE.referee_view(state)["emperor"] == 0 and ENGINE.referee_view(state)["partner"] == 1
    assert ENGINE.pending(state)[0]["seats"] == [0, 1, 2, 3, 4]
    assert ENGINE.view(state, 2)["partner"] is None and ENGINE.view(state, 0)["partner"] == 1


def test_emperor_card_returning_to_original_holder_is_a_forced_keep_bh_6_3():
    """BH-6.3, BH-6.4: after four passes RJ* is back at O, who becomes emperor without a decision."""
    state = a_game(hands_with(2, 0))
    for seat in (2, 3, 4, 0):
        state, events = act(state, seat, {"type": "pass_emperor"})
        if seat != 0:
            assert refused(state, seat, {"type": "keep_emperor"}) == "not_your_turn"
    state, events = act(state, 1, {"type": "pass_emperor"})

    assert find(events, "emperor_settled") == {
        "type": "emperor_settled",
        "visible_to": "all",
        "seat": 2,
        "forced": True,
    }
    assert ENGINE.referee_view(state)["emperor"] == 2
    assert ENGINE.view(state, 1)["emperor_card"]["passed"] == [2, 3, 4, 0, 1]


def test_offer_default_is_keep_bh_6_4():
    """BH-6.4, BH-18.1: the default at a deadline keeps the emperor card."""
    state = a_game(hands_with(1, 2))

    action = ENGINE.timeout_action(state, 1)
    state, events = act(state, 1, action)

    assert action == {"type": "keep_emperor", "timeout": True}
    assert find(events, "emperor_settled")["by_timeout"] is True
    assert ENGINE.timeout_action(state, 3) == {"type": "no_declaration", "timeout": True}


def test_only_marked_red_joker_forces_original_holder_bh_25_4():
    """BH-25.4 item 4: O whose only card is RJ* becomes emperor at once (forced)."""
    hands = hands_with(1, 2)
    hands[1] = ["RJ*"]
    state, events = ENGINE.setup_with_events(5, {"deal": {"hands": hands}}, 1)

    assert find(events, "emperor_settled") == {
        "type": "emperor_settled",
        "visible_to": "all",
        "seat": 1,
        "forced": True,
    }
    assert state["phase"] == "declare"


def test_keeper_holding_both_marked_jokers_plays_alone_bh_7_2():
    """BH-7.2: a receiver holding BJ* who keeps RJ* plays alone; the notice says partner null."""
    state = a_game(hands_with(3, 4))
    state, _ = act(state, 3, {"type": "pass_emperor"})
    state, events = act(state, 4, {"type": "keep_emperor"})

    assert find(events, "partner_notice")["partner"] is None
    assert ENGINE.referee_view(state)["alone"] is True and ENGINE.referee_view(state)["partner"] is None
    assert ENGINE.view(state, 4)["alone"] is True and ENGINE.view(state, 0)["alone"] is None


def test_passer_of_both_marked_jokers_becomes_partner_bh_7_2():
    """BH-7.2, BH-7.3: a player dealt both who passes RJ* on becomes partner of the keeper."""
    state = a_game(hands_with(0, 0))
    state, _ = act(state, 0, {"type": "pass_emperor"})
    state, _ = act(state, 1, {"type": "keep_emperor"})

    assert ENGINE.referee_view(state)["partner"] == 0
    assert ENGINE.view(state, 0)["partner"] == 0 and ENGINE.view(state, 0)["alone"] is False
    assert ENGINE.view(state, 2)["partner"] is None


def test_sides_fixed_once_emperor_settled_bh_7_4():
    """BH-7.1, BH-7.4: partner and commoners never change after E is settled."""
    state = a_game(hands_with(0, 3))
    state, _ = keep_and_declare(state)

    assert ENGINE.referee_view(state)["partner"] == 3
    assert ENGINE.pending(state)[0]["kind"] == "turn"


def test_declarations_window_and_first_pledge_doubles_bh_8():
    """BH-8.1 to BH-8.7: simultaneous window; the first doubling declaration doubles, m stays 2."""
    state = a_game(hands_with(0, 3))
    state, _ = act(state, 0, {"type": "keep_emperor"})

    state, ev1 = act(state, 2, {"type": "pledge", "side": "oppose"})
    state, ev2 = act(state, 3, {"type": "pledge", "side": "support"})
    assert ENGINE.referee_view(state)["multiplier"] == 2
    state, _ = act(state, 0, {"type": "no_declaration"})
    state, _ = act(state, 1, {"type": "no_declaration"})
    state, ev3 = act(state, 4, {"type": "no_declaration"})

    assert find(ev1, "declaration") == {
        "type": "declaration",
        "visible_to": "all",
        "seat": 2,
        "what": "oppose",
        "doubled": True,
        "by_timeout": False,
    }
    assert find(ev2, "declaration")["doubled"] is False
    assert find(ev3, "declarations_closed")["multiplier"] == 2
    assert ENGINE.pending(state)[0] == {
        "kind": "turn",
        "seats": [0],
        "allowed": ["play"],
        "timing": "turn",
        "decision_id": state["decision_id"],
    }
    assert ENGINE.view(state, 1)["partner"] == 3  # BH-8.5: a support pledge identifies the partner


def test_declaration_errors_bh_8_3_bh_20_4_bh_20_5():
    """BH-20.4, BH-20.5, BH-8.3: not_emperor, not_alone, emperor_cannot_pledge, pledge_side_mismatch."""
    state = a_game(hands_with(0, 3))
    state, _ = act(state, 0, {"type": "keep_emperor"})

    assert refused(state, 1, {"type": "declare_alone"}) == "not_emperor"
    assert refused(state, 0, {"type": "declare_alone"}) == "not_alone"
    assert refused(state, 0, {"type": "pledge", "side": "support"}) == "emperor_cannot_pledge"
    assert refused(state, 1, {"type": "pledge", "side": "support"}) == "pledge_side_mismatch"
    assert refused(state, 3, {"type": "pledge", "side": "oppose"}) == "pledge_side_mismatch"
    state, _ = act(state, 1, {"type": "no_declaration"})
    assert refused(state, 1, {"type": "pledge", "side": "oppose"}) == "already_submitted"


def test_declare_alone_doubles_and_reveals_bh_8_2_bh_8_5():
    """BH-8.2, BH-8.5, BH-8.6: declare_alone is public, doubles, closes the partner question."""
    state = a_game(hands_with(2, 2))
    state, _ = act(state, 2, {"type": "keep_emperor"})

    state, events = act(state, 2, {"type": "declare_alone"})

    assert find(events, "declaration")["what"] == "alone" and find(events, "declaration")["doubled"]
    assert ENGINE.view(state, 0)["alone"] is True
    assert refused(state, 0, {"type": "pledge", "side": "support"}) == "pledge_side_mismatch"
    assert refused(state, 0, {"type": "guess_partner", "seat": 1}) == "partner_already_revealed"


def test_partner_guesses_are_free_public_and_replaceable_bh_9():
    """BH-9.1 to BH-9.4, BH-18.4: any non-emperor may guess; newer replaces older; recorded at the end."""
    state = a_game(hands_with(0, 3))
    assert refused(state, 1, {"type": "guess_partner", "seat": 3}) == "wrong_phase"
    state, _ = act(state, 0, {"type": "keep_emperor"})

    state, ev = act(state, 1, {"type": "guess_partner", "seat": 4})
    state, _ = act(state, 1, {"type": "guess_partner", "seat": 3})
    state, _ = act(state, 2, {"type": "guess_partner", "seat": 0})

    assert ev == [{"type": "guess", "visible_to": "all", "seat": 1, "target": 4}]
    assert ENGINE.view(state, None)["guesses"] == [None, 3, 0, None, None]
    assert ENGINE.pending(state)[0]["seats"] == [0, 1, 2, 3, 4]
    assert refused(state, 0, {"type": "guess_partner", "seat": 3}) == "emperor_cannot_guess"
    assert refused(state, 1, {"type": "guess_partner", "seat": 5}) == "invalid_seat"
    assert refused(state, 1, {"type": "guess_partner", "seat": 1}) == "cannot_guess_self"
    state, _ = act(state, 3, {"type": "pledge", "side": "support"})
    assert refused(state, 1, {"type": "guess_partner", "seat": 4}) == "partner_already_revealed"
