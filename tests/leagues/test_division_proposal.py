"""The next season's divisions, as a pure function: top N up, bottom N down, ties as
the standings break them, newcomers to the lowest division, withdrawn members leave."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.leagues.divisions import Proposed, propose, seed_first_season


def test_top_n_move_up_bottom_n_move_down_the_rest_stay() -> None:
    ranked = {1: [1, 2, 3, 4, 5, 6], 2: [7, 8, 9, 10, 11, 12], 3: [13, 14, 15, 16, 17, 18]}
    out = propose(ranked=ranked, divisions=3, promotion=2)
    where = {m: p.division for m, p in out.items()}
    assert [where[m] for m in ranked[1]] == [1, 1, 1, 1, 2, 2]  # the top division sends nobody up
    assert [where[m] for m in ranked[2]] == [1, 1, 2, 2, 3, 3]
    assert [where[m] for m in ranked[3]] == [2, 2, 3, 3, 3, 3]  # the lowest sends nobody down
    assert (
        out[7] == Proposed(1, 2, "up")
        and out[5] == Proposed(2, 1, "down")
        and out[15] == Proposed(3, 3, "stayed")
    )
    assert sorted(where.values()).count(1) == 6 and sorted(where.values()).count(3) == 6


def test_ties_are_broken_as_the_standings_order_them() -> None:
    """``ranked`` is the standings' order: equal points are already ordered by the tie-breaks, so the
    first of two tied players goes up and the second stays."""
    out = propose(ranked={1: [1, 2, 3], 2: [4, 5, 6]}, divisions=2, promotion=1)
    assert out[4].division == 1 and out[5].division == 2 and out[3].division == 2


def test_newcomers_join_the_lowest_division_and_withdrawn_members_leave() -> None:
    ranked = {1: [1, 2, 3, 4], 2: [5, 6, 7, 8]}
    out = propose(ranked=ranked, divisions=2, promotion=1, newcomers=[9, 10], leaving={5, 4})
    assert 5 not in out and 4 not in out
    assert out[9] == Proposed(2, None, "new") and out[10].division == 2
    # 5 left, so 6 is the best staying member of division 2 and goes up; 3 is now last in division 1.
    assert out[6].movement == "up" and out[3].movement == "down"


def test_a_league_split_in_two_splits_the_last_order_evenly_not_its_bottom_n() -> None:
    """One division of eight becomes two of four (the bottom one alone would be a division of one)."""
    out = propose(ranked={1: [1, 2, 3, 4, 5, 6, 7, 8]}, divisions=2, promotion=1, newcomers=[9])
    assert {m: p.division for m, p in out.items()} == {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 9: 2}
    assert out[1] == Proposed(1, 1, "stayed") and out[6] == Proposed(2, 1, "down")
    assert out[9] == Proposed(2, None, "new")


def test_a_league_with_fewer_divisions_splits_the_last_order_evenly() -> None:
    out = propose(
        ranked={1: [1, 2], 2: [3, 4], 3: [5, 6]}, divisions=2, promotion=1, leaving={2}, newcomers=[7]
    )
    assert {m: p.division for m, p in out.items()} == {1: 1, 3: 1, 4: 1, 5: 2, 6: 2, 7: 2}
    assert out[1] == Proposed(1, 1, "stayed") and out[4] == Proposed(1, 2, "up")
    assert out[5] == Proposed(2, 3, "up") and out[7] == Proposed(2, None, "new")


def test_the_previous_seasons_count_of_divisions_decides_not_the_highest_with_standings() -> None:
    """Three divisions of which the lowest played no game: the count is unchanged, so promotion."""
    out = propose(ranked={1: [1, 2, 3], 2: [4, 5, 6]}, divisions=3, promotion=1, previous_divisions=3)
    assert out[3] == Proposed(2, 1, "down") and out[6] == Proposed(3, 2, "down")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=5),
    st.integers(1, 5),
    st.integers(0, 4),
    st.integers(0, 4),
)
def test_a_changed_count_of_divisions_keeps_the_order_and_evens_the_sizes(
    sizes: list[int], divisions: int, promotion: int, newcomers: int
) -> None:
    ranked, next_id = {}, 1
    for d, size in enumerate(sizes, start=1):
        ranked[d] = list(range(next_id, next_id + size))
        next_id += size
    new = list(range(next_id, next_id + newcomers))

    out = propose(
        ranked=ranked, divisions=divisions, promotion=promotion, newcomers=new, previous_divisions=len(sizes)
    )

    order = [m for d in sorted(ranked) for m in ranked[d]] + new
    assert set(out) == set(order)
    placed = [out[m].division for m in order]
    if len(sizes) != divisions:
        assert placed == sorted(placed)  # the previous order kept, newcomers last
        counts = [placed.count(d) for d in range(1, divisions + 1)]
        assert max(counts) - min(counts) <= 1
        for m in order:
            old = next((d for d, ms in ranked.items() if m in ms), None)
            expected = (
                "new"
                if old is None
                else {-1: "up", 0: "stayed", 1: "down"}[(out[m].division > old) - (out[m].division < old)]
            )
            assert out[m].previous == old and out[m].movement == expected


def test_the_first_season_splits_members_in_join_order() -> None:
    out = seed_first_season(members=list(range(1, 11)), divisions=3)
    assert [out[m].division for m in range(1, 11)] == [1, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert {p.movement for p in out.values()} == {"seeded"}


@st.composite
def leagues(draw: st.DrawFn) -> tuple[dict[int, list[int]], int, int, list[int], set[int]]:
    divisions = draw(st.integers(1, 5))
    promotion = draw(st.integers(0, 4))
    ranked: dict[int, list[int]] = {}
    next_id = 1
    for d in range(1, divisions + 1):
        size = draw(st.integers(0, 9))
        ranked[d] = list(range(next_id, next_id + size))
        next_id += size
    newcomers = list(range(next_id, next_id + draw(st.integers(0, 4))))
    everybody = [m for ms in ranked.values() for m in ms]
    leaving = set(draw(st.lists(st.sampled_from(everybody), max_size=4))) if everybody else set()
    return ranked, divisions, promotion, newcomers, leaving


@settings(max_examples=300, deadline=None)
@given(leagues())
def test_proposal_properties(case: tuple[dict[int, list[int]], int, int, list[int], set[int]]) -> None:
    ranked, divisions, promotion, newcomers, leaving = case
    out = propose(
        ranked=ranked, divisions=divisions, promotion=promotion, newcomers=newcomers, leaving=leaving
    )
    staying = {m for ms in ranked.values() for m in ms} - leaving
    assert set(out) == staying | set(newcomers)  # everybody placed once, leavers gone
    for old, members in ranked.items():
        kept = [m for m in members if m not in leaving]
        for m in kept:
            p = out[m]
            assert 1 <= p.division <= divisions and abs(p.division - old) <= 1
            assert p.movement == {-1: "up", 0: "stayed", 1: "down"}[p.division - old]
        ups = [m for m in kept if out[m].movement == "up"]
        downs = [m for m in kept if out[m].movement == "down"]
        assert ups == kept[: len(ups)] and downs == kept[len(kept) - len(downs) :]  # from the ends
        assert len(ups) == (min(promotion, len(kept)) if old > 1 else 0)
        assert len(downs) == (min(promotion, len(kept) - len(ups)) if old < divisions else 0)
    assert all(out[m] == Proposed(divisions, None, "new") for m in newcomers)
