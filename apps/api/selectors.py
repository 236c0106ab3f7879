"""Reads of the api app: tokens, bot accounts, and the games a user may look at."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import QuerySet

from apps.games import selectors as game_selectors
from apps.games.errors import ServiceError
from apps.games.models import Game

from .models import ApiToken


def token_list(*, user: User) -> QuerySet[ApiToken]:
    """The user's own tokens, newest first."""
    return ApiToken.objects.filter(user=user)


def bot_account_list(*, owner: User) -> QuerySet:
    """The bot accounts the user owns, with their tokens."""
    return (
        get_user_model()
        .objects.filter(profile__bot_owner=owner, profile__is_bot_account=True)
        .select_related("profile")
        .prefetch_related("api_tokens")
        .order_by("username")
    )


def game_get(*, game_id: int, user: User, with_people: bool = True) -> Game:
    """A game that ``user`` may see, with its seats, settled first when a deadline has passed.

    A seated player sees their seat's view, anybody else allowed to watch the spectator view
    (``view(state, None)``), exactly like the web pages. Whoever may not see the game
    (``game_may_view``, asked by number) gets the same 404 as for a game that does not exist.
    ``with_people=False`` skips loading the seated users' names (for endpoints that only need seat numbers).
    """
    game = game_selectors.game_read(game_id, seats="people" if with_people else "plain")
    if game is None or not game_selectors.game_may_view(
        game=game, user=user, by_number=True, seated=game_selectors.seat_of(game, user) is not None
    ):
        raise ServiceError("not_found", "no such game", status=404)
    return game


def game_get_with_my_seat(
    *, game_id: int, user: User, read: list[Any] | None = None
) -> tuple[Game, int | None, int]:
    """``game_get`` without the seats, plus the user's seat position (None: a spectator) and the game's
    version as that seat knows it, in one query when nothing is overdue and the user is seated (for
    /legal, which every bot move asks first); ``read``: that query's answer, read with the user's token
    (``authentication.read_with_token``)."""
    found = game_selectors.game_read_for_user(game_id, user_id=user.pk, read=read)
    if found is None:
        raise ServiceError("not_found", "no such game", status=404)
    game, seat, version = found
    if seat is None and not game_selectors.game_may_view(game=game, user=user, by_number=True, seated=False):
        raise ServiceError("not_found", "no such game", status=404)
    return game, seat, version


def game_hidden_from(*, game_id: int, user: User) -> bool:
    """Whether the game ``game_id`` does not exist for ``user``: absent, or not theirs to see."""
    game = game_selectors.game_get(game_id)
    return game is None or not game_selectors.game_may_view(game=game, user=user, by_number=True)


def seat_position(*, game: Game, user: User) -> int | None:
    """The user's seat number in the game, or None for a spectator."""
    seat = game_selectors.seat_of(game, user)
    return seat.position if seat else None
