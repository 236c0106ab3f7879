"""BH-10 to BH-14: combinations, beating, turns and tricks, going out, the partner revealed in play."""

from __future__ import annotations

from baogame.rules.baohuang.cards import to_counts
from baogame.rules.baohuang.combos import beats, is_combination
from baogame.rules.baohuang.engine import ENGINE

from .helpers import a_game, act, find, keep_and_declare, refused, run_script, types


def in_play(hands: list[list[str]]) -> dict:
    state = a_game(hands)
    state, _ = keep_and_declare(state)
    return state


def test_combinations_are_one_rank_plus_any_jokers_bh_10_w_3():
    """BH-10.1, BH-10.2, W-3: one rank plus jokers, jokers alone; no mixed ranks."""
    state = in_play(
        [["RJ*", "7", "8", "7", "BJ", "RJ", "2", "A"] + ["10"] * 5, ["BJ*", "6"], ["6"], ["6"], ["6"]]
    )

    assert refused(state, 0, {"type": "play", "cards": ["7", "8"]}) == "not_a_combination"
    assert refused(state, 0, {"type": "play", "cards": ["2", "A", "RJ"]}) == "not_a_combination"
    for cards in (["7", "7", "BJ", "RJ"], ["BJ", "RJ"], ["10"] * 5, ["RJ*"]):
        assert is_combination(to_counts(cards))
        ENGINE.apply(state, 0, {"type": "play", "cards": cards})


def test_jokers_are_not_wild_bh_10_3():
    """BH-10.3: ["9","BJ"] is 9 and 16, so it does not beat ["10","10"]."""
    assert not beats(to_counts(["9", "BJ"]), to_counts(["10", "10"]))
    assert beats(to_counts(["J", "BJ"]), to_counts(["10", "10"]))


def test_singles_beating_w_3_bh_11():
    """W-3, BH-11.1, BH-11.2: A>K, BJ>A, BJ* does not beat BJ, RJ>BJ, nothing beats RJ."""
    assert beats(to_counts(["A"]), to_counts(["K"]))
    assert beats(to_counts(["BJ"]), to_counts(["A"]))
    assert not beats(to_counts(["BJ*"]), to_counts(["BJ"]))
    assert not beats(to_counts(["RJ"]), to_counts(["RJ*"]))
    assert beats(to_counts(["RJ"]), to_counts(["BJ"]))
    assert not any(beats(to_counts([c]), to_counts(["RJ"])) for c in ("RJ", "RJ*", "2", "BJ"))


def test_beating_sets_with_jokers_w_4():
    """W-4, BH-11.1, BH-11.3: the top K,K,BJ against each attempt, through apply."""
    state = in_play(
        [["RJ*", "K", "K", "BJ"], ["BJ*", "A", "A", "RJ", "2", "BJ", "A", "6"], ["6"], ["6"], ["6"]]
    )
    state, _ = act(state, 0, {"type": "play", "cards": ["K", "K", "BJ"]})

    assert refused(state, 1, {"type": "play", "cards": ["A", "A", "BJ"]}) == "does_not_beat"
    assert refused(state, 1, {"type": "play", "cards": ["A", "A", "A"]}) == "does_not_beat"
    assert refused(state, 1, {"type": "play", "cards": ["A", "A", "BJ", "RJ"]}) == "wrong_card_count"
    assert not beats(to_counts(["BJ", "BJ", "BJ"]), to_counts(["K", "K", "BJ"]))
    assert beats(to_counts(["2", "BJ", "RJ"]), to_counts(["K", "K", "BJ"]))
    state, _ = act(state, 1, {"type": "play", "cards": ["A", "A", "RJ"]})
    assert ENGINE.referee_view(state)["trick"]["cards"] == ["A", "A", "RJ"]


def test_leader_must_play_and_follower_may_pass_bh_12_3():
    """BH-12.1, BH-12.3: E leads; passing a lead is cannot_pass_lead; following may pass."""
    state = in_play([["RJ*", "9"], ["BJ*", "A"], ["6"], ["6"], ["6"]])

    assert ENGINE.referee_view(state)["leader"] == 0
    assert refused(state, 0, {"type": "pass"}) == "cannot_pass_lead"
    assert refused(state, 1, {"type": "play", "cards": ["A"]}) == "not_your_turn"
    state, _ = act(state, 0, {"type": "play", "cards": ["9"]})
    assert ENGINE.pending(state)[0]["allowed"] == ["play", "pass"]


