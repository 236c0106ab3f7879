"""Swiss pairing: each round seats players of similar standing together, avoiding rematches first.

Pure functions on plain data; nothing here touches the database.

A round (``plan_swiss_round``):

1. **Order.** The division's members best first, as the standings order them; members with equal
   league points are shuffled among themselves by the seeded RNG (so round 1, where everybody has 0
   points, is a seeded draw).
2. **Table sizes and byes** as in the spread format (``pairing.table_sizes``). Byes rotate: the
   members with the fewest byes so far sit out, ties going to the lowest in the order.
3. **Seating.** Among every way to seat the others at tables of those sizes, the one with the fewest
   **rematches** (the sum over pairs seated together of their earlier meetings) and, among those, the
   smallest **score spread** (the sum over tables of the highest minus the lowest league points at the
   table). An exact branch and bound (the highest unseated member first, the cheapest tables for them
   first) finds it; past ``node_limit`` search nodes (only for large divisions) it keeps the best
   seating found so far.

**The promise** (tested against an exhaustive search): a seating has a rematch only when every seating
with the same or a smaller score spread has one too; the chosen seating is never beaten on both.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from ..pairing import Pair, RoundPlan, pair, table_sizes

NODE_LIMIT = 2_000


def swiss_order(*, order: Sequence[int], scores: Mapping[int, int], seed: str) -> list[int]:
    """``order`` (best first) with members of equal points shuffled among themselves by ``seed``."""
    rng = random.Random(f"leagues:swiss:{seed}")
    groups: dict[int, list[int]] = {}
    for m in order:
        groups.setdefault(scores.get(m, 0), []).append(m)
    out: list[int] = []
    for score in sorted(groups, reverse=True):
        group = groups[score]
        rng.shuffle(group)
        out.extend(group)
    return out


def seating_cost(
    tables: Sequence[Sequence[int]], *, history: Mapping[Pair, int], scores: Mapping[int, int]
) -> tuple[int, int]:
    """``(rematches, score spread)`` of a seating (see the module docstring)."""
    rematches = sum(history.get(pair(a, b), 0) for t in tables for a, b in combinations(t, 2))
    spread = sum(max(scores.get(m, 0) for m in t) - min(scores.get(m, 0) for m in t) for t in tables if t)
    return rematches, spread


def plan_swiss_round(
    *,
    order: Sequence[int],
    scores: Mapping[int, int],
    size: int,
    min_size: int,
    history: Counter[Pair] | None = None,
    bye_counts: Mapping[int, int] | None = None,
    seed: str = "",
    node_limit: int = NODE_LIMIT,
) -> RoundPlan:
    """The next Swiss round of the members in ``order`` (best first); see the module docstring."""
    ranked = swiss_order(order=order, scores=scores, seed=seed)
    sizes, bye_count = table_sizes(members=len(ranked), size=size, min_size=min_size)
    if not sizes:
        return RoundPlan(tables=[], byes=sorted(ranked))
    byes_so_far = bye_counts or {}
    position = {m: i for i, m in enumerate(ranked)}
    byes = sorted(ranked, key=lambda m: (byes_so_far.get(m, 0), -position[m]))[:bye_count]
    playing = [m for m in ranked if m not in byes]
    tables = best_seating(
        playing=playing, sizes=sizes, history=history or {}, scores=scores, node_limit=node_limit
    )
    return RoundPlan(tables=[sorted(t) for t in tables], byes=sorted(byes))


def best_seating(
    *,
    playing: Sequence[int],
    sizes: Sequence[int],
    history: Mapping[Pair, int],
    scores: Mapping[int, int],
    node_limit: int = NODE_LIMIT,
) -> list[list[int]]:
    """The seating of ``playing`` (best first) at tables of ``sizes`` with the least
    ``(rematches, score spread)``; exact unless the search passes ``node_limit`` steps."""
    best: list[list[list[int]] | None] = [None]
    best_cost: list[tuple[int, int]] = [(10**9, 10**9)]
    nodes = [0]

    def search(rest: list[int], left: Counter[int], tables: list[list[int]], cost: tuple[int, int]) -> None:
        nodes[0] += 1
        if cost >= best_cost[0]:
            return
        if not rest:
            best[0], best_cost[0] = [list(t) for t in tables], cost
            return
        if nodes[0] > node_limit and best[0] is not None:
            return
        head, others = rest[0], rest[1:]
        options = []
        for s in sorted(left, reverse=True):
            if left[s]:
                for mates in combinations(range(len(others)), s - 1):
                    table = [head, *(others[i] for i in mates)]
                    options.append((seating_cost([table], history=history, scores=scores), s, mates, table))
        options.sort(key=lambda o: o[0])  # the cheapest table first: the first descent is greedy
        for added, s, mates, table in options:
            if (cost[0] + added[0], cost[1] + added[1]) >= best_cost[0]:
                break  # sorted: no later option is cheaper
            left[s] -= 1
            tables.append(table)
            taken = set(mates)
            search(
                [m for i, m in enumerate(others) if i not in taken],
                left,
                tables,
                (cost[0] + added[0], cost[1] + added[1]),
            )
            tables.pop()
            left[s] += 1

    search(list(playing), Counter(sizes), [], (0, 0))
    assert best[0] is not None
    return best[0]
