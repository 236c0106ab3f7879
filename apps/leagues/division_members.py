"""Which division each member of a round plays in (``round_start`` asks; ``divisions`` proposes and
confirms the season's divisions)."""

from __future__ import annotations

from collections.abc import Sequence

from apps.games.errors import ServiceError

from .models import DivisionPlacement, Season

Movement = DivisionPlacement.Movement


def members_by_division(*, season: Season, members: Sequence[int]) -> dict[int, list[int]]:
    """The round's members by division (inside round start's transaction).

    A season without placements (a league of one division, or a season scheduled before the league
    had divisions): everybody in division 1. Otherwise the season's divisions must be confirmed
    (``divisions_unconfirmed``); a member without a place (joined since) gets the lowest.
    """
    league = season.league
    if not season.placements.exists():  # a season without divisions (or from before they were set)
        return {1: sorted(members)} if members else {}
    if season.divisions_confirmed_at is None:
        raise ServiceError(
            "divisions_unconfirmed", "confirm the season's divisions before its first round", status=409
        )
    placed = dict(season.placements.filter(user_id__in=members).values_list("user_id", "division"))
    for m in members:
        if m not in placed:
            DivisionPlacement.objects.create(
                season=season, user_id=m, division=league.divisions, movement=Movement.NEW
            )
            placed[m] = league.divisions
    out: dict[int, list[int]] = {}
    for m in sorted(members):
        out.setdefault(placed[m], []).append(m)
    return dict(sorted(out.items()))
