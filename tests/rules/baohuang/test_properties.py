"""Seeded property runs over random games: pack accounting, decisions, legality, leaks, scores,
replay and immutability (BH-2.6, BH-16.5, BH-18, BH-22, BH-23, BH-25)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from baogame.rules.baohuang.bots import BOTS
from baogame.rules.baohuang.cards import CODES, PACK
from baogame.rules.baohuang.engine import ENGINE
from baogame.rules.baohuang.scoring import deal_scores
from baogame.rules.core import RuleError, visible

#: The stacked-deal games run in this many interleaved batches (one test each).
BATCHES = 6

PRIVATE = {"hand_dealt", "tribute_owed", "tribute_cards_received", "partner_notice"}


def random_deal(rng: random.Random) -> dict[str, Any]:
    """A random stacked deal: 1-7 cards a seat, both marked jokers somewhere."""
    pack = [c for c in PACK if c not in ("RJ*", "BJ*")]
    rng.shuffle(pack)
    hands = [[pack.pop() for _ in range(rng.randint(1, 7))] for _ in range(5)]
    hands[rng.randrange(5)].append("RJ*")
    hands[rng.randrange(5)].append("BJ*")
    return {"hands": hands}


def random_options(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {
        "deals": [random_deal(rng) for _ in range(rng.randint(1, 4))],
        "target_score": rng.randint(1, 8),
    }
    if rng.random() < 0.6:
        emperor = rng.randrange(5)
        partner = rng.choice([None, (emperor + rng.randint(1, 4)) % 5])
        options["start"] = {
            "deal": rng.randint(2, 9),
            "totals": [rng.randint(-5, 5) for _ in range(5)],
            "previous": {
                "emperor": emperor,
                "partner": partner,
                "result": rng.choice(["won", "lost", "draw"]),
            },
        }
    return options


class Knowledge:
    """What one seat may know about the partner, rebuilt from the events it sees (BH-23.5, BH-23.6)."""

    def __init__(self) -> None:
        self.known = [False] * 6  # index 5: spectator

    def see(self, events: list[dict[str, Any]]) -> None:
        for i, seat in enumerate([0, 1, 2, 3, 4, None]):
            for e in events:
                if not visible(e, seat):
                    continue
                if e["type"] in ("partner_notice", "partner_revealed", "deal_started") or (
                    e["type"] == "declaration" and e["what"] in ("support", "alone")
                ):
                    self.known[i] = e["type"] != "deal_started"


def check_views(state: dict[str, Any], knowledge: Knowledge) -> None:
    """No view leaks a private card or an unknown partner."""
    referee = ENGINE.referee_view(state)
    for i, seat in enumerate([0, 1, 2, 3, 4, None]):
        v = ENGINE.view(state, seat)
        assert json.loads(json.dumps(v)) == v
        assert v["counts"] == [len(h) for h in referee["hands"]]
        if seat is None:
            assert v["hand"] is None and v["decision"] is None
        else:
            assert v["hand"] == referee["hands"][seat]
        holds_bj = seat is not None and "BJ*" in referee["hands"][seat] and referee["emperor"] is not None
        if v["partner"] is not None or v["alone"] is not None:
            assert knowledge.known[i] or holds_bj, (seat, v["partner"], v["alone"])
            assert v["partner"] == referee["partner"] and v["alone"] == referee["alone"] or holds_bj
        t = v["tribute"]
        if t is not None and seat is not None:
            if t["owed_cards"] is not None:
                assert state["tribute"]["owed"][seat] > 0
            if t["received_cards"] is not None:
                assert state["tribute"]["allot"][seat] > 0
        elif t is not None:
            assert t["owed_cards"] is t["given_cards"] is t["received_cards"] is None


def random_unlisted(rng: random.Random, hand: list[str]) -> dict[str, Any]:
    kind = rng.choice(
        [
            "play",
            "play",
            "pass",
            "keep_emperor",
            "pass_emperor",
            "no_declaration",
            "declare_alone",
            "pledge",
            "give_tribute",
        ]
    )
    if kind in ("play", "give_tribute"):
        pool = hand + list(CODES)
        return {"type": kind, "cards": rng.sample(pool, rng.randint(0, min(4, len(pool))))}
    if kind == "pledge":
        return {"type": kind, "side": rng.choice(["support", "oppose"])}
    return {"type": kind}


def play_checked_game(seed: int, *, options: dict[str, Any], bot: str | None, max_deals: int) -> None:
    rng = random.Random(seed)
    state, events = ENGINE.setup_with_events(5, options, seed)
    log: list[tuple[int, dict[str, Any]]] = []
    knowledge = Knowledge()
    knowledge.see(events)
    dealt = Counter(c for h in ENGINE.referee_view(state)["hands"] for c in h)
    played: Counter[str] = Counter()
    first_deal = state["deal"]
    steps = 0
    while not state["over"] and state["deal"] < first_deal + max_deals:
        steps += 1
        referee = ENGINE.referee_view(state)
        pile = (
            Counter(c for g in (state["tribute"] or {}).get("given", []) if g for c in g)
            if state["phase"] == "tribute"
            else Counter()
        )
        assert Counter(c for h in referee["hands"] for c in h) + played + pile == dealt  # BH-2.6
        assert not dealt - Counter(PACK)
        check_views(state, knowledge)
        (decision,) = ENGINE.pending(state)
        for seat in decision["seats"]:
            legal = ENGINE.legal_actions(state, seat)
            assert any(a["type"] in decision["allowed"] for a in legal)
            default = ENGINE.timeout_action(state, seat)
            assert {k: v for k, v in default.items() if k != "timeout"} in legal
        seat = rng.choice(decision["seats"])
        legal = ENGINE.legal_actions(state, seat)
        for a in rng.sample(legal, min(4, len(legal))):
            ENGINE.apply(state, seat, a)
        for _ in range(3):
            cand = random_unlisted(rng, referee["hands"][seat])
            if cand not in legal and not (
                cand["type"] == "play"
                and cand.get("cards")
                and {"type": "play", "cards": sorted(cand["cards"], key=CODES.index)} in legal
            ):
                try:
                    ENGINE.apply(state, seat, cand)
                    raise AssertionError(f"unlisted action applied: {cand}")
                except RuleError:
                    pass
        r = rng.random()
        if r < 0.1:
            action = ENGINE.timeout_action(state, seat)
        elif bot is not None and r < 0.8:
            action = BOTS[bot](ENGINE.view(state, seat), rng)
        else:
            action = rng.choice(legal)
        frozen = json.dumps(state, sort_keys=True)
        new, events = ENGINE.apply(state, seat, action)
        assert json.dumps(state, sort_keys=True) == frozen  # apply never mutates its input
        assert json.loads(json.dumps(new)) == new
        log.append((seat, action))
        for e in events:
            assert e["visible_to"] == "all" or (e["type"] in PRIVATE and len(e["visible_to"]) == 1)
            if e["type"] == "play":
                played.update(e["cards"])
            if e["type"] == "deal_ended":
                assert sum(e["scores"]) == 0  # BH-16.5
                assert (e["scores"], e["result"]) == deal_scores(
                    e["places"], e["emperor"], e["partner"], e["multiplier"]
                )
                assert sorted(e["finished"]) == [0, 1, 2, 3, 4]
            if e["type"] == "deal_started":
                played = Counter()
        if any(e["type"] == "deal_started" for e in events):
            idx = max(i for i, e in enumerate(events) if e["type"] == "deal_started")
            dealt = Counter(c for e in events[idx:] if e["type"] == "hand_dealt" for c in e["cards"])
        knowledge.see(events)
        state = new
    replay = ENGINE.setup(5, options, seed)
    for seat, action in log:
        replay, _ = ENGINE.apply(replay, seat, action)
    assert json.dumps(replay, sort_keys=True) == json.dumps(state, sort_keys=True)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_stacked_games_hold_every_property(batch: int) -> None:
    """300 seeded games of small stacked deals with tribute, offers, declarations, guesses, timeouts
    (in ``BATCHES`` interleaved batches, so parallel runs can share them)."""
    for seed in range(batch, 300, BATCHES):
        rng = random.Random(f"opts:{seed}")
        play_checked_game(
            seed,
            options=random_options(rng),
            bot=rng.choice([None, "random", "strategic"]),
            max_deals=len(random_options(random.Random(f"opts:{seed}"))["deals"]),
        )


def test_full_shuffled_games_hold_every_property():
    """A few full-size shuffled deals (34/33 cards) with the same checks, driven by the bots."""
    for seed in range(4):
        play_checked_game(1000 + seed, options={"target_score": 5}, bot="strategic", max_deals=2)
