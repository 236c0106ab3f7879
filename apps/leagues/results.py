"""A league game's result entering its season: the fixture counted once, the standings and ratings
updated, and the season finished when its last round's games are all counted."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from apps.games.models import Game

from . import ratings, standings
from .models import Fixture, RatingHistory, Season, Standing


def fixture_record_result(*, game_id: int) -> bool:
    """Count a league game's result once it ended; aborted games don't count. Idempotent.

    Returns True when standings changed.
    """
    with transaction.atomic():
        fixture = (
            Fixture.objects.select_for_update()
            .select_related("round__season__league", "game")
            .filter(game_id=game_id)
            .first()
        )
        if fixture is None or fixture.counted_at is not None:
            return False
        game = fixture.game
        if not game.is_over:
            return False
        fixture.counted_at = timezone.now()
        fixture.save(update_fields=["counted_at"])
        season = fixture.round.season
        changed = False
        if game.status == Game.Status.FINISHED and game.result:
            count_result(season=season, game=game)
            _on_counted(fixture, now=fixture.counted_at)
            changed = True
        _season_finish_if_done(season)
    return changed


def _on_counted(fixture: Fixture, *, now: datetime) -> None:
    """A result just counted: provisional for the league's confirmation period (``confirmation``), or
    confirmed at once (no period)."""
    hours = fixture.round.season.league.confirmation_hours
    if hours:
        fixture.confirm_by = now + timedelta(hours=hours)
    else:
        fixture.confirmed_at = now
    fixture.save(update_fields=["confirm_by", "confirmed_at"])


def count_result(*, season: Season, game: Game) -> None:
    league = season.league
    assert game.result is not None  # the caller counts only finished games with a result
    places = standings.placements(result=game.result, engine=game.engine, players=game.players)
    seats = {s.position: s for s in game.seats.all()}
    rows: dict[int, Standing] = {}
    for position, seat in seats.items():
        if seat.user_id is not None:
            rows[position] = Standing.objects.select_for_update().get_or_create(
                season=season, user_id=seat.user_id
            )[0]
    order = sorted(places)
    current = [
        (rows[p].mu, rows[p].sigma) if p in rows else (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
        for p in order
    ]
    rated = ratings.rate(ratings=current, places=[places[p][0] for p in order])
    for position, (mu, sigma) in zip(order, rated, strict=True):
        row = rows.get(position)
        if row is None:
            continue
        place, total = places[position]
        row.games_played += 1
        row.wins += place == 1
        row.points += standings.league_points(
            place=place, table_size=game.players, points_table=league.points_table
        )
        row.score_total += total
        row.mu, row.sigma = mu, sigma
        row.save()
        RatingHistory.objects.create(season=season, user_id=row.user_id, game=game, mu=mu, sigma=sigma)


def _season_finish_if_done(season: Season) -> None:
    if season.round_set.count() < season.rounds:
        return
    if Fixture.objects.filter(round__season=season, counted_at__isnull=True).exists():
        return
    Season.objects.filter(pk=season.pk).update(status=Season.Status.FINISHED)
