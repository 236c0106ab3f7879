"""Round scores and the end of the game (BB-14, BB-15): BAO scoring, thresholds, deciding rounds.

A deciding round cannot end tied through a BAO (a successful caller scores 0 or a negative total below
every other total; a failed caller scores max(2 × total, 5), above a total that is equal or lower), so
the repeated deciding rounds are reached the only way the rules allow: a deciding round that ends by the
automatic final phase (BB-12.5), where every participant scores their round total (BB-14.3 d)."""

from __future__ import annotations

import random

import pytest

from baogame.rules.baobei.scoring import caller_score, next_round

from .helpers import (
    CRANE,
    DUCK,
    GOLDEN,
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
    kind,
    one_event,
    pass_all,
    play,
    ref,
)


def _by_timeouts(st: dict) -> tuple[dict, list[dict]]:
    """Let every deadline pass until the current round has ended; return the state and all events."""
    events: list[dict] = []
    start = ref(st)["round"]
    while E.pending(st) and ref(st)["round"] == start:
        seat = decision(st)["seats"][0]
        st, ev = E.apply(st, seat, E.timeout_action(st, seat))
        events += ev
    return st, events


def test_scores_failed_and_negative_successful_bao_bb_14_3():
    """BB-14.3: failed BAO = max(2 × total, 5); a negative successful caller keeps it."""
    assert caller_score(6, False) == 12 and caller_score(2, False) == 5 and caller_score(0, False) == 5
    assert caller_score(-5, True) == -5 and caller_score(3, True) == 0
    st = a_game([[GOLDEN], [KINGF], [HUM]], draw=[HUM, HUM], active=1, bao_caller=0)
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st = pass_all(st)
    st = play(st, 2, "draw")
    st = play(st, 2, "discard")
    st = play(st, 0, "pass")
    st, events = act(st, 1, "pass")

    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["scores"] == [-5, 3, 1] and ended["totals"] == [-5, 3, 1]


def test_game_ends_at_threshold_with_unique_lowest_winner_bb_15_1_bb_15_2():
    """BB-15.1 / BB-15.2: a total at the threshold ends the game; the lowest total wins."""
    st = E.setup(
        2,
        {
            "deal": {"hands": [[PEACOCK], [HUM]], "discard": [SPARROW], "draw": [HUM]},
            "start": {"active": 1, "bao_caller": 0, "totals": [70, 10]},
            "threshold": 80,
        },
        "t",
    )

    st = play(st, 1, "draw")
    st, events = act(st, 1, "discard")
    st, events = act(st, 0, "pass")

    assert ref(st)["over"] is True and ref(st)["winners"] == [1]
    assert ref(st)["totals"] == [94, 11]
    game = next(e for e in events if e["type"] == "game_ended")
    assert game["standings"] == [
        {"seat": 1, "total": 11, "position": 1},
        {"seat": 0, "total": 94, "position": 2},
    ]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("missing", [1, 2])
def test_default_threshold_per_player_count_ends_the_game_bb_1_3_bb_15_1(players, missing):
    """§2.3 / BB-15.1: the game ends after a round in which a running total reaches the default threshold
    for the number of players (100 / 80 / 80 / 60 / 60), not before. S0 scores 1 in the round."""
    threshold = {2: 100, 3: 80, 4: 80, 5: 60, 6: 60}[players]
    hands = [[HUM], [GOLDEN]] + [[SPARROW]] * (players - 2)
    totals = [threshold - missing] + [0] * (players - 1)
    st = E.setup(
        players,
        {
            "deal": {"hands": hands, "discard": [SPARROW], "draw": [KINGF] * 5},
            "start": {"active": 2 % players, "bao_caller": 1, "totals": totals},
        },
        "t",
    )

    while E.pending(st) and ref(st)["round"] == 1:
        seat = decision(st)["seats"][0]
        st = (
            play(st, seat, "draw")
            if kind(st) == "turn_action"
            else play(st, seat, "discard")
            if kind(st) == "after_draw"
            else play(st, seat, "pass")
        )

    assert ref(st)["totals"][:2] == [threshold - missing + 1, -5]
    assert ref(st)["over"] is (missing == 1)


