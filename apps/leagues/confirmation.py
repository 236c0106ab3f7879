"""Results organisers confirm: a league's confirmation period (``League.confirmation_hours``).

With a period of ``h`` hours, a league game's result enters the standings when the game ends, but only
**provisionally** (``Fixture.confirm_by`` = end + h); it is **confirmed**

* when the period ends with no objection (``confirm_due``, on the beat schedule), or
* at once by an organiser (``result_confirm``).

Within the period an organiser may **reopen** it (``result_reopen``): the result leaves the standings
(the season is counted again without it) until the organiser **adjudicates** it
(``result_adjudicate``: the places they give become the game's result, counted and confirmed at once).
A reopened result is not confirmed by the end of the period. An organiser (or site admin) who holds a
seat in the game, directly or through a bot account, has no power over its result (``own_game``),
like every organiser tool. Each action is written to the league's audit log. A period of 0 confirms
every result as it is counted.

Recounting a season (``season_recount``) replays its counted results in the order they were counted,
so standings and the rating history are what they would have been without the withdrawn result.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from apps.games import lifecycle, people
from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.games.store import lock_game

from . import auditlog, permissions, ratings, results
from .models import Fixture, League, RatingHistory, Season, Standing

#: The states of a league game's result, as the pages and exports show them.
PENDING, VOID, PROVISIONAL, REOPENED, CONFIRMED = "pending", "void", "provisional", "reopened", "confirmed"


def result_state(fixture: Fixture) -> str:
    """``pending`` (in play), ``void`` (aborted), ``provisional``, ``reopened`` or ``confirmed``."""
    if fixture.counted_at is None:
        return PENDING
    if fixture.game.status != Game.Status.FINISHED or not fixture.game.result:
        return VOID
    if fixture.reopened_at is not None:
        return REOPENED
    return CONFIRMED if fixture.confirmed_at is not None else PROVISIONAL


def provisional_players(season: Season) -> Counter[int]:
    """User id -> how many of their results in the season's standings are provisional."""
    counts: Counter[int] = Counter()
    fixtures = Fixture.objects.filter(
        round__season=season, counted_at__isnull=False, confirmed_at__isnull=True, reopened_at__isnull=True
    ).prefetch_related("game__seats")
    for fixture in fixtures:
        counts.update(s.user_id for s in fixture.game.seats.all() if s.user_id is not None)
    return counts


def results_open(season: Season) -> list[Fixture]:
    """The season's results still open to change: provisional or reopened (not void, not confirmed)."""
    fixtures = Fixture.objects.filter(
        round__season=season, counted_at__isnull=False, confirmed_at__isnull=True
    ).select_related("game")
    return [f for f in fixtures if result_state(f) in {PROVISIONAL, REOPENED}]


def confirm_due(*, now: datetime | None = None) -> int:
    """Beat: confirm every provisional result whose period has ended. Returns how many."""
    now = now or timezone.now()
    due = Fixture.objects.filter(
        confirmed_at__isnull=True, reopened_at__isnull=True, confirm_by__lte=now, counted_at__isnull=False
    )
    confirmed = 0
    for fixture_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            fixture = (
                Fixture.objects.select_for_update()
                .filter(pk=fixture_id, confirmed_at__isnull=True, reopened_at__isnull=True)
                .select_related("round__season__league")
                .first()
            )
            if fixture is None:
                continue
            fixture.confirmed_at = now
            fixture.save(update_fields=["confirmed_at"])
            auditlog.audit(
                league=fixture.round.season.league,
                actor=None,
                action="result_confirmed",
                game=fixture.game,
                how="period_ended",
            )
            confirmed += 1
    return confirmed


def _locked_result(league: League, game_id: int, by: User) -> tuple[Game, Fixture]:
    """The league game (locked first, then its fixture) whose result ``by`` may act on."""
    permissions.require_organiser(league, by)
    if not Fixture.objects.filter(game_id=game_id, round__season__league=league).exists():
        raise ServiceError("not_found", "no such game in this league", status=404)
    game = lock_game(game_id).game
    people.refuse_own_game(game=game, user=by)
    fixture = Fixture.objects.select_for_update().select_related("round__season").get(game=game)
    if fixture.counted_at is None or game.status != Game.Status.FINISHED or not game.result:
        raise ServiceError("no_result", "this game has no result to confirm", status=409)
    return game, fixture


