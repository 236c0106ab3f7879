"""Multiplayer ratings with openskill's Plackett-Luce model (pure functions)."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma


def rate(*, ratings: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New ``(mu, sigma)`` for each player of one game, from their finishing places (1 = best).

    Equal places are a tie. Every player is a team of one.
    """
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown and used for tie-breaks: ``mu - 3 sigma``."""
    return mu - 3 * sigma
