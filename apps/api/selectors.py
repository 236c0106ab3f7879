"""Reads of the api app: tokens, bot accounts, and the games a user may look at."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from apps.games import services as game_services
from apps.games.errors import ServiceError
from apps.games.models import Decision, Game

from .models import ApiToken


def token_list(*, user: AbstractBaseUser) -> QuerySet[ApiToken]:
    """The user's own tokens, newest first."""
    return ApiToken.objects.filter(user=user)


def bot_account_list(*, owner: AbstractBaseUser) -> QuerySet:
    """The bot accounts the user owns, with their tokens."""
    return (
        get_user_model()
        .objects.filter(profile__bot_owner=owner, profile__is_bot_account=True)
        .select_related("profile")
        .prefetch_related("api_tokens")
        .order_by("username")
    )


def game_get(*, game_id: int, with_people: bool = True) -> Game:
    """A game with its seats, settled first when a deadline has passed (lazy settlement).

    Every signed-in user may look at any game: a seated player sees their seat's view, anybody else
    the spectator view (``view(state, None)``), exactly like the web pages. ``with_people=False``
    skips loading the seated users' names (for endpoints that only need seat numbers).
    """
    related = "seats__user__profile" if with_people else "seats"
    overdue = Decision.objects.filter(game_id=OuterRef("pk"), deadline__lte=timezone.now())
    game = Game.objects.annotate(overdue=Exists(overdue)).prefetch_related(related).filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", "no such game", status=404)
    if game.status == Game.Status.ACTIVE and game.overdue:  # one query decides: cheap when nothing is due
        game_services.settle_due(game.pk)
        game.refresh_from_db()
    return game


def seat_position(*, game: Game, user: AbstractBaseUser) -> int | None:
    """The user's seat number in the game, or None for a spectator."""
    seat = game_services.seat_of(game, user)
    return seat.position if seat else None
