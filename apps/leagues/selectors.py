"""Reads: which leagues a user may see, standings, rating history, rounds and the audit log."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q, QuerySet
from django.http import Http404

from apps.accounts.models import display_name
from apps.games import sql
from apps.games.models import Game
from apps.games.players import player_linked

from . import ratings, standings
from .models import (
    AuditLog,
    Fixture,
    League,
    Membership,
    RatingHistory,
    Round,
    Season,
    Standing,
    SubstituteOffer,
)
from .permissions import league_may_manage


def league_list_visible(*, user: User | AnonymousUser | None) -> QuerySet[League]:
    """Leagues ``user`` may see: public ones, and private ones they organise or belong to (site admins,
    who may act as league admins, see every league)."""
    if user is not None and user.is_authenticated and (user.is_staff or user.is_superuser):
        return League.objects.order_by("name")
    visible = Q(is_public=True)
    if user is not None and user.is_authenticated:
        visible |= Q(organisers=user) | Q(
            memberships__user=user,
            memberships__status__in=[Membership.Status.ACTIVE, Membership.Status.WITHDRAWN],
        )
    return League.objects.filter(visible).distinct().order_by("name")


@dataclass(frozen=True)
class LeagueRow:
    """One line of the leagues page: the league, its active members, its latest season (number and
    state, None before the first) and the reader's part in it ("organiser", "member", "pending" or "")."""

    league: League
    members: int
    season: Season | None
    mine: str


def league_rows(*, user: User | AnonymousUser | None) -> list[LeagueRow]:
    """The leagues ``user`` may see (``league_list_visible``), each with what the leagues page shows."""
    active = Q(memberships__status=Membership.Status.ACTIVE)
    leagues = list(
        league_list_visible(user=user).annotate(members=Count("memberships", filter=active, distinct=True))
    )
    latest: dict[int, Season] = {}
    for season in Season.objects.filter(league__in=leagues).order_by("league_id", "-number"):
        latest.setdefault(season.league_id, season)
    mine: dict[int, str] = {}
    if user is not None and user.is_authenticated:
        for league_id, status in Membership.objects.filter(user=user, league__in=leagues).values_list(
            "league_id", "status"
        ):
            if status in (Membership.Status.ACTIVE, Membership.Status.PENDING):
                mine[league_id] = "member" if status == Membership.Status.ACTIVE else "pending"
        for league_id in League.organisers.through.objects.filter(user=user, league__in=leagues).values_list(
            "league_id", flat=True
        ):
            mine[league_id] = "organiser"
    return [
        LeagueRow(league, league.members, latest.get(league.pk), mine.get(league.pk, ""))
        for league in leagues
    ]


def league_of_game(game: Game) -> tuple[int, bool] | None:
    """The game's league as ``(league_id, is_public)``, or None outside any league (``apps.games`` asks).

    On the hand path by SQL built once: every answer about a single game (its page, the API's create,
    join and detail) asks it, and the ORM took longer to build the query than the database to run it."""
    if not sql.hand_sql():
        found: tuple[int, bool] | None = _league_of(game.pk).first()
        return found
    select = _league_of_select(sql.vendor())
    rows = sql.fetch(select.sql, select.statement(game_id=game.pk).params)
    return (int(rows[0][0]), bool(rows[0][1])) if rows else None


def _league_of(game_id: int) -> QuerySet[League, tuple[int, bool]]:
    """The league of the game ``game_id`` as ``(id, is_public)`` rows (one at most: a game has one
    fixture), in the leagues' own order."""
    return League.objects.filter(seasons__round_set__fixtures__game_id=game_id).values_list("pk", "is_public")


#: A stand-in for the game's id in ``_league_of_select``, replaced when it runs.
_GAME_OF_LEAGUE = -740_101


@cache
def _league_of_select(vendor: str) -> sql.Select:
    return sql.compile_select(_league_of(_GAME_OF_LEAGUE)[:1], game_id=_GAME_OF_LEAGUE)


def league_may_see(user: User, league_id: int) -> bool:
    """Whether ``user`` may see the league ``league_id`` (``apps.games`` asks for a private league's game)."""
    return league_list_visible(user=user).filter(pk=league_id).exists()


