"""Pairing: one table per member per round, few repeated meetings, fair byes (pure, no database)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations, permutations

import pytest

from apps.leagues import pairing

MEMBERS = (8, 9, 10, 12, 15)
ROUNDS = (3, 4, 5, 6)


def _season(
    members: int, size: int, min_size: int, rounds: int, seed: str = "test"
) -> list[pairing.RoundPlan]:
    return pairing.plan_rounds(members=range(members), size=size, min_size=min_size, rounds=rounds, seed=seed)


@pytest.mark.parametrize("rounds", ROUNDS)
@pytest.mark.parametrize("size", [3, 4, 5])
@pytest.mark.parametrize("members", MEMBERS)
def test_bao_bei_season_repeats_within_one_of_the_minimum(members: int, size: int, rounds: int) -> None:
    """Bao Bei (tables of 2-6): every member plays every round; Q <= the combinatorial lower bound + 1."""
    plans = _season(members, size, 2, rounds)

    played = [p.tables for p in plans]
    assert all(sorted(m for t in tables for m in t) == list(range(members)) for tables in played)
    assert all(not p.byes for p in plans)
    assert all(max(len(t) for t in tables) - min(len(t) for t in tables) <= 1 for tables in played)
    assert pairing.repeated_meetings(played) <= pairing.repeat_lower_bound(members=members, rounds=played) + 1


@pytest.mark.parametrize("rounds", ROUNDS)
@pytest.mark.parametrize("members", MEMBERS)
def test_bao_huang_season_uses_byes_and_repeats_within_one_of_the_minimum(members: int, rounds: int) -> None:
    """Bao Huang (exactly 5): leftover members sit out; Q <= lower bound + 1 for the same byes."""
    plans = _season(members, 5, 5, rounds)

    for plan in plans:
        seated = [m for t in plan.tables for m in t]
        assert all(len(t) == 5 for t in plan.tables)
        assert len(seated) == len(set(seated))
        assert sorted(seated + plan.byes) == list(range(members))
        assert len(plan.byes) == members % 5
    played = [p.tables for p in plans]
    assert pairing.repeated_meetings(played) <= pairing.repeat_lower_bound(members=members, rounds=played) + 1


#: Cases whose lower bound is not tight, with the best known Q. 15 members at tables of 4 over 6 rounds
#: (3 byes a round): the bound says 6, but an exact search outside the project (CP-SAT over every
#: seating, with fair byes and every split of the twice-resting members over the bye rounds) showed
#: that no season with Q <= 7 exists; 9 is the best known. The planner reaches 9 by trading byes between
#: rounds; with the byes fixed in advance it stalls at 10.
BEST_KNOWN = {(15, 4, 6): 9}

FULL_TABLES_OF_3_OR_4 = [(m, k, r) for m in MEMBERS for k in (3, 4) for r in ROUNDS]


def _fair_byes(plans: list[pairing.RoundPlan], members: int, size: int) -> bool:
    """``members mod size`` sit out each round, nobody with more byes so far than anyone seated."""
    given: Counter[int] = Counter()
    for plan in plans:
        seated = [m for t in plan.tables for m in t]
        if len(plan.byes) != members % size or sorted(seated + plan.byes) != list(range(members)):
            return False
        if plan.byes and max(given[m] for m in plan.byes) > min(given[m] for m in seated):
            return False
        given.update(plan.byes)
    return True


@pytest.mark.parametrize(("members", "size", "rounds"), FULL_TABLES_OF_3_OR_4)
def test_full_tables_of_3_or_4_use_fair_byes_and_repeat_within_one_of_the_minimum(
    members: int, size: int, rounds: int
) -> None:
    """No smaller tables allowed: ``members mod size`` sit out, byes rotate, Q <= lower bound + 1.

    Where the bound is known not to be tight (``BEST_KNOWN``), Q is at most the best known value.
    """
    plans = _season(members, size, size, rounds)

    assert all(len(t) == size for plan in plans for t in plan.tables)
    assert _fair_byes(plans, members, size)
    played = [p.tables for p in plans]
    bound = pairing.repeat_lower_bound(members=members, rounds=played) + 1
    assert pairing.repeated_meetings(played) <= BEST_KNOWN.get((members, size, rounds), bound)


def test_byes_traded_between_rounds_still_go_to_the_fewest_byes_so_far() -> None:
    """Members who already had a bye (an earlier round) sit out no planned round before everyone
    else has had one, whatever byes the planner trades between rounds."""
    earlier = {0: 1, 1: 1, 2: 1}
    plans = pairing.plan_rounds(members=range(13), size=5, min_size=5, bye_counts=earlier, rounds=4, seed="t")

    first_three = [m for plan in plans[:3] for m in plan.byes]
    assert len(set(first_three)) == 9 and set(first_three) <= set(range(3, 13))
    last = set(range(3, 13)) - set(first_three)
    assert last <= set(plans[3].byes)


@pytest.mark.parametrize("members", [8, 9, 12])
def test_byes_rotate_fairly(members: int) -> None:
    """Those who sit out had no more byes than anyone seated; so no second bye before everyone had one."""
    plans = _season(members, 5, 5, 6)

    given: Counter[int] = Counter()
    for plan in plans:
        seated = [m for t in plan.tables for m in t]
        assert max(given[m] for m in plan.byes) <= min(given[m] for m in seated)
        given.update(plan.byes)
    assert max(given[m] for m in range(members)) - min(given[m] for m in range(members)) <= 1


def test_plan_is_deterministic_from_the_seed() -> None:
    assert _season(10, 4, 2, 4, seed="a") == _season(10, 4, 2, 4, seed="a")
    assert _season(10, 4, 2, 4, seed="a") != _season(10, 4, 2, 4, seed="b")


def test_replanning_round_by_round_keeps_the_history_in_mind() -> None:
    """Each round planned from what was played (as the service does when members change) still spreads."""
    members, played = list(range(9)), []
    history: Counter[pairing.Pair] = Counter()
    byes: dict[int, int] = {}
    for number in range(4):
        plan = pairing.plan_rounds(
            members=members,
            size=3,
            min_size=2,
            history=history,
            bye_counts=byes,
            rounds=4 - number,
            seed=f"s{number}",
        )[0]
        played.append(plan.tables)
        history += pairing.meetings([plan.tables])

    assert pairing.repeated_meetings(played) <= pairing.repeat_lower_bound(members=9, rounds=played) + 1


def test_table_sizes_split_evenly_or_leave_byes() -> None:
    assert pairing.table_sizes(members=10, size=4, min_size=2) == ([4, 3, 3], 0)
    assert pairing.table_sizes(members=8, size=5, min_size=2) == ([4, 4], 0)
    assert pairing.table_sizes(members=12, size=5, min_size=5) == ([5, 5], 2)
    assert pairing.table_sizes(members=4, size=5, min_size=5) == ([], 4)


def test_lower_bound_counts_the_pigeonhole_between_two_rounds() -> None:
    """12 members at 3 tables of 4: a second round must re-seat >= 3 pairs together (4 from 3 tables)."""
    rounds = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[0, 4, 8, 1], [5, 9, 2, 6], [10, 3, 7, 11]]]

    assert pairing.repeat_lower_bound(members=12, rounds=rounds) == 3
    assert pairing.repeated_meetings(rounds) == 3


def test_lower_bound_does_not_depend_on_who_sits_where() -> None:
    """The bound holds for every season with these table sizes: who gets the small table does not matter."""
    same_pair_at_the_small_table = [[[0, 1, 2], [3, 4, 5], [6, 7]]] * 5
    small_table_rotates = [[[0, 1, 2], [3, 4, 5], [6, 7]], [[0, 3, 6], [1, 4, 7], [2, 5]]] * 2 + [
        [[0, 4, 7], [2, 3, 6], [1, 5]]
    ]
    assert pairing.repeat_lower_bound(members=8, rounds=same_pair_at_the_small_table) == 7
    assert pairing.repeat_lower_bound(members=8, rounds=small_table_rotates) == 7


def _resolutions(points: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every split of ``points`` into tables of 3."""
    if not points:
        yield ()
        return
    first, rest = points[0], points[1:]
    for b, c in combinations(rest, 2):
        others = tuple(x for x in rest if x not in (b, c))
        for tail in _resolutions(others):
            yield ((first, b, c), *tail)


