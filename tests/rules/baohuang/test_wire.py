"""BH-18 to BH-22: decisions, envelope and validation order, action catalogue, error codes, legality."""

from __future__ import annotations

import pytest

from baogame.rules.baohuang.actions import FIELDS, from_wire
from baogame.rules.baohuang.engine import ENGINE
from baogame.rules.core import RuleError

from .helpers import a_game, act, find, keep_and_declare, refused

HANDS = [["RJ*", "9", "6", "6", "BJ"], ["BJ*", "A", "K"], ["7", "7"], ["8", "Q"], ["10", "J"]]


def playing() -> dict:
    state, _ = keep_and_declare(a_game(HANDS))
    return state


def test_pending_decision_shapes_bh_18_1_bh_25_2():
    """BH-18.1, BH-25.2: kinds, owners, allowed types and timing for each phase; unique decision ids."""
    tribute = a_game(HANDS, start={"deal": 2, "previous": {"emperor": 1, "partner": 2, "result": "won"}})
    offer = a_game(HANDS)
    state, _ = act(offer, 0, {"type": "keep_emperor"})
    play = playing()

    assert ENGINE.pending(tribute)[0] | {"decision_id": None} == {
        "kind": "tribute",
        "seats": [0, 3, 4],
        "allowed": ["give_tribute"],
        "timing": "tribute",
        "decision_id": None,
    }
    assert ENGINE.pending(offer)[0]["seats"] == [0] and ENGINE.pending(offer)[0]["kind"] == "declare"
    assert ENGINE.pending(state)[0]["allowed"] == ["declare_alone", "pledge", "no_declaration"]
    assert ENGINE.pending(play)[0]["timing"] == "turn"
    assert len({ENGINE.pending(s)[0]["decision_id"] for s in (offer, state, play)}) == 3


def test_default_play_is_lowest_single_unmarked_first_bh_18_2():
    """BH-18.2: the lowest single card; the unmarked joker before the marked one; pass with a top."""
    state, _ = keep_and_declare(a_game([["RJ*", "BJ", "BJ*", "RJ"], ["6"], ["7"], ["8"], ["9"]]))

    assert ENGINE.timeout_action(state, 0) == {"type": "play", "cards": ["BJ"], "timeout": True}
    state, events = act(state, 0, ENGINE.timeout_action(state, 0))
    assert find(events, "play")["by_timeout"] is True and find(events, "play")["no_beat_request"] is False
    assert ENGINE.timeout_action(state, 1) == {"type": "pass", "timeout": True}
    assert ENGINE.timeout_action(state, 2) is None


def test_timeout_marks_all_events_by_timeout_bh_18_3():
    """BH-18.3: the default is an ordinary action; its events carry by_timeout."""
    state, _ = keep_and_declare(a_game([["RJ*", "7"], ["BJ*"], ["6", "7"], ["8", "9"], ["9", "10"]]))
    state, _ = act(state, 0, {"type": "play", "cards": ["7"]})

    state, events = act(state, 1, {"type": "play", "cards": ["BJ*"], "timeout": True})

    assert all(e["by_timeout"] for e in events if e["type"] in ("play", "partner_revealed", "went_out"))


def test_guess_is_a_free_action_not_a_decision_bh_18_4():
    """BH-18.4, BH-22.2: guess_partner never appears in pending, only in legal_actions."""
    state = playing()

    assert all("guess_partner" not in d["allowed"] for d in ENGINE.pending(state))
    assert {"type": "guess_partner", "seat": 0} in ENGINE.legal_actions(state, 3)
    assert ENGINE.legal_actions(state, 3) == [{"type": "guess_partner", "seat": s} for s in (0, 1, 2, 4)]


def test_shape_errors_bh_19_1_bh_19_3():
    """BH-19.1, BH-19.3 step 1: malformed_action, unknown_action_type; extra fields refused."""
    state = playing()

    for bad in ("play", None, [], {}, {"type": 3}):
        assert refused(state, 0, bad) == "malformed_action"
    assert refused(state, 0, {"type": "bao"}) == "unknown_action_type"
    assert refused(state, 0, {"type": "play"}) == "malformed_action"
    assert refused(state, 0, {"type": "play", "cards": "9"}) == "malformed_action"
    assert refused(state, 0, {"type": "play", "cards": [9]}) == "malformed_action"
    assert refused(state, 0, {"type": "play", "cards": ["9"], "no_beat_request": 1}) == "malformed_action"
    assert refused(state, 0, {"type": "play", "cards": ["9"], "extra": 1}) == "malformed_action"
    assert refused(state, 0, {"type": "pledge", "side": "maybe"}) == "malformed_action"
    assert refused(state, 0, {"type": "guess_partner", "seat": "1"}) == "malformed_action"
    assert refused(state, 0, {"type": "guess_partner", "seat": True}) == "malformed_action"
    assert refused(state, 0, {"type": "pass", "timeout": "yes"}) == "malformed_action"


