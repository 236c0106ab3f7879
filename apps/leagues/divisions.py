"""Divisions (1 = top), promotion and relegation between seasons.

**The proposal** (``propose``, a pure function): from the previous season's final standings of each
division (best first, ties broken as the standings break them), members who have withdrawn leave
first; then in each division the top ``N`` move up one division (not from division 1) and the bottom
``N`` move down one (not from the lowest); a division with fewer than ``2N`` players sends up its top
``N`` (or all of them) and down as many of the rest as there are, at most ``N``. Everybody else stays.
Newcomers (active members who did not play the previous season) join the lowest division.

**A league whose number of divisions changed** (an organiser split a one-division league in two, or
merged three into two) starts again from the previous season's order instead: division 1's members
best first, then division 2's, and so on, then the newcomers, split into divisions of sizes as even
as possible, as a first season is. Moving the bottom ``N`` of one division into a new second one would
make a division of ``N``; folding a former division 3 into division 2 would make it twice the size of
the others. Each member's movement still says where they were (up, down, stayed, new).

**The first season** of a league with divisions (``seed_first_season``) splits the members, in the
order they joined, into divisions of sizes as even as possible (division 1 the earliest).

**Flow**: ``season_propose`` schedules a season and writes the proposal; an organiser may move people
by hand (``placement_move``, audited) until they confirm it (``divisions_confirm``, audited); only then
can its first round start. A member who joins later is placed in the lowest division when the next
round starts. A league of one division needs none of this: everybody plays in division 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from apps.accounts.models import display_name
from apps.games.errors import ServiceError

from . import separation
from .auditlog import audit
from .models import DivisionPlacement, League, Membership, Season, Standing
from .permissions import require_organiser
from .seasons import season_create, table_limits
from .selectors import season_standings

Movement = DivisionPlacement.Movement


@dataclass(frozen=True)
class Proposed:
    """One member's division in the proposal."""

    division: int
    previous: int | None
    movement: str


def propose(
    *,
    ranked: Mapping[int, Sequence[int]],
    divisions: int,
    promotion: int,
    newcomers: Sequence[int] = (),
    leaving: frozenset[int] | set[int] = frozenset(),
    previous_divisions: int | None = None,
) -> dict[int, Proposed]:
    """The next season's divisions from the last one's (see the module docstring).

    ``ranked`` maps each previous division to its members best first; ``previous_divisions`` is how
    many divisions the previous season had (None: the highest that ``ranked`` names).
    """
    if divisions < 1:
        raise ValueError("a league has at least one division")
    if ranked and (previous_divisions or max(ranked)) != divisions:
        return _split_again(ranked=ranked, divisions=divisions, newcomers=newcomers, leaving=leaving)
    out: dict[int, Proposed] = {}
    for old, members in ranked.items():
        staying = [m for m in members if m not in leaving]
        here = min(old, divisions)
        up = staying[:promotion] if here > 1 else []
        rest = staying[len(up) :]
        down_count = min(promotion, len(rest)) if here < divisions else 0
        down = rest[len(rest) - down_count :] if down_count else []
        for m in staying:
            if m in up:
                out[m] = Proposed(here - 1, old, Movement.UP)
            elif m in down:
                out[m] = Proposed(here + 1, old, Movement.DOWN)
            else:
                out[m] = Proposed(here, old, Movement.STAYED)
    for m in newcomers:
        if m not in out and m not in leaving:
            out[m] = Proposed(divisions, None, Movement.NEW)
    return out


def _even_split(members: Sequence[int], divisions: int) -> dict[int, int]:
    """Member -> division: ``members`` in order, into ``divisions`` divisions as even as possible (the
    first divisions one larger when they do not divide evenly)."""
    out: dict[int, int] = {}
    count, start = len(members), 0
    for d in range(1, divisions + 1):
        size = count // divisions + (1 if d <= count % divisions else 0)
        out.update((m, d) for m in members[start : start + size])
        start += size
    return out


def _split_again(
    *,
    ranked: Mapping[int, Sequence[int]],
    divisions: int,
    newcomers: Sequence[int],
    leaving: frozenset[int] | set[int],
) -> dict[int, Proposed]:
    """The number of divisions changed: the previous order, then the newcomers, split evenly."""
    was = {m: old for old, members in ranked.items() for m in members if m not in leaving}
    order = [m for old in sorted(ranked) for m in ranked[old] if m in was]
    order += [m for m in dict.fromkeys(newcomers) if m not in was and m not in leaving]
    out: dict[int, Proposed] = {}
    for m, d in _even_split(order, divisions).items():
        old = was.get(m)
        if old is None:
            out[m] = Proposed(d, None, Movement.NEW)
        else:
            movement = Movement.UP if d < old else Movement.DOWN if d > old else Movement.STAYED
            out[m] = Proposed(d, old, movement)
    return out


def seed_first_season(*, members: Sequence[int], divisions: int) -> dict[int, Proposed]:
    """Split ``members`` (in the order they joined) into ``divisions`` divisions as even as possible."""
    return {m: Proposed(d, None, Movement.SEEDED) for m, d in _even_split(members, divisions).items()}


# --- the database side -----------------------------------------------------------------------------------


