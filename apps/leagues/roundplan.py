"""The next round of a season, division by division, in the league's pairing format.

Each division is paired on its own (members of different divisions never share a table). The spread
and round-robin formats plan the season's remaining rounds together and store the plan on the season
(``Season.plan``, keyed by division): the next round comes from the stored plan while the division's
members stay the same, and is planned again (from what really happened) when they change. Swiss plans
one round at a time from the standings. Every format is deterministic from the season's seed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import pairing, separation
from .formats.round_robin import plan_round_robin
from .formats.swiss import plan_swiss_round
from .models import Fixture, Season, Standing


def season_history(season: Season) -> tuple[Counter[pairing.Pair], dict[int, int]]:
    """Meetings and byes so far in the season, as the pairing placed them."""
    tables = [f.players for f in Fixture.objects.filter(round__season=season)]
    byes: Counter[int] = Counter()
    for byes_of_round in season.round_set.values_list("byes", flat=True):
        byes.update(byes_of_round)
    return pairing.meetings([tables]), dict(byes)


def plan_divisions(
    *, season: Season, divisions: dict[int, list[int]], number: int, size: int, smallest: int
) -> list[tuple[int, pairing.RoundPlan]]:
    """``[(division, plan of round number)]`` for every division; updates ``season.plan`` (unsaved)."""
    history, bye_counts = season_history(season)
    # One person's accounts (a member and their bot account) weigh as if they had met very often, so no
    # format seats them together while it can avoid it; round_start refuses a round that still does.
    everyone = [m for members in divisions.values() for m in members]
    history = separation.weigh(history, separation.forbidden_pairs(everyone))
    stored: dict[str, Any] = dict((season.plan or {}).get("divisions", {}))
    out: list[tuple[int, pairing.RoundPlan]] = []
    for division, members in divisions.items():
        out.append(
            (
                division,
                _plan_division(
                    season=season,
                    division=division,
                    members=members,
                    number=number,
                    size=size,
                    smallest=smallest,
                    history=history,
                    bye_counts=bye_counts,
                    stored=stored,
                ),
            )
        )
    season.plan = {"divisions": stored}
    return out


def _plan_division(
    *,
    season: Season,
    division: int,
    members: list[int],
    number: int,
    size: int,
    smallest: int,
    history: Counter[pairing.Pair],
    bye_counts: dict[int, int],
    stored: dict[str, Any],
) -> pairing.RoundPlan:
    fmt = season.league.pairing_format
    seed = f"{season.seed}:{division}:{number}" if division > 1 else f"{season.seed}:{number}"
    if len(members) < smallest:
        return pairing.RoundPlan(tables=[], byes=list(members))
    if fmt == "swiss":
        rows = Standing.objects.filter(season=season, user_id__in=members)
        scores = {r.user_id: r.points for r in rows}
        from .selectors import season_standings

        order = [r.user_id for r in season_standings(season=season) if r.user_id in set(members)]
        order += [m for m in members if m not in set(order)]
        return plan_swiss_round(
            order=order,
            scores=scores,
            size=size,
            min_size=smallest,
            history=history,
            bye_counts=bye_counts,
            seed=seed,
        )
    key = str(division)
    plan = stored.get(key) or {}
    if plan.get("members") == members and plan.get("format") == fmt and str(number) in plan.get("rounds", {}):
        r = plan["rounds"][str(number)]
        return pairing.RoundPlan(tables=r["tables"], byes=r["byes"])
    remaining = max(1, season.rounds - number + 1)
    common: dict[str, Any] = {
        "members": members,
        "size": size,
        "min_size": smallest,
        "history": history,
        "bye_counts": bye_counts,
        "rounds": remaining,
        "seed": seed,
    }
    rounds = plan_round_robin(**common) if fmt == "round_robin" else pairing.plan_rounds(**common)
    stored[key] = {
        "format": fmt,
        "members": members,
        "rounds": {str(number + i): {"tables": r.tables, "byes": r.byes} for i, r in enumerate(rounds)},
    }
    return rounds[0]
