"""BH-15 end of the deal, BH-16 scoring, BH-17 totals and the end of the game; W-7 to W-12."""

from __future__ import annotations

import itertools

import pytest

from baogame.rules.baohuang.engine import ENGINE
from baogame.rules.baohuang.scoring import deal_scores, standings

from .helpers import a_game, find, keep_and_declare, play_deal, run_script

SUPPORT = {"type": "pledge", "side": "support"}
OPPOSE = {"type": "pledge", "side": "oppose"}

TABLE = [  # BH-16.7: imperial places, S, E, partner, commoner (times m), result
    ((1, 2), 3, 6, 3, -3, "won"),
    ((1, 3), 2, 4, 2, -2, "won"),
    ((1, 4), 1, 2, 1, -1, "won"),
    ((2, 3), 1, 2, 1, -1, "won"),
    ((1, 5), 0, 0, 0, 0, "draw"),
    ((2, 4), 0, 0, 0, 0, "draw"),
    ((2, 5), -1, -2, -1, 1, "lost"),
    ((3, 4), -1, -2, -1, 1, "lost"),
    ((3, 5), -2, -4, -2, 2, "lost"),
    ((4, 5), -3, -6, -3, 3, "lost"),
]


@pytest.mark.parametrize("row", TABLE)
@pytest.mark.parametrize("m", [1, 2])
def test_every_partner_outcome_bh_16_7(row, m):
    """BH-16.1, BH-16.2, BH-16.5, BH-16.7: both orders of imperial places, both multipliers."""
    (a, b), _s, e, k, c, result = row
    for pe, pk in ((a, b), (b, a)):
        places = [0] * 5
        places[1], places[3] = pe, pk
        rest = iter(p for p in range(1, 6) if p not in (a, b))
        for seat in (0, 2, 4):
            places[seat] = next(rest)
        scores, res = deal_scores(places, 1, 3, m)
        assert scores[1] == e * m and scores[3] == k * m
        assert [scores[x] for x in (0, 2, 4)] == [c * m] * 3
        assert res == result and sum(scores) == 0


def test_lone_emperor_scores_bh_16_3():
    """BH-16.3, BH-16.6: 1st +12m/-3m won; 2nd 0 draw; 3rd-5th -12m/+3m lost."""
    for m in (1, 2):
        for place in range(1, 6):
            places = [2, 3, 4, 5, 1]
            places[places.index(place)], places[0] = places[0], place
            scores, result = deal_scores(places, 0, None, m)
            expected = {1: (12, -3, "won"), 2: (0, 0, "draw")}.get(place, (-12, 3, "lost"))
            assert (scores[0], scores[1], result) == (expected[0] * m, expected[1] * m, expected[2])
            assert sum(scores) == 0


def test_deal_ends_when_both_imperials_out_bh_15_1():
    """BH-15.1, BH-15.3, BH-15.4: E and K out 1st and 2nd end the deal at once; rest by fewest cards."""
    state, events = play_deal([0, 2, 1, 3, 4], 0, 2)

    ended = find(events, "deal_ended")
    assert ended["finished"][:2] == [0, 2] and sorted(ended["finished"]) == [0, 1, 2, 3, 4]
    assert ended["finished"][2:] == [3, 4, 1]  # equal counts: turn order from next(2)
    assert ended["scores"] == [6, -3, 3, -3, -3] and ended["places"] == [1, 5, 2, 3, 4]
    assert ended["hands"][1] == ["9"] and ended["hands"][0] == []
    assert state["deal"] == 2


def test_remaining_places_by_fewest_cards_bh_15_4():
    """BH-15.4: players still holding cards are placed by fewest cards left."""
    from baogame.rules.baohuang.scoring import finishing_order

    st = {"finished": [2, 0], "hands": [[0] * 14, [0] * 13 + [3], [0] * 14, [1] + [0] * 13, [2] + [0] * 13]}

    assert finishing_order(st, 0) == [2, 0, 3, 4, 1]


def test_deal_ends_when_three_commoners_out_w_8():
    """W-8, BH-15.1, BH-16.6: E 1st, three commoners next: partner last, S = 0, a draw."""
    _state, events = play_deal([4, 0, 1, 2, 3], 4, 3)

    ended = find(events, "deal_ended")
    assert ended["result"] == "draw" and ended["scores"] == [0] * 5 and ended["places"][3] == 5


def test_doubled_loss_w_9():
    """W-9, BH-8.6: E=s3, K=s0, s1 opposes (m=2); out: s1, s4, s3, s2; s3 -8, s0 -4, others +4."""
    _state, events = play_deal([1, 4, 3, 2, 0], 3, 0, declarations={1: OPPOSE})

    ended = find(events, "deal_ended")
    assert ended["finished"] == [1, 4, 3, 2, 0] and ended["multiplier"] == 2
    assert ended["scores"] == [-4, 4, 4, -8, 4] and ended["result"] == "lost"


def test_secret_lone_emperor_wins_w_10():
    """W-10, BH-15.2, BH-16.3: s2 alone, no announcement, goes out 1st: +12, others -3; revealed at end."""
    state, events = play_deal([2, 0, 1, 3, 4], 2, None)

    ended = find(events, "deal_ended")
    assert ended["scores"] == [-3, -3, 12, -3, -3] and ended["alone"] is True and ended["partner"] is None
    assert state["tribute"]["allot"] == [0, 0, 4, 0, 0] and state["tribute"]["owed"] == [1, 1, 0, 1, 1]


