"""Bots for the bench, tests and seats handed over after repeated timeouts.

A bot is ``(view, rng) -> wire action`` and uses only its own seat's ``view()`` (BH-23): its hand,
the public table and its open decision (``view["decision"]``, with the choices for every decision
other than a play; plays are built from the hand and the top with ``combos.plays``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .cards import BJM, RJ, RJM, STRENGTHS, to_counts, to_list
from .combos import plays

View = dict[str, Any]
Action = dict[str, Any]
Bot = Callable[[View, random.Random], Action]


def _play_choices(view: View) -> tuple[list[list[int]], bool]:
    """All distinct legal plays (count vectors) and whether passing is allowed."""
    top = view["top"]
    hand = to_counts(view["hand"])
    return plays(hand, None if top is None else to_counts(top["cards"])), top is not None


def random_bot(view: View, rng: random.Random) -> Action:
    """A uniformly random legal action for the seat's open decision (sometimes a partner guess first)."""
    decision = view["decision"]
    if decision is None:
        raise ValueError("the seat has no open decision")
    seat = view["seat"]
    if (
        view["phase"] in ("declare", "play")
        and not view["partner_public"]
        and seat != view["emperor"]
        and rng.random() < 0.05
    ):
        return {"type": "guess_partner", "seat": rng.choice([s for s in range(5) if s != seat])}
    if view["phase"] != "play":
        return dict(rng.choice(decision["actions"]))
    choices, can_pass = _play_choices(view)
    n = len(choices) + (1 if can_pass else 0)
    k = rng.randrange(n)
    if k == len(choices):
        return {"type": "pass"}
    return {"type": "play", "cards": to_list(choices[k])}


# --- strategic bot ---------------------------------------------------------------------------


def _power(hand: list[int]) -> float:
    """A rough hand strength: jokers and 2s win leads; many distinct low ranks are a burden."""
    jokers = sum(hand[10:14])
    ranks_low = sum(1 for i in range(7) if hand[i])
    return 2.0 * jokers + 1.0 * hand[9] + 0.4 * hand[8] - 0.5 * ranks_low


def _team(view: View) -> tuple[set[int], set[int]]:
    """(known teammates, known opponents) of the seat from what its view shows."""
    seat, emperor, partner, alone = view["seat"], view["emperor"], view["partner"], view["alone"]
    if emperor is None:
        return set(), set()
    others = set(range(5)) - {seat}
    if seat == emperor:
        if alone:
            return set(), others
        return {partner}, others - {partner}
    if partner == seat:  # I am the partner
        return {emperor}, others - {emperor}
    if partner is not None or alone:  # roles public: I am a commoner
        mates = others - {emperor} - ({partner} if partner is not None else set())
        return mates, others - mates
    return set(), {emperor}  # a commoner who does not know the partner yet


def _cost(play: list[int], hand: list[int]) -> float:
    """How much a play spends: strong cards and broken sets cost more."""
    cost = 0.0
    for i, n in enumerate(play):
        if not n:
            continue
        s = STRENGTHS[i]
        if i >= 10:
            cost += 12.0 * n + (8.0 if i == BJM else 0.0)
        elif i == 9:
            cost += 8.0 * n
        else:
            cost += (s - 5) * 0.6 * n
            if hand[i] > n:
                cost += 2.5  # breaking a set
    return cost


def _lead(hand: list[int], choices: list[list[int]]) -> list[int]:
    """Lead: go out if one play empties the hand, else the lowest full set without jokers or 2s."""
    total = sum(hand)
    for c in choices:
        if sum(c) == total:
            return c
    for i in range(9):
        if hand[i]:
            c = [0] * 14
            c[i] = hand[i]
            return c
    for i in (9, 10, 12, 11, 13):
        if hand[i]:
            c = [0] * 14
            c[i] = hand[i] if i == 9 else 1
            return c
    raise AssertionError("empty hand")


def strategic_bot(view: View, rng: random.Random) -> Action:
    """Leads low sets, keeps jokers and 2s to regain the lead, supports its known team and never
    beats its known partner needlessly."""
    decision = view["decision"]
    if decision is None:
        raise ValueError("the seat has no open decision")
    phase = view["phase"]
    hand = to_counts(view["hand"])
    if phase == "tribute":
        return dict(decision["actions"][0])
    if phase == "offer":
        keep = _power(hand) >= 9.0 or (hand[BJM] and _power(hand) >= 12.0)
        return {"type": "keep_emperor"} if keep or not hand[RJM] else {"type": "pass_emperor"}
    if phase == "declare":
        kinds = {a["type"]: a for a in decision["actions"]}
        power = _power(hand)
        if "declare_alone" in kinds and power >= 18.0:
            return {"type": "declare_alone"}
        pledge = kinds.get("pledge")
        if pledge and pledge["side"] == "support" and power >= 12.0:
            return dict(pledge)
        if pledge and pledge["side"] == "oppose" and power >= 16.0:
            return dict(pledge)
        return {"type": "no_declaration"}
    mates, foes = _team(view)
    choices, can_pass = _play_choices(view)
    top = view["top"]
    if top is None:
        return {"type": "play", "cards": to_list(_lead(hand, choices))}
    if not choices:
        return {"type": "pass"}
    total = sum(hand)
    for c in choices:
        if sum(c) == total:
            return {"type": "play", "cards": to_list(c)}  # going out is always worth it
    counts = view["counts"]
    top_seat = top["seat"]
    if top_seat in mates:
        return {"type": "pass"}  # never beat a known teammate needlessly
    danger = counts[top_seat] <= 3 and top_seat not in mates
    best = min(choices, key=lambda c: (_cost(c, hand), sum(c[10:])))
    cost = _cost(best, hand)
    strong_used = sum(best[9:])
    if strong_used and not danger and total > 6 and sum(hand[i] for i in range(9)) > 2:
        return {"type": "pass"}  # keep jokers and 2s to regain the lead later
    if cost > 14.0 and not danger and top_seat not in foes:
        return {"type": "pass"}
    if best[RJ] + best[RJM] and hand[RJ] + hand[RJM] <= 1 and not danger and total > 4:
        return {"type": "pass"}
    return {"type": "play", "cards": to_list(best)}


BOTS: dict[str, Bot] = {"random": random_bot, "strategic": strategic_bot}
DEFAULT_BOT = "strategic"
