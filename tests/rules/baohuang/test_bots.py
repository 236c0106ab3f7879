"""The bots: every decision kind handled from the view alone; strategic beats random."""

from __future__ import annotations

import random

from baogame.rules.baohuang.bots import BOTS, DEFAULT_BOT
from baogame.rules.baohuang.engine import ENGINE
from bench.engines import play_game


def play_mixed(seed: int, target: int) -> tuple[list[int], list[str]]:
    """One game with strategic and random bots on alternating seats; returns final totals and roster."""
    rng = random.Random(f"bots:{seed}")
    roster = ["strategic" if (s + seed) % 2 == 0 else "random" for s in range(5)]
    state = ENGINE.setup(5, {"target_score": target}, f"bots:{seed}")
    totals_before = state["totals"][:]
    while ENGINE.pending(state):
        decision = ENGINE.pending(state)[0]
        seat = rng.choice(decision["seats"])
        action = BOTS[roster[seat]](ENGINE.view(state, seat), rng)
        state, _ = ENGINE.apply(state, seat, action)
    return [t - b for t, b in zip(state["totals"], totals_before, strict=True)], roster


def test_bots_are_registered_for_the_bench():
    """bench contract: BOTS has random and strategic; DEFAULT_BOT is strategic; a game finishes."""
    assert set(BOTS) >= {"random", "strategic"} and DEFAULT_BOT == "strategic"
    state, actions, _ = play_game("baohuang", 3, 5, ["random", "strategic"])
    assert state["over"] and actions > 0


def test_strategic_bot_scores_clearly_better_than_random():
    """Over 200 seeded games the strategic bot's average total is clearly above the random bot's."""
    scores: dict[str, list[int]] = {"strategic": [], "random": []}
    for seed in range(200):
        totals, roster = play_mixed(seed, target=8)
        for seat in range(5):
            scores[roster[seat]].append(totals[seat])
    strategic = sum(scores["strategic"]) / len(scores["strategic"])
    rand = sum(scores["random"]) / len(scores["random"])
    print(f"average total per seat: strategic {strategic:.2f}, random {rand:.2f}")

    assert strategic > rand + 2.0
