"""Seeded property tests over many random games (BB-20.9, BB-25.4 – BB-25.6, BB-30, BB-31).

Checks after every action: all 66 cards accounted for; the input state is never mutated; the state is
plain JSON; every open decision's timeout action applies; each seat's view names exactly the cards the
seat has seen (tracked independently from its events); the spectator and memory-aid-off views name no
face-down card. On a sample of steps, ``legal_actions`` and ``apply`` are compared both ways. At the end,
a replay from the seed and the action log reproduces the state exactly.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from baogame.rules.baobei.bots import BOTS
from baogame.rules.core import RuleError

from .helpers import E
from .knowledge import Tracker

GAMES = 500
BATCHES = 10


def _cards_accounted(st: dict) -> None:
    r = E.referee_view(st)
    cards = [c for d in r["displays"] for c in d if c] + r["discard"] + r["draw"] + r["drawn"]
    assert len(cards) + r["under_discard"] == 66


def _views_match(st: dict, trackers: dict[Any, Tracker]) -> None:
    r = E.referee_view(st)
    for seat, tr in trackers.items():
        v = E.view(st, seat)
        for s, disp in enumerate(r["displays"]):
            for k, card in enumerate(disp):
                shown = v["displays"][s][k]
                if card is None:
                    assert shown is None
                    continue
                expected = tr.known.get((s, k), "?")
                if expected != "?":
                    assert expected == card, "the tracker believes a wrong card"
                if seat is None or not st["memory_aid"]:
                    assert shown == "?"
                else:
                    assert shown == expected, (seat, s, k, shown, expected)
        assert isinstance(v["draw"], int)
        if seat is None or st["drawn_by"] != seat:
            assert set(v["drawn"]) <= {"?"}


def _mutations(act: dict, rng: random.Random) -> list[dict]:
    out = []
    bad = dict(act)
    bad["decision_id"] = "d999999"
    out.append(bad)
    bad = dict(act)
    bad["extra"] = 1
    out.append(bad)
    if "slot" in act:
        out.append({**act, "slot": 99})
    if "targets" in act and act["targets"]:
        out.append({**act, "targets": [{"seat": 9, "slot": 0}] + act["targets"][1:]})
    if "target" in act:
        out.append({**act, "target": {"seat": 0, "slot": 99}})
    return out


def _check_legal(st: dict, seat: int, chosen: dict, rng: random.Random) -> None:
    legal = E.legal_actions(st, seat)
    assert legal, "an open decision without a legal action"
    plain = {k: v for k, v in chosen.items() if k not in ("commit_end_turn", "timeout")}
    assert plain in legal, "apply accepts an action that legal_actions does not list"
    for a in rng.sample(legal, min(4, len(legal))):
        E.apply(st, seat, a)
    for bad in _mutations(rng.choice(legal), rng):
        with pytest.raises(RuleError):
            E.apply(st, seat, bad)
    others = [s for s in range(st["n"]) if s not in E.pending(st)[0]["seats"]]
    if others:
        with pytest.raises(RuleError):
            E.apply(st, rng.choice(others), legal[0])


def play_one(game: int) -> int:
    rng = random.Random(f"prop:{game}")
    n = rng.randint(2, 6)
    options = {"threshold": rng.choice([5, 8, 12, 25]), "memory_aid": rng.random() < 0.85}
    seed = f"s{game}"
    st = E.setup(n, options, seed)
    json.dumps(st)
    log: list[tuple[int, dict]] = []
    trackers: dict[Any, Tracker] = {s: Tracker(s) for s in range(n)}
    trackers[None] = Tracker(None)
    # Events of the first round_started are not returned by setup; the trackers start empty anyway.
    step = 0
    while True:
        pending = E.pending(st)
        if not pending:
            break
        d = pending[0]
        assert d["seats"], d
        seat = rng.choice(d["seats"])
        timeout = E.timeout_action(st, seat)
        r = rng.random()
        if r < 0.1:
            action = timeout
        else:
            bot = BOTS["random"] if r < 0.7 else BOTS["memory"]
            action = bot(E.view(st, seat), rng)
            if rng.random() < 0.05 and action["type"] != "end_turn" and seat == E.referee_view(st)["active"]:
                action = {**action, "commit_end_turn": True}
        if step % 29 == 0 and (d["kind"] not in ("after_draw", "pluck_window") or step % 87 == 0):
            _check_legal(st, seat, action, rng)
        E.apply(st, seat, timeout)  # the timeout action is always legal
        frozen = json.dumps(st)
        new, events = E.apply(st, seat, action)
        assert json.dumps(st) == frozen, "apply mutated its input"
        if action.get("timeout"):
            assert all(e["by_timeout"] for e in events)
        st = new
        log.append((seat, action))
        for tr in trackers.values():
            tr.feed(events)
        _cards_accounted(st)
        _views_match(st, trackers)
        step += 1
        assert step < 20_000
    assert json.loads(json.dumps(st)) == st
    replay = E.setup(n, options, seed)
    for seat, action in log:
        replay, _ = E.apply(replay, seat, action)
    assert json.dumps(replay, sort_keys=True) == json.dumps(st, sort_keys=True)
    assert E.referee_view(st)["over"] and len(E.referee_view(st)["winners"]) == 1
    return step


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_games_keep_every_invariant_bb_25_and_bb_30(batch):
    """BB-25.4 (66 cards), BB-25.5 (decisions, defaults, legal actions), BB-25.6 / BB-30 / BB-31 (views),
    DESIGN.md determinism (replay) and purity (no mutation), over many seeded random games.

    The ``GAMES`` games are played in ``BATCHES`` interleaved batches, so parallel runs can share them."""
    games = range(batch, GAMES, BATCHES)

    total = sum(play_one(g) for g in games)

    assert total > len(games) * 10