def test_secret_lone_emperor_doubled_by_pledge_w_10():
    """W-10: with a pledge the lone win is worth +24 and -6."""
    _state, events = play_deal([2, 0, 1, 3, 4], 2, None, declarations={4: OPPOSE})

    assert find(events, "deal_ended")["scores"] == [-6, -6, 24, -6, -6]


def test_announced_lone_emperor_loses_early_w_11():
    """W-11, BH-15.2: s1 declares alone (m=2); s3 then s0 go out: the deal ends; s1 -24, others +6;
    next deal s1 gives 2, A, A, A."""
    hands = [["9"], ["6", "BJ*", "RJ*", "2", "A", "A", "A", "K"], ["10", "J"], ["8"], ["Q", "K"]]
    following = [["RJ*", "6"], ["2", "A", "A", "A", "K", "K", "RJ"], ["BJ*", "7"], ["8"], ["9"]]
    state = a_game(hands, deals=[following])
    state, _ = keep_and_declare(state, {1: {"type": "declare_alone"}})

    state, events = run_script(state, [(1, ["6"]), (3, ["8"]), (0, ["9"])])

    ended = find(events, "deal_ended")
    assert ended["finished"][:2] == [3, 0] and ended["places"][1] >= 3
    assert ended["scores"] == [6, -24, 6, 6, 6] and ended["multiplier"] == 2
    assert state["tribute"]["owed_cards"][1] == ["A", "A", "A", "2"]
    assert state["tribute"]["allot"] == [1, 0, 1, 1, 1]


def test_totals_and_end_of_game_w_12():
    """W-12, BH-17.2: target 30; s0 25, s1 29; E=s0 1st, K=s1 4th, m=2: s1 31 wins alone."""
    start = {"totals": [25, 29, -18, -18, -18]}
    state, events = play_deal([0, 2, 3, 1, 4], 0, 1, declarations={2: OPPOSE}, start=start)

    assert find(events, "deal_ended")["totals"] == [29, 31, -20, -20, -20]
    over = find(events, "game_over")
    assert over["winner"] == 1 and over["standings"][0] == {"seat": 1, "total": 31, "position": 1}
    referee = ENGINE.referee_view(state)
    assert referee["over"] and referee["winners"] == [1] and ENGINE.pending(state) == []
    assert referee["finished"] == [0, 2, 3, 1, 4] and referee["round_scores"] == [4, 2, -2, -2, -2]
    assert referee["trick"] is None and referee["active"] is None and referee["emperor"] == 0
    assert ENGINE.legal_actions(state, 2) == [] and ENGINE.timeout_action(state, 2) is None


def test_shared_highest_total_plays_another_deal_w_12_bh_17_3():
    """W-12, BH-17.3: s0 and s1 both on 31: the game goes on."""
    start = {"totals": [27, 29, -20, -18, -18]}
    state, events = play_deal([0, 2, 3, 1, 4], 0, 1, declarations={2: OPPOSE}, start=start)

    assert find(events, "deal_ended")["totals"] == [31, 31, -22, -20, -20]
    assert not state["over"] and state["deal"] == 2
    assert not any(e["type"] == "game_over" for e in events)


def test_target_score_option_and_standings_bh_17_5():
    """BH-3.2, BH-17.1, BH-17.5: a low target ends the game; equal totals share a position."""
    state, events = play_deal([0, 2, 3, 1, 4], 0, 2, target=3)

    assert state["over"] and find(events, "game_over")["winner"] == 0
    assert standings([6, -3, 3, -3, -3]) == [
        {"seat": 0, "total": 6, "position": 1},
        {"seat": 2, "total": 3, "position": 2},
        {"seat": 1, "total": -3, "position": 3},
        {"seat": 3, "total": -3, "position": 3},
        {"seat": 4, "total": -3, "position": 3},
    ]


def test_guess_results_recorded_at_deal_end_bh_9_4():
    """BH-9.4, BH-15.5, BH-25.6: each current guess recorded correct or incorrect."""
    from .helpers import a_game, act, keep_and_declare, order_hands, order_script, run_script

    state = a_game(order_hands([0, 2, 1, 3, 4], 0, 2))
    state, _ = act(state, 0, {"type": "keep_emperor"})
    state, _ = act(state, 1, {"type": "guess_partner", "seat": 2})
    state, _ = act(state, 3, {"type": "guess_partner", "seat": 4})
    state, _ = keep_and_declare(state)
    state, events = run_script(state, order_script([0, 2, 1, 3, 4], 0, 2))

    assert find(events, "deal_ended")["guesses"] == [
        None,
        {"target": 2, "correct": True},
        None,
        {"target": 4, "correct": False},
        None,
    ]


def test_every_finishing_order_scores_sum_to_zero_bh_16_5():
    """BH-16.5: through the engine, a sample of orders and roles always sums to zero."""
    for order in list(itertools.permutations(range(5)))[::13]:
        for emperor, partner in ((order[0], order[3]), (order[2], None)):
            _state, events = play_deal(list(order), emperor, partner)
            assert sum(find(events, "deal_ended")["scores"]) == 0
