"""League helpers shared by the tests of pages and API answers that list games: a game made a league's
table (a season, a round and the fixture), so that what a league's privacy hides can be checked."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.text import slugify

from apps.games.models import Game
from apps.leagues import services as league_services
from apps.leagues.models import Fixture, League, Membership, Round, Season, Standing
from tests.factories import UserFactory


def game_in_league(game: Game, *, public: bool, name: str | None = None) -> League:
    """A new league (``name``, else ``L<game id>``; its slug from the name) with ``game`` as table 1 of
    the first round of its first season."""
    name = name or f"L{game.pk}"
    league = League.objects.create(name=name, slug=slugify(name), game=game.engine, is_public=public)
    season = Season.objects.create(league=league, number=1, starts_at=timezone.now())
    round_ = Round.objects.create(season=season, number=1, started_at=timezone.now())
    Fixture.objects.create(round=round_, table=1, game=game)
    return league


def member_of_a_public_and_a_private_league(player: Any) -> tuple[League, League]:
    """``player`` an active member of "Open Birds" (public, a standing of 2 games at mu 30, sigma 5 in its
    first season) and of "Secret Club" (private), both organised by somebody else."""
    organiser = UserFactory()
    public = league_services.league_create(creator=organiser, name="Open Birds", game="baobei")
    private = league_services.league_create(
        creator=organiser, name="Secret Club", game="baobei", is_public=False
    )
    for league in (public, private):
        Membership.objects.create(league=league, user=player, status=Membership.Status.ACTIVE)
    season = Season.objects.create(league=public, number=1, starts_at=timezone.now())
    Standing.objects.create(season=season, user=player, games_played=2, mu=30.0, sigma=5.0)
    return public, private