def test_passing_and_coming_back_in_w_5_bh_12():
    """W-5, BH-12.4 to BH-12.8: s2 passed, later plays 2,2; four passes end the trick; s2 leads."""
    hands = [
        ["BJ*", "6", "6", "7"],
        ["RJ*", "9", "9", "A", "A", "8"],
        ["2", "2", "6", "7"],
        ["J", "J", "6", "7"],
        ["K", "6", "7"],
    ]
    state = in_play(hands)
    script = [(1, ["9", "9"]), (3, ["J", "J"]), (1, ["A", "A"]), (2, ["2", "2"])]
    state, events = run_script(state, script)
    for seat in (3, 4, 0, 1):
        state, last = act(state, seat, {"type": "pass"})
        events += last

    assert [(e["seat"], e["type"]) for e in events if e["type"] in ("play", "pass")][:6] == [
        (1, "play"),
        (2, "pass"),
        (3, "play"),
        (4, "pass"),
        (0, "pass"),
        (1, "play"),
    ]
    assert find(last, "trick_won") == {"type": "trick_won", "visible_to": "all", "seat": 2, "next_leader": 2}
    assert ENGINE.referee_view(state)["trick"] is None and ENGINE.referee_view(state)["leader"] == 2
    assert ENGINE.pending(state)[0]["seats"] == [2]


def test_no_beat_request_is_public_and_binds_nobody_bh_12_9():
    """BH-12.9: the flag is shown with the top until the next play; others may still beat."""
    state = in_play([["RJ*", "9", "6"], ["BJ*", "A", "6"], ["6"], ["6"], ["6"]])
    state, events = act(state, 0, {"type": "play", "cards": ["9"], "no_beat_request": True})

    assert find(events, "play")["no_beat_request"] is True
    assert ENGINE.view(state, 3)["top"]["no_beat_request"] is True
    state, _ = act(state, 1, {"type": "play", "cards": ["A"]})
    assert ENGINE.referee_view(state)["trick"]["no_beat_request"] is False


def test_going_out_and_next_lead_skips_finished_w_6_bh_13():
    """W-6, BH-12.8, BH-13.1, BH-13.3: s3 out; s2 goes out with K on Q; s4, s0, s1 pass; s4 leads."""
    hands = [["RJ*", "Q", "6", "8"], ["BJ*", "8", "8"], ["K"], ["7"], ["8", "8"]]
    state = in_play(hands)
    state, events = run_script(state, [(0, ["6"]), (3, ["7"]), (0, ["Q"]), (2, ["K"])])
    assert [(e["seat"], e["place"]) for e in events if e["type"] == "went_out"] == [(3, 1), (2, 2)]

    for seat in (4, 0, 1):
        state, last = act(state, seat, {"type": "pass"})

    assert find(last, "trick_won") == {"type": "trick_won", "visible_to": "all", "seat": 2, "next_leader": 4}
    assert ENGINE.pending(state)[0]["seats"] == [4]
    assert ENGINE.referee_view(state)["finished"] == [3, 2]


def test_last_play_of_player_out_stays_top_and_next_lead_goes_right_bh_13_3():
    """BH-13.3, BH-12.8: s2 goes out with K; the rest pass; next_active(s2) leads."""
    hands = [["RJ*", "Q", "6", "6"], ["BJ*", "8", "8"], ["K"], ["7", "7"], ["8", "8"]]
    state = in_play(hands)
    state, _ = run_script(state, [(0, ["Q"]), (2, ["K"])])
    assert ENGINE.referee_view(state)["finished"] == [2]
    events = []
    for seat in (3, 4, 0, 1):
        state, ev = act(state, seat, {"type": "pass"})
        events += ev

    assert find(events, "trick_won") == {
        "type": "trick_won",
        "visible_to": "all",
        "seat": 2,
        "next_leader": 3,
    }
    assert ENGINE.view(state, 2)["decision"] is None


def test_marked_black_joker_reveals_partner_bh_14_1():
    """BH-14.1, BH-14.2, BH-14.3: playing BJ* reveals the partner publicly and does not double."""
    state = in_play([["RJ*", "9", "6"], ["BJ*", "A", "6"], ["6", "7"], ["6", "7"], ["6", "7"]])
    state, ev = act(state, 0, {"type": "play", "cards": ["9"]})
    assert types(ev) == ["play"]
    assert ENGINE.view(state, 2)["partner"] is None

    state, events = act(state, 1, {"type": "play", "cards": ["BJ*"]})

    assert find(events, "partner_revealed") == {
        "type": "partner_revealed",
        "visible_to": "all",
        "seat": 1,
        "alone": False,
    }
    assert ENGINE.view(state, 2)["partner"] == 1 and ENGINE.view(state, None)["partner"] == 1
    assert ENGINE.referee_view(state)["multiplier"] == 1


def test_lone_emperor_playing_marked_black_joker_reveals_alone_bh_14_1():
    """BH-14.1, BH-23.6: E playing BJ* announces that E plays alone."""
    state = in_play([["RJ*", "BJ*", "6"], ["A", "6"], ["6", "7"], ["6", "7"], ["6", "7"]])

    state, events = act(state, 0, {"type": "play", "cards": ["BJ*"]})

    assert find(events, "partner_revealed")["alone"] is True
    assert ENGINE.view(state, 3)["alone"] is True
