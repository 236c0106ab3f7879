"""Round robin: after every round, pair meetings differ by at most one as far as the
table sizes allow; byes rotate; deterministic from the seed. Checked over many seeds (hypothesis) and
against an exhaustive search of small divisions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.leagues.formats import round_robin
from apps.leagues.formats.round_robin import plan_round_robin, prefix_cost
from apps.leagues.pairing import Pair, meetings, pair, table_sizes


def spread_after_each_round(
    rounds: Sequence[Sequence[Sequence[int]]],
    members: Sequence[int],
    history: Mapping[Pair, int] | None = None,
) -> list[int]:
    """After each round, the most minus the fewest meetings over every pair of ``members``."""
    counts: Counter[Pair] = Counter(history or {})
    out = []
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                counts[pair(a, b)] += 1
        values = [counts[pair(a, b)] for a, b in combinations(sorted(members), 2)]
        out.append(max(values) - min(values) if values else 0)
    return out


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 14), rounds=st.integers(1, 16), seed=st.text(max_size=6))
def test_tables_of_two_every_pair_meets_equally_often_after_every_round(
    n: int, rounds: int, seed: str
) -> None:
    members = list(range(10, 10 + n))
    plans = plan_round_robin(members=members, size=2, min_size=2, rounds=rounds, seed=seed)
    assert max(spread_after_each_round([p.tables for p in plans], members)) <= 1
    byes: Counter[int] = Counter()
    for p in plans:
        assert sorted([*p.byes, *(m for t in p.tables for m in t)]) == members
        assert len(p.byes) == n % 2
        byes.update(p.byes)
        assert max(byes[m] for m in members) - min(byes[m] for m in members) <= 1  # byes rotate


def _seatings(players: list[int], sizes: list[int]) -> list[list[list[int]]]:
    if not players:
        return [[]]
    head, rest = players[0], players[1:]
    out = []
    for s in sorted(set(sizes)):
        left = list(sizes)
        left.remove(s)
        for mates in combinations(rest, s - 1):
            others = [m for m in rest if m not in mates]
            out += [[[head, *mates], *tail] for tail in _seatings(others, left)]
    return out


def _even_schedule_exists(members: list[int], rounds_playing: list[list[int]], sizes: list[int]) -> bool:
    """Whether some seating of these rounds (who plays in each is given) keeps the pair meetings
    within one of each other after every round (depth-first, cutting at the first uneven round)."""

    def search(r: int, counts: Counter[Pair]) -> bool:
        if r == len(rounds_playing):
            return True
        for seating in _seatings(rounds_playing[r], sizes):
            after = counts + meetings([seating])
            values = [after[pair(a, b)] for a, b in combinations(members, 2)]
            if max(values) - min(values) <= 1 and search(r + 1, after):
                return True
        return False

    return search(0, Counter())


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(3, 7),
    size=st.integers(2, 4),
    smaller=st.booleans(),
    rounds=st.integers(1, 3),
    seed=st.text(max_size=6),
)
def test_pair_meetings_differ_by_at_most_one_whenever_the_tables_allow_it(
    n: int, size: int, smaller: bool, rounds: int, seed: str
) -> None:
    members = list(range(1, n + 1))
    min_size = 2 if smaller else size
    plans = plan_round_robin(members=members, size=size, min_size=min_size, rounds=rounds, seed=seed)
    sizes, _ = table_sizes(members=n, size=size, min_size=min_size)
    if not sizes:
        return
    playing = [sorted(m for t in p.tables for m in t) for p in plans]
    ours = spread_after_each_round([p.tables for p in plans], members)
    if _even_schedule_exists(members, playing, sizes):
        assert max(ours) <= 1, (ours, plans)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(4, 10),
    size=st.integers(3, 4),
    rounds=st.integers(2, 5),
    past=st.integers(0, 2),
    seed=st.integers(0, 10**6),
)
def test_the_annealer_keeps_its_cost_in_step_with_the_schedule(
    n: int, size: int, rounds: int, past: int, seed: int
) -> None:
    members = list(range(n))
    rng = random.Random(seed)
    history: Counter[Pair] = Counter()
    for _ in range(past):
        order = members[:]
        rng.shuffle(order)
        history.update(meetings([[order[i : i + size] for i in range(0, n - n % size, size)]]))
    sizes, byes = table_sizes(members=n, size=size, min_size=2)
    plan, cost, floor = round_robin._anneal(
        members=members,
        sizes=sizes,
        round_byes=[[] for _ in range(rounds)],
        history=history,
        rng=random.Random(seed),
        steps=2000,
    )
    assert cost == prefix_cost(plan, members, history)
    assert floor <= cost


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 9), size=st.integers(2, 4), rounds=st.integers(1, 5), seed=st.text(max_size=6))
def test_round_robin_is_deterministic_from_the_seed(n: int, size: int, rounds: int, seed: str) -> None:
    kwargs = {"members": list(range(n)), "size": size, "min_size": 2, "rounds": rounds, "seed": seed}
    assert plan_round_robin(**kwargs) == plan_round_robin(**kwargs)


def test_nine_players_at_tables_of_three_meet_exactly_once_in_four_rounds() -> None:
    """The affine plane of order 3: 9 players, 4 rounds of three tables of 3, every pair once."""
    members = list(range(9))
    plans = plan_round_robin(members=members, size=3, min_size=3, rounds=4, seed="kirkman")
    counts = meetings([p.tables for p in plans])
    assert all(counts[pair(a, b)] == 1 for a, b in combinations(members, 2))


def test_byes_rotate_at_fixed_table_sizes() -> None:
    """Tables of exactly 5 (Bao Huang) for 7 players: 2 byes a round, nobody twice before all once."""
    members = list(range(7))
    plans = plan_round_robin(members=members, size=5, min_size=5, rounds=7, seed="bh")
    byes: Counter[int] = Counter()
    for p in plans:
        byes.update(p.byes)
        assert max(byes[m] for m in members) - min(byes[m] for m in members) <= 1
