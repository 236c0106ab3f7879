"""Pairing: one table per member per round, few repeated meetings, fair byes (pure, no database)."""

from __future__ import annotations

from collections import Counter

import pytest

from apps.leagues import pairing

MEMBERS = (8, 9, 10, 12, 15)


def _season(
    members: int, size: int, min_size: int, rounds: int, seed: str = "test"
) -> list[pairing.RoundPlan]:
    return pairing.plan_rounds(members=range(members), size=size, min_size=min_size, rounds=rounds, seed=seed)


@pytest.mark.parametrize("rounds", [4, 6])
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


@pytest.mark.parametrize("rounds", [4, 6])
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
    members, history, byes, played = list(range(9)), Counter(), Counter(), []
    for number in range(4):
        plan = pairing.plan_round(
            members=members,
            size=3,
            min_size=2,
            history=history,
            bye_counts=byes,
            rounds_left=4 - number,
            seed=f"s{number}",
        )
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