def league_get_visible(*, user: User | AnonymousUser | None, slug: str) -> League:
    """The league with ``slug`` if ``user`` may see it; ``Http404`` otherwise (a private league hides)."""
    league = league_list_visible(user=user).filter(slug=slug).first()
    if league is None:
        raise Http404("no such league")
    return league


def league_role(*, league: League, user: User | AnonymousUser | None) -> dict[str, Any]:
    """What ``user`` is in the league: organiser, and their membership status (or None)."""
    if user is None or not user.is_authenticated:
        return {"organiser": False, "membership": None}
    membership = Membership.objects.filter(league=league, user=user).first()
    return {
        "organiser": league.organisers.filter(pk=user.pk).exists(),
        "membership": membership.status if membership else None,
    }


def season_current(*, league: League) -> Season | None:
    """The newest season."""
    return league.seasons.order_by("-number").first()


@dataclass(frozen=True)
class StandingRow:
    """One line of a season's table."""

    rank: int
    user_id: int
    username: str
    name: str
    games_played: int
    wins: int
    points: int
    score_total: int
    mu: float
    sigma: float
    rating: float
    division: int = 1
    #: The player has a public page to link to (``apps.games.players``): not a closed account.
    has_page: bool = False


def season_standings(*, season: Season) -> list[StandingRow]:
    """The season's table, division by division (1 first), each best first (tie-breaks of
    ``standings``); ranks count within a division, and equal lines share a rank."""
    engine = season.league.game
    rows = list(Standing.objects.filter(season=season).select_related("user__profile"))

    def key(s: Standing) -> tuple[Any, ...]:
        return standings.sort_key(
            points=s.points,
            wins=s.wins,
            score_total=s.score_total,
            games=s.games_played,
            rating=ratings.ordinal(s.mu, s.sigma),
            name=s.user.get_username(),
            engine=engine,
        )

    rows.sort(key=lambda s: (s.division, key(s)))
    out: list[StandingRow] = []
    first = 0
    for index, s in enumerate(rows):
        if index and s.division != rows[index - 1].division:
            first = index
        rank = index - first + 1
        if index > first and key(s)[:-1] == key(rows[index - 1])[:-1]:
            rank = out[-1].rank
        out.append(
            StandingRow(
                rank=rank,
                user_id=s.user_id,
                username=s.user.get_username(),
                name=display_name(s.user),
                games_played=s.games_played,
                wins=s.wins,
                points=s.points,
                score_total=s.score_total,
                mu=s.mu,
                sigma=s.sigma,
                rating=round(ratings.ordinal(s.mu, s.sigma), 2),
                division=s.division,
                has_page=player_linked(s.user),
            )
        )
    return out


@dataclass(frozen=True)
class DivisionView:
    """One division of a season as the league page shows it: standings, rating lines and rounds."""

    division: int
    table: list[StandingRow]
    history: dict[int, list[float]]
    rounds: list[RoundView]


@dataclass(frozen=True)
class RoundView:
    """One round of one division: its tables and how many of the division sat out."""

    number: int
    tables: list[Fixture]
    byes: list[int]


def season_divisions(*, season: Season) -> list[DivisionView]:
    """The season split by division: each division's standings, its players' rating lines and its
    tables round by round (a league of one division gives one view)."""
    table = season_standings(season=season)
    history = season_rating_history(season=season)
    rounds = season_rounds(season=season)
    numbers = sorted({row.division for row in table} | {f.division for r in rounds for f in r.fixtures.all()})
    out = []
    for d in numbers or [1]:
        rows = [row for row in table if row.division == d]
        ids = {row.user_id for row in rows}
        out.append(
            DivisionView(
                division=d,
                table=rows,
                history={u: line for u, line in history.items() if u in ids},
                rounds=[
                    RoundView(
                        number=r.number,
                        tables=[f for f in r.fixtures.all() if f.division == d],
                        byes=[u for u in r.byes if u in ids],
                    )
                    for r in rounds
                ],
            )
        )
    return out


