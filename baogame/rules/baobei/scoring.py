"""Round scoring, the next round and final standings (BB-3.7, BB-14, BB-15)."""

from __future__ import annotations

from typing import Any

from .cards import CODE_OF, VALUE_OF
from .state import State


def round_total(display: list[int | None]) -> int:
    """BB-14.2: the sum of the values of the cards in a display (0 for no card)."""
    return sum(VALUE_OF[c] for c in display if c is not None)


def caller_score(total: int, success: bool) -> int:
    """BB-14.3 b, c: 0 (or the negative total) on success, ``max(2 × total, 5)`` on failure."""
    if success:
        return total if total < 0 else 0
    return max(2 * total, 5)


def score_round(st: State) -> dict[str, Any]:
    """BB-14.1 – BB-14.3: the revealed displays, round totals, round scores and BAO outcome."""
    n = st["n"]
    parts = st["participants"]
    displays = [
        [None if c is None else CODE_OF[c] for c in st["displays"][s]] if s in parts else [] for s in range(n)
    ]
    by_seat = {s: round_total(st["displays"][s]) for s in parts}
    totals: list[int | None] = [by_seat.get(s) for s in range(n)]
    scores = list(totals)
    bao = None
    caller = st["bao_caller"]
    if caller is not None and st["final_phase"] is None:
        mine = by_seat[caller]
        success = all(mine < by_seat[s] for s in parts if s != caller)
        scores[caller] = caller_score(mine, success)
        bao = {"caller": caller, "success": success}
    return {"displays": displays, "round_totals": totals, "scores": scores, "bao": bao}


def starting_player(st: State, scores: list[int | None]) -> int:
    """BB-3.7 b, c: the highest recorded score of the previous round; ties by that round's turn order."""
    start = st["round_start"]
    parts: list[int] = st["participants"]
    order = [p for p in parts if p >= start] + [p for p in parts if p < start]
    best = max(score for s in order if (score := scores[s]) is not None)  # participants have one
    return next(s for s in order if scores[s] == best)


def next_round(st: State, scores: list[int | None]) -> tuple[list[int], bool, int | None] | None:
    """BB-15.1 / BB-15.3 / BB-15.4: (participants, deciding, starting player or None for random) of
    the next round, or ``None`` when the game is over. Records deciding-round results."""
    n = st["n"]
    if st["deciding"]:
        parts = st["participants"]
        st["deciding_results"].append(
            {"round": st["round"], "seats": list(parts), "scores": [scores[s] for s in parts]}
        )
        low = min(scores[s] for s in parts)
        tied = [s for s in parts if scores[s] == low]
        return None if len(tied) == 1 else (tied, True, None)
    totals = st["totals"]
    if max(totals) >= st["threshold"]:
        low = min(totals)
        tied = [s for s in range(n) if totals[s] == low]
        return None if len(tied) == 1 else (tied, True, None)
    return list(range(n)), False, starting_player(st, scores)


def _winner(st: State) -> int:
    if st["deciding_results"]:
        last = st["deciding_results"][-1]
        seats: list[int] = last["seats"]
        scores: list[int] = last["scores"]
        return seats[scores.index(min(scores))]
    totals: list[int] = st["totals"]
    return totals.index(min(totals))


def standings(st: State) -> list[dict[str, int]]:
    """BB-15.5 / BB-25.7: ``[{"seat", "total", "position"}]``, best first."""
    n = st["n"]
    totals = st["totals"]
    results = st["deciding_results"]
    k_all = len(results)
    winner = _winner(st)
    keys: dict[int, tuple[int, ...]] = {s: (totals[s], 0, 0, 0) for s in range(n)}
    for k, res in enumerate(results):
        low = min(res["scores"])
        for s, sc in zip(res["seats"], res["scores"], strict=True):
            if sc != low or (k == k_all - 1 and s != winner):
                keys[s] = (totals[s], 1, k_all - k, sc)
    order = sorted(range(n), key=lambda s: (keys[s], s))
    return [
        {"seat": s, "total": totals[s], "position": 1 + sum(1 for t in range(n) if keys[t] < keys[s])}
        for s in order
    ]


def deciding_summary(st: State) -> list[dict[str, Any]]:
    """The deciding rounds' results for ``game_ended`` (BB-31)."""
    return [dict(r) for r in st["deciding_results"]]
