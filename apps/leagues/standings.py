"""League points and finishing places from a finished game's result (pure functions).

**Finishing places** come from ``Game.result["standings"]`` (``{"seat", "total", "position"}``, the
engines' BB-15.5 / BH-17.5 ranking, equal positions shared). A result without standings (an engine
that only reports ``totals``) is ranked by totals in the order of the engine's
``GameType.high_score_wins``: lower is better in Bao Bei (and the test-only toy engine), higher in Bao Huang.

**League points**: with a league's ``points_table`` ``[p1, p2, …]`` the player in place k gets
``p_k`` (0 beyond the table). With an empty table (the default) the player gets ``table size - place``:
one point for every player finishing below them, so a win at a table of 5 is worth 4 and at a table of
3 is worth 2. Players sharing a place all get that place's points.

**Tie-breaks** of the season table, in order: more league points; more wins (first places); better
average game score per game (lower in Bao Bei, higher in Bao Huang: ``high_score_wins`` again);
higher rating (mu - 3 sigma); fewer games played; then username.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from baogame.rules import registry


def high_score_wins(engine: str) -> bool:
    """Whether ``engine`` ranks higher totals first (its ``GameType``); an engine no longer registered
    (results of a retired game) ranks ascending totals."""
    return engine in registry.ENGINES and registry.get_game_type(engine).high_score_wins


def placements(*, result: dict[str, Any], engine: str, players: int) -> dict[int, tuple[int, int]]:
    """``{seat: (place, total)}`` for a finished game's result."""
    standings = result.get("standings")
    if standings:
        return {int(s["seat"]): (int(s["position"]), int(s.get("total") or 0)) for s in standings}
    totals = list(result.get("totals") or [0] * players)
    high = high_score_wins(engine)
    out: dict[int, tuple[int, int]] = {}
    for seat, total in enumerate(totals):
        better = sum(1 for other in totals if (other > total if high else other < total))
        out[seat] = (1 + better, int(total))
    return out


def league_points(*, place: int, table_size: int, points_table: Sequence[int]) -> int:
    """League points for finishing ``place`` (1 = first) at a table of ``table_size``."""
    if points_table:
        return int(points_table[place - 1]) if place <= len(points_table) else 0
    return max(0, table_size - place)


def sort_key(
    *, points: int, wins: int, score_total: int, games: int, rating: float, name: str, engine: str
) -> tuple[int, int, float, float, int, str]:
    """The season table's order (see the module docstring): sort ascending by this key."""
    average = score_total / games if games else 0.0
    score_order = -average if high_score_wins(engine) else average
    if not games:
        score_order = float("inf")
    return (-points, -wins, score_order, -rating, games, name)
