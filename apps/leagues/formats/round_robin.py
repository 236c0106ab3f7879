"""Round robin: every pair of a division meets equally often, as far as the table sizes allow.

Pure functions on plain data; nothing here touches the database.

The season's rounds are planned together (``plan_round_robin``), deterministic from the seed:

* **Tables of two** without history (a season's start): the circle method (Berger tables) on the
  members in a seeded order, with a dummy member for an odd count (whoever meets the dummy sits out,
  so byes rotate). After every round each pair has met ``c`` or ``c + 1`` times.
* **Otherwise**, byes rotate as in the spread format (the fewest byes so far sit out) and the seating
  is found by simulated annealing over seat swaps, minimising the cost
  ``sum over rounds r of sum over pairs of m_r(a, b)^2`` where ``m_r`` counts the pair's meetings up to
  and including round ``r`` (earlier rounds of the season included). A squared sum is least when the
  counts are as even as possible, so a schedule in which after every round the pair meetings differ
  by at most one is a minimum of every term at once; the search stops when it reaches that bound.

**The promise** (tested against an exhaustive search of small divisions, and for every size with
tables of two): after every round, the meetings of any two pairs differ by at most one whenever a
schedule with these tables and byes allows it.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from ..pairing import Pair, RoundPlan, byes_by_round, even_floor, pair, random_plan, table_sizes

T0 = 2.0


def plan_round_robin(
    *,
    members: Sequence[int],
    size: int,
    min_size: int,
    rounds: int,
    history: Counter[Pair] | None = None,
    bye_counts: Mapping[int, int] | None = None,
    seed: str = "",
    effort: int = 1,
) -> list[RoundPlan]:
    """Plan ``rounds`` round-robin rounds of ``members`` (see the module docstring)."""
    members = sorted(set(members))
    known = Counter({p: c for p, c in (history or Counter()).items() if p[0] in members and p[1] in members})
    sizes, bye_count = table_sizes(members=len(members), size=size, min_size=min_size)
    if not sizes:
        return [RoundPlan(tables=[], byes=list(members)) for _ in range(rounds)]
    if (
        set(sizes) == {2}
        and bye_count <= 1
        and not any(known.values())
        and not any((bye_counts or {}).values())
    ):
        return circle_method(members=members, rounds=rounds, seed=seed)
    rng = random.Random(f"leagues:round-robin:{seed}")
    round_byes = byes_by_round(
        members=members, count=bye_count, bye_counts=bye_counts, rounds=rounds, rng=rng
    )
    best: list[list[list[int]]] | None = None
    best_cost = math.inf
    for attempt in range(4 * effort):
        plan, cost, floor = _anneal(
            members=members,
            sizes=sizes,
            round_byes=round_byes,
            history=known,
            rng=random.Random(f"leagues:round-robin:{seed}:{attempt}"),
            steps=150 * len(members) * rounds * effort,
        )
        if cost < best_cost:
            best, best_cost = plan, cost
        if best_cost <= floor:
            break
    assert best is not None
    return [
        RoundPlan(tables=[sorted(t) for t in r], byes=sorted(b))
        for r, b in zip(best, round_byes, strict=True)
    ]


def circle_method(*, members: Sequence[int], rounds: int, seed: str) -> list[RoundPlan]:
    """Berger tables: one member stays, the others rotate; a dummy (None) evens an odd count."""
    order: list[int | None] = list(members)
    random.Random(f"leagues:round-robin:circle:{seed}").shuffle(order)
    if len(order) % 2:
        order.append(None)
    n = len(order)
    plans: list[RoundPlan] = []
    for r in range(rounds):
        cycle = r % (n - 1)
        rotated = [order[0], *(order[1:][-cycle:] + order[1:][:-cycle] if cycle else order[1:])]
        tables, byes = [], []
        for i in range(n // 2):
            a, b = rotated[i], rotated[n - 1 - i]
            if a is None or b is None:
                byes.append(a if b is None else b)
            else:
                tables.append(sorted((a, b)))
        plans.append(RoundPlan(tables=tables, byes=sorted(m for m in byes if m is not None)))
    return plans


def prefix_cost(
    rounds: Sequence[Sequence[Sequence[int]]],
    members: Sequence[int],
    history: Mapping[Pair, int] | None = None,
) -> int:
    """``sum over rounds r of sum over pairs of m_r^2`` (the annealer's cost)."""
    counts: Counter[Pair] = Counter(history or {})
    total = 0
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                counts[pair(a, b)] += 1
        total += sum(counts[pair(a, b)] ** 2 for a, b in combinations(sorted(members), 2))
    return total


def _anneal(
    *,
    members: list[int],
    sizes: list[int],
    round_byes: list[list[int]],
    history: Counter[Pair],
    rng: random.Random,
    steps: int,
) -> tuple[list[list[list[int]]], int, int]:
    """Simulated annealing over seat swaps; (rounds of tables, cost, the cost's lower bound)."""
    total_rounds = len(round_byes)
    pairs = math.comb(len(members), 2)
    plan = random_plan(members=members, round_byes=round_byes, sizes=sizes, rng=rng)
    met: dict[Pair, list[int]] = {}
    for r, tables in enumerate(plan):
        for table in tables:
            for a, b in combinations(table, 2):
                met.setdefault(pair(a, b), []).append(r)
    base = sum(history.values())
    per_round = sum(math.comb(s, 2) for s in sizes)
    floor = sum(even_floor(base + per_round * (r + 1), pairs) for r in range(total_rounds))
    cost = prefix_cost(plan, members, history)
    if cost <= floor or len(sizes) < 2:
        return plan, cost, floor

    def weight(p: Pair, r: int) -> int:
        """``sum over rounds r' >= r of m_r'(p)``: how much one more meeting in round r costs (halved)."""
        h = history.get(p, 0)
        return (total_rounds - r) * h + sum(total_rounds - max(i, r) for i in met.get(p, []))

    def change(p: Pair, r: int, d: int) -> None:
        rounds_met = met.setdefault(p, [])
        if d > 0:
            rounds_met.append(r)
        else:
            rounds_met.remove(r)

    best_cost, best_plan = cost, [[list(t) for t in rr] for rr in plan]
    temperature, cooling = T0, (0.05 / T0) ** (1 / max(1, steps))
    for _ in range(steps):
        temperature *= cooling
        r = rng.randrange(total_rounds)
        ta, tb = rng.sample(range(len(plan[r])), 2)
        table_a, table_b = plan[r][ta], plan[r][tb]
        ia, ib = rng.randrange(len(table_a)), rng.randrange(len(table_b))
        a, b = table_a[ia], table_b[ib]
        span = total_rounds - r
        delta = 0
        for x in table_a:
            if x != a:
                delta += -2 * weight(pair(a, x), r) + span + 2 * weight(pair(b, x), r) + span
        for y in table_b:
            if y != b:
                delta += -2 * weight(pair(b, y), r) + span + 2 * weight(pair(a, y), r) + span
        if delta > 0 and rng.random() >= math.exp(-delta / temperature):
            continue
        for x in table_a:
            if x != a:
                change(pair(a, x), r, -1)
                change(pair(b, x), r, +1)
        for y in table_b:
            if y != b:
                change(pair(b, y), r, -1)
                change(pair(a, y), r, +1)
        table_a[ia], table_b[ib] = b, a
        cost += delta
        if cost < best_cost:
            best_cost, best_plan = cost, [[list(t) for t in rr] for rr in plan]
            if best_cost <= floor:
                break
    return best_plan, best_cost, floor