def result_confirm(*, league: League, game_id: int, by: User, reason: str = "") -> Fixture:
    """An organiser confirms a provisional result at once."""
    with transaction.atomic():
        game, fixture = _locked_result(league, game_id, by)
        if fixture.confirmed_at is not None:
            raise ServiceError("already_confirmed", "this result is already confirmed", status=409)
        if fixture.reopened_at is not None:
            raise ServiceError("reopened", "this result is reopened: adjudicate it", status=409)
        fixture.confirmed_at, fixture.confirmed_by = timezone.now(), by
        fixture.save(update_fields=["confirmed_at", "confirmed_by"])
        auditlog.audit(
            league=league, actor=by, action="result_confirmed", game=game, reason=reason, how="organiser"
        )
    return fixture


def result_reopen(*, league: League, game_id: int, by: User, reason: str) -> Fixture:
    """Within the period, an organiser withdraws a provisional result to adjudicate it."""
    if not reason.strip():
        raise ServiceError("reason_required", "say why the result is reopened")
    with transaction.atomic():
        game, fixture = _locked_result(league, game_id, by)
        now = timezone.now()
        if fixture.confirm_by is None or now >= fixture.confirm_by:
            raise ServiceError(
                "period_over", "the confirmation period of this result is over: it stands", status=409
            )
        if fixture.confirmed_at is not None:  # an organiser confirmed it early: the period is not over
            raise ServiceError("already_confirmed", "this result is already confirmed", status=409)
        if fixture.reopened_at is not None:
            raise ServiceError("reopened", "this result is already reopened", status=409)
        fixture.reopened_at = now
        fixture.save(update_fields=["reopened_at"])
        season_recount(fixture.round.season)
        auditlog.audit(league=league, actor=by, action="result_reopened", game=game, reason=reason)
    return fixture


def result_adjudicate(
    *, league: League, game_id: int, places: dict[int, int], by: User, reason: str
) -> Fixture:
    """An organiser gives a reopened result: ``places`` maps every seat to its place (1 = best).

    The game keeps its totals; its result becomes the given places (marked adjudicated), counted in the
    standings and confirmed at once.
    """
    if not reason.strip():
        raise ServiceError("reason_required", "say why the game is adjudicated")
    with transaction.atomic():
        game, fixture = _locked_result(league, game_id, by)
        if fixture.reopened_at is None:
            raise ServiceError("not_reopened", "reopen the result before adjudicating it", status=409)
        assert game.result is not None  # _locked_result checked
        totals = [int(t or 0) for t in game.result.get("totals") or [0] * game.players]
        game.result = {
            **lifecycle.adjudicated_result(players=game.players, places=places, totals=totals),
            "played": {k: v for k, v in game.result.items() if k != "played"},
        }
        game.status_reason = reason
        game.save(update_fields=["result", "status_reason"])
        now = timezone.now()
        fixture.reopened_at, fixture.confirmed_at, fixture.confirmed_by = None, now, by
        fixture.save(update_fields=["reopened_at", "confirmed_at", "confirmed_by"])
        season_recount(fixture.round.season)
        auditlog.audit(
            league=league,
            actor=by,
            action="result_adjudicated",
            game=game,
            reason=reason,
            places={str(k): v for k, v in places.items()},
        )
    return fixture


def season_recount(season: Season) -> None:
    """Count the season's standings and ratings again from its counted results, in counted order,
    leaving out reopened ones (inside the caller's transaction)."""
    RatingHistory.objects.filter(season=season).delete()
    Standing.objects.filter(season=season).update(
        games_played=0,
        wins=0,
        points=0,
        score_total=0,
        mu=ratings.DEFAULT_MU,
        sigma=ratings.DEFAULT_SIGMA,
    )
    counted = (
        Fixture.objects.filter(round__season=season, counted_at__isnull=False, reopened_at__isnull=True)
        .select_related("game")
        .order_by("counted_at", "pk")
    )
    for fixture in counted:
        game: Any = fixture.game
        if game.status == Game.Status.FINISHED and game.result:
            results.count_result(season=season, game=game)
