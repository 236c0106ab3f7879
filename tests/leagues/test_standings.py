"""Standings and rating maths on known results."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from apps.leagues import ratings, standings


def test_places_come_from_the_engine_standings_with_shared_positions() -> None:
    result = {
        "standings": [
            {"seat": 2, "total": 10, "position": 1},
            {"seat": 0, "total": 30, "position": 2},
            {"seat": 1, "total": 30, "position": 2},
        ]
    }

    assert standings.placements(result=result, engine="baobei", players=3) == {
        2: (1, 10),
        0: (2, 30),
        1: (2, 30),
    }


def test_places_from_totals_are_low_best_in_bao_bei_and_high_best_in_bao_huang() -> None:
    result = {"totals": [12, 5, 12, 40]}

    assert standings.placements(result=result, engine="toy", players=4) == {
        0: (2, 12),
        1: (1, 5),
        2: (2, 12),
        3: (4, 40),
    }
    assert standings.placements(result=result, engine="baohuang", players=4)[3] == (1, 40)


@pytest.mark.parametrize(
    ("place", "size", "table", "expected"),
    [(1, 5, [], 4), (5, 5, [], 0), (1, 3, [], 2), (2, 3, [3, 2, 1], 2), (4, 5, [3, 2, 1], 0)],
)
def test_league_points_by_place(place: int, size: int, table: list[int], expected: int) -> None:
    assert standings.league_points(place=place, table_size=size, points_table=table) == expected


def test_rating_update_matches_plackett_luce_and_rewards_the_winner() -> None:
    start = (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)

    after = ratings.rate(ratings=[start, start, start], places=[2, 1, 3])

    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[2, 1, 3])
    assert after == [(t[0].mu, t[0].sigma) for t in expected]
    assert after[1][0] > after[0][0] > after[2][0]
    assert all(sigma < start[1] for _, sigma in after)


def test_tied_players_get_equal_ratings() -> None:
    start = (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)

    after = ratings.rate(ratings=[start, start, start], places=[1, 2, 2])

    assert after[1] == pytest.approx(after[2])


def test_tie_breaks_points_then_wins_then_average_score() -> None:
    def key(points: int, wins: int, score: int, games: int, name: str, engine: str = "baobei") -> tuple:
        return standings.sort_key(
            points=points, wins=wins, score_total=score, games=games, rating=0.0, name=name, engine=engine
        )

    assert key(5, 0, 90, 3, "b") < key(4, 3, 10, 3, "a")
    assert key(5, 2, 90, 3, "b") < key(5, 1, 10, 3, "a")
    assert key(5, 1, 30, 3, "b") < key(5, 1, 60, 3, "a")  # Bao Bei: lower score is better
    assert key(5, 1, 60, 3, "b", "baohuang") < key(5, 1, 30, 3, "a", "baohuang")