def season_rating_history(*, season: Season) -> dict[int, list[float]]:
    """Each player's rating (mu - 3 sigma) after each counted game, starting from the initial rating."""
    start = ratings.ordinal(ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
    series: dict[int, list[float]] = {}
    for user_id, mu, sigma in RatingHistory.objects.filter(season=season).values_list(
        "user_id", "mu", "sigma"
    ):
        series.setdefault(user_id, [start]).append(ratings.ordinal(mu, sigma))
    return series


def season_rounds(*, season: Season) -> list[Round]:
    """The season's rounds with their fixtures, games and seats."""
    return list(season.round_set.prefetch_related("fixtures__game__seats__user").order_by("number"))


def league_fixtures_open(*, league: League) -> QuerySet[Fixture]:
    """League games still in play (for the organiser tools)."""
    return (
        Fixture.objects.filter(round__season__league=league, counted_at__isnull=True)
        .select_related("game", "round__season")
        .prefetch_related("game__seats__user__profile")
        .order_by("round__season__number", "round__number", "table")
    )


def league_audit_log(*, league: League, limit: int = 100) -> list[AuditLog]:
    """The newest organiser actions first."""
    return list(AuditLog.objects.filter(league=league).select_related("actor__profile", "game")[:limit])


def league_members(*, league: League) -> QuerySet[Membership]:
    """Every membership (pending, active, withdrawn) with its user."""
    return (
        Membership.objects.filter(league=league)
        .select_related("user__profile")
        .order_by("status", "user__username")
    )


def offers_pending_for(*, league: League, user: User | AnonymousUser | None) -> list[SubstituteOffer]:
    """The seat offers of the league waiting for ``user``'s answer."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        SubstituteOffer.objects.filter(league=league, newcomer=user, status=SubstituteOffer.Status.PENDING)
        .select_related("game", "league")
        .order_by("created_at")
    )


def offer_get(*, league: League, offer_id: int, user: User | AnonymousUser | None) -> SubstituteOffer:
    """One seat offer, for its newcomer or whoever manages the league; ``Http404`` for anyone else."""
    offer = (
        SubstituteOffer.objects.filter(league=league, pk=offer_id)
        .select_related("game", "league", "newcomer__profile", "previous__profile", "offered_by")
        .first()
    )
    if offer is None or not (
        (user is not None and user.is_authenticated and offer.newcomer_id == user.pk)
        or league_may_manage(league=league, user=user)
    ):
        raise Http404("no such seat offer")
    return offer


def games_played_by(*, games: list[Any], user: User | AnonymousUser | None) -> set[int]:
    """Ids of ``games`` in which ``user`` (or a bot account of theirs) holds a seat."""
    from apps.games.people import seat_held_by

    return {g.pk for g in games if seat_held_by(seats=g.seats.all(), user=user) is not None}


@dataclass(frozen=True)
class PlayerLeagueRow:
    """A public league a player is an active member of, with their line of its newest season they
    stand in (None: no season of theirs yet)."""

    league: League
    season: int | None
    games_played: int
    rating: float | None


def leagues_of_player(*, user: User) -> list[PlayerLeagueRow]:
    """The public leagues ``user`` is an active member of, by name, each with their rating (mu - 3 sigma)
    in the newest season they stand in: what anybody may see on a player's page. A private league is
    never among them, whoever asks."""
    leagues = [
        m.league
        for m in Membership.objects.filter(
            user=user, status=Membership.Status.ACTIVE, league__is_public=True
        ).select_related("league")
    ]
    newest: dict[int, Standing] = {}
    for standing in (
        Standing.objects.filter(user=user, season__league__in=leagues)
        .select_related("season")
        .order_by("season__league_id", "-season__number")
    ):
        newest.setdefault(standing.season.league_id, standing)
    rows = []
    for league in sorted(leagues, key=lambda lg: (lg.name.casefold(), lg.pk)):
        line = newest.get(league.pk)
        rows.append(
            PlayerLeagueRow(
                league=league,
                season=line.season.number if line else None,
                games_played=line.games_played if line else 0,
                rating=round(ratings.ordinal(line.mu, line.sigma), 2) if line else None,
            )
        )
    return rows