@pytest.mark.parametrize(("budget", "exists"), [(2, False), (3, True)])
def test_twelve_members_at_tables_of_3_cannot_play_5_rounds_with_fewer_than_3_repeats(
    budget: int, exists: bool
) -> None:
    """The exhaustive search behind the bound for 12 at tables of 3: no 5 rounds with Q <= 2, some with 3.

    ``Q`` is the sum over pairs of rounds of the pairs seated together in both. Up to relabelling the
    first round is fixed and the second is one per shape of its 4x4 intersection with the first.
    """
    bit = {p: 1 << i for i, p in enumerate(combinations(range(12), 2))}
    rounds = list(_resolutions(tuple(range(12))))
    masks = [sum(bit[p] for t in r for p in combinations(t, 2)) for r in rounds]

    def shared(i: int, j: int) -> int:
        return (masks[i] & masks[j]).bit_count()

    near = [i for i in range(1, len(rounds)) if shared(i, 0) <= budget]
    shapes: dict[tuple[tuple[int, ...], ...], int] = {}
    for i in near:
        matrix = [[len(set(t) & set(u)) for u in rounds[i]] for t in rounds[0]]
        shape = min(
            tuple(sorted(zip(*(matrix[r] for r in order), strict=True))) for order in permutations(range(4))
        )
        shapes.setdefault(shape, i)

    def extend(chosen: list[int], q: int, options: list[int]) -> bool:
        if len(chosen) == 5:
            return True
        for k, i in enumerate(options):
            cost = q + sum(shared(i, j) for j in chosen)
            if cost <= budget:
                later = [j for j in options[k + 1 :] if cost + shared(i, j) <= budget]
                if extend([*chosen, i], cost, later):
                    return True
        return False

    found = False
    for second in shapes.values():
        q = shared(second, 0)
        options = [j for j in near if j != second and q + shared(j, 0) + shared(j, second) <= budget]
        found = found or extend([0, second], q, options)
    assert found is exists
    assert len(rounds) == 15400