def test_wire_fields_of_each_type_bh_20():
    """BH-20.1-20.9: the fields each type needs and may carry on the wire (read from the action classes);
    a missing required field or one the type does not take is malformed."""
    assert {
        "give_tribute": ({"cards"}, set()),
        "keep_emperor": (set(), set()),
        "pass_emperor": (set(), set()),
        "declare_alone": (set(), set()),
        "pledge": ({"side"}, set()),
        "no_declaration": (set(), set()),
        "play": ({"cards"}, {"no_beat_request"}),
        "pass": (set(), set()),
        "guess_partner": ({"seat"}, set()),
    } == FIELDS
    for kind in ("give_tribute", "pledge", "guess_partner"):
        with pytest.raises(RuleError) as missing:
            from_wire({"type": kind})
        assert missing.value.code == "malformed_action"
    for kind in ("keep_emperor", "pass_emperor", "declare_alone", "no_declaration", "pass"):
        assert from_wire({"type": kind}) == from_wire({"type": kind, "timeout": False})
        with pytest.raises(RuleError) as extra:
            from_wire({"type": kind, "cards": []})
        assert extra.value.code == "malformed_action"


def test_validation_order_bh_19_3():
    """BH-19.3: shape before game_over before wrong_phase before ownership before specific checks."""
    state = playing()

    assert refused(state, 3, {"type": "play", "cards": ["X"]}) == "not_your_turn"
    assert refused(state, 3, {"type": "keep_emperor"}) == "wrong_phase"
    assert refused(state, 0, {"type": "play", "cards": ["X"]}) == "invalid_card"
    assert refused(state, 0, {"type": "play", "cards": []}) == "empty_play"
    assert refused(state, 0, {"type": "play", "cards": ["2"]}) == "card_not_in_hand"
    assert refused(state, 0, {"type": "play", "cards": ["9", "6"]}) == "not_a_combination"
    over = dict(state, over=True, phase="over")
    assert refused(over, 0, {"type": "nonsense"}) == "unknown_action_type"
    assert refused(over, 0, {"type": "keep_emperor"}) == "game_over"


def test_rejected_action_changes_nothing_bh_19_4():
    """BH-19.4: a refused action leaves the state as it was; messages name no hidden card."""
    import copy

    from baogame.rules.core import RuleError

    state = playing()
    before = copy.deepcopy(state)
    try:
        ENGINE.apply(state, 0, {"type": "play", "cards": ["A"]})
    except RuleError as err:
        assert err.code == "card_not_in_hand" and "A" not in err.message.replace("all", "")
    assert state == before


def test_action_catalogue_effects_bh_20():
    """BH-20.2 to BH-20.9: every action type through apply."""
    state = playing()
    state, events = act(state, 0, {"type": "play", "cards": ["6", "6"], "no_beat_request": True})
    state, events = act(state, 1, {"type": "pass"})

    assert events[0] == {"type": "pass", "visible_to": "all", "seat": 1, "by_timeout": False}
    assert ENGINE.referee_view(state)["trick"] == {
        "cards": ["6", "6"],
        "seat": 0,
        "passes": 1,
        "no_beat_request": True,
    }


def test_every_error_code_exists_bh_21():
    """BH-21: the codes raised above are exactly the standard list (plus invalid_options at setup)."""
    import pathlib
    import re

    source = "\n".join(p.read_text() for p in pathlib.Path(__file__).parent.glob("test_*.py"))
    codes = [
        "malformed_action",
        "unknown_action_type",
        "game_over",
        "wrong_phase",
        "not_your_turn",
        "already_submitted",
        "invalid_card",
        "card_not_in_hand",
        "empty_play",
        "not_a_combination",
        "wrong_card_count",
        "does_not_beat",
        "cannot_pass_lead",
        "not_emperor",
        "not_alone",
        "emperor_cannot_pledge",
        "pledge_side_mismatch",
        "wrong_tribute_count",
        "wrong_tribute_cards",
        "emperor_cannot_guess",
        "invalid_seat",
        "cannot_guess_self",
        "partner_already_revealed",
        "invalid_options",
    ]
    for code in codes:
        assert re.search(f'"{code}"', source), code


def test_legal_actions_list_each_multiset_once_bh_22_1():
    """BH-22.1, BH-25.2: five kings give one ["K","K"]; a seat without a decision has only guesses."""
    state, _ = keep_and_declare(a_game([["RJ*"] + ["K"] * 5, ["BJ*", "6"], ["6"], ["6"], ["6"]]))

    plays = [tuple(a["cards"]) for a in ENGINE.legal_actions(state, 0) if a["type"] == "play"]
    assert plays.count(("K", "K")) == 1 and len(plays) == len(set(plays))
    assert set(plays) == {("K",) * n for n in range(1, 6)} | {("K",) * n + ("RJ*",) for n in range(6)}
    assert all(a["type"] == "guess_partner" for a in ENGINE.legal_actions(state, 2))


def test_defaults_are_legal_bh_22_3():
    """BH-22.3: every default action is among the legal actions when applied."""
    state = playing()
    action = ENGINE.timeout_action(state, 0)
    action = {k: v for k, v in action.items() if k != "timeout"}

    assert action in ENGINE.legal_actions(state, 0)