def _active_members(league: League) -> list[int]:
    """Active members in the order they joined."""
    return list(
        Membership.objects.filter(league=league, status=Membership.Status.ACTIVE)
        .order_by("joined_at", "pk")
        .values_list("user_id", flat=True)
    )


def previous_ranking(season: Season) -> dict[int, list[int]]:
    """Each division's members of ``season``, best first, as the standings order them."""

    ranked: dict[int, list[int]] = {}
    for row in season_standings(season=season):
        ranked.setdefault(row.division, []).append(row.user_id)
    return ranked


class SeasonSchedule(TypedDict, total=False):
    """``seasons.season_create``'s keyword arguments beside the league and the organiser."""

    starts_at: Any
    rounds: int
    round_interval_days: int
    length: str | None
    length_options: dict[str, Any] | None


def season_propose(*, league: League, by: User, **schedule: Unpack[SeasonSchedule]) -> Season:
    """Schedule a new season with the proposed divisions (from the previous season, or the first split);
    its length as ``seasons.season_create`` takes it.

    Refused while the previous season is still being played (``previous_season_running``) or some of
    its results may still change (``previous_results_open``): the proposal is built from its final
    standings (``seasons.season_create`` checks both).
    """

    with transaction.atomic():
        season = season_create(league=league, by=by, **schedule)  # refuses while the previous one runs
        previous = league.seasons.exclude(pk=season.pk).order_by("-number").first()
        active = _active_members(league)
        if previous is None:
            proposal = seed_first_season(members=active, divisions=league.divisions)
        else:
            played = set(previous.standings.values_list("user_id", flat=True))
            proposal = propose(
                ranked=previous_ranking(previous),
                divisions=league.divisions,
                promotion=league.promotion,
                newcomers=[m for m in active if m not in played],
                leaving=played - set(active),
                # a season without placements (the league had one division then) had one
                previous_divisions=previous.placements.aggregate(n=Max("division"))["n"] or 1,
            )
        DivisionPlacement.objects.bulk_create(
            DivisionPlacement(
                season=season,
                user_id=m,
                division=p.division,
                previous_division=p.previous,
                movement=p.movement,
            )
            for m, p in proposal.items()
        )
    return season


def placement_move(
    *, season: Season, user_id: int, division: int, by: User, reason: str = ""
) -> DivisionPlacement:
    """An organiser moves a member to another division before confirming the proposal (audited)."""

    league = season.league
    require_organiser(league, by)
    if not 1 <= division <= league.divisions:
        raise ServiceError("invalid_division", f"divisions are 1 to {league.divisions}")
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        if season.divisions_confirmed_at is not None:
            raise ServiceError("divisions_confirmed", "this season's divisions are confirmed", status=409)
        placement = (
            DivisionPlacement.objects.select_for_update(of=("self",))
            .select_related("user__profile")
            .order_by()
            .filter(season=season, user_id=user_id)
            .first()
        )
        if placement is None:
            raise ServiceError("not_placed", "that member has no place in this season", status=404)
        if placement.division == division:
            return placement
        before = placement.division
        placement.division, placement.moved_by_hand = division, True
        placement.save(update_fields=["division", "moved_by_hand"])
        audit(
            league=league,
            actor=by,
            action="division_moved",
            reason=reason,
            season=season.number,
            user=placement.user.get_username(),
            name=display_name(placement.user),
            before=before,
            after=division,
        )
    return placement


def division_problems(*, season: Season) -> list[separation.DivisionProblem]:
    """The season's proposed divisions where no round could ever start, with the reasons."""

    size, smallest = table_limits(season.league)
    placed: dict[int, list[int]] = {}
    for user_id, division in season.placements.values_list("user_id", "division"):
        placed.setdefault(division, []).append(user_id)
    return separation.division_problems(placed, size=size, smallest=smallest)


def divisions_confirm(*, season: Season, by: User) -> Season:
    """An organiser confirms the season's divisions (audited); its first round may start from then on.

    Refused while a division could never start a round (``division_problems``: its code, 409)."""

    league = season.league
    require_organiser(league, by)
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        if season.divisions_confirmed_at is not None:
            return season
        problems = division_problems(season=season)
        if problems:
            raise ServiceError(problems[0].code, problems[0].detail, status=409)
        season.divisions_confirmed_at = timezone.now()
        season.save(update_fields=["divisions_confirmed_at"])
        sizes: dict[int, int] = {}
        for placement in season.placements.all():
            sizes[placement.division] = sizes.get(placement.division, 0) + 1
            Standing.objects.update_or_create(
                season=season, user_id=placement.user_id, defaults={"division": placement.division}
            )
        audit(
            league=league,
            actor=by,
            action="divisions_confirmed",
            season=season.number,
            sizes={str(d): n for d, n in sorted(sizes.items())},
        )
    return season


def season_proposal(*, season: Season) -> list[dict[str, Any]]:
    """The season's divisions for the proposal screen: each division's placements, by name."""
    rows: dict[int, list[DivisionPlacement]] = {}
    for p in season.placements.select_related("user__profile").order_by("division", "user__username"):
        rows.setdefault(p.division, []).append(p)
    return [
        {"division": d, "placements": rows.get(d, [])}
        for d in range(1, max([season.league.divisions, *rows]) + 1)
    ]