def test_deciding_round_repeats_while_tied_bb_15_3_bb_15_4():
    """BB-15.3 / BB-15.4: tied lowest totals play a deciding round (5 cards for two); a tie in it
    leads to another deciding round among the tied participants."""
    st = E.setup(
        2,
        {
            "deal": {"hands": [[HUM], [SPARROW]], "discard": [SPARROW], "draw": [HUM]},
            "start": {"active": 1, "totals": [80, 78], "bao_caller": 0},
            "threshold": 80,
        },
        "t",
    )
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st = play(st, 0, "pass")

    r = ref(st)
    assert r["totals"] == [80, 80] and r["deciding"] is True and r["round"] == 2
    assert [len(d) for d in r["displays"]] == [5, 5] and kind(st) == "setup_peek"
    tied = dict(st, deciding=True, participants=[0, 1], deciding_results=[])
    assert next_round(tied, [7, 7]) == ([0, 1], True, None)
    assert next_round(dict(tied, deciding_results=[]), [6, 7]) is None


def test_repeated_deciding_rounds_through_apply_bb_15_3_bb_15_4_bb_15_5():
    """BB-15.3 – BB-15.5 / D-45 / BB-25.2 1: S1, S2, S3 tie on the lowest total → deciding round (4 cards
    each, S0 sits out). It ends by the second recycling (BB-12.5) with S1 and S2 tied on 10 → a second
    deciding round between them (5 cards each), which S1 wins. Running totals never change; standings:
    S1, S2 (out in the later deciding round), S3 (out earlier), S0."""
    start_deal = {"hands": [[PEACOCK], [HUM], [HUM], [HUM]], "discard": [SPARROW], "draw": [SPARROW] * 3}
    deciding_1 = {
        "hands": [
            [],
            [HUM, SPARROW, KINGF, MAGPIE],
            [MAGPIE, KINGF, SPARROW, HUM],
            [PEACOCK, CRANE, IBIS, DUCK],
        ],
        "discard": IBIS,
    }
    deciding_2 = {
        "hands": [[], [HUM, HUM, SPARROW, SPARROW, KINGF], [DUCK, DUCK, IBIS, IBIS, MAGPIE], []],
        "discard": CRANE,
    }
    st = E.setup(
        4,
        {
            "deals": [start_deal, deciding_1, deciding_2],
            "threshold": 80,
            "start": {"round": 7, "totals": [75, 60, 60, 60], "active": 1, "bao_caller": 0},
        },
        "dr",
    )
    for seat in (1, 2, 3):
        st = play(st, seat, "draw")
        st = play(st, seat, "discard")
        st = pass_all(st)
    assert ref(st)["totals"] == [99, 61, 61, 61] and ref(st)["round"] == 8
    assert kind(st) == "setup_peek" and decision(st)["seats"] == [1, 2, 3]

    st, events = _by_timeouts(st)

    assert one_event(events, "automatic_final_phase")["cause"] == "recycling"
    ended = one_event(events, "round_ended")
    assert ended["deciding"] is True and ended["bao"] is None
    assert ended["scores"] == [None, 10, 10, 34] and ended["totals"] == [99, 61, 61, 61]
    started = one_event(events, "round_started")
    assert started["round"] == 9 and started["deciding"] is True and started["participants"] == [1, 2]
    assert ref(st)["displays"] == [[], deciding_2["hands"][1], deciding_2["hands"][2], []]
    st = play(st, 1, "choose_peek", slots=[0, 1])
    st = play(st, 2, "choose_peek", slots=[0, 1])
    assert ref(st)["active"] == [1, 2][random.Random("baobei:dr:round:9:first").randrange(2)]

    st, events = _by_timeouts(st)

    assert one_event(events, "round_ended")["scores"] == [None, 9, 26, None]
    game = one_event(events, "game_ended")
    assert game["winner"] == 1 and ref(st)["winners"] == [1] and ref(st)["totals"] == [99, 61, 61, 61]
    assert [(s["seat"], s["position"]) for s in game["standings"]] == [(1, 1), (2, 2), (3, 3), (0, 4)]
    assert [r["seats"] for r in game["deciding_rounds"]] == [[1, 2, 3], [1, 2]]
