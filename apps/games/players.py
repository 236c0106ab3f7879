"""A player's public page: who they are, their reliability record, and their games a viewer may see.

Anybody may look a player up, signed out included (as the Watch page): when a stranger takes a seat at
an open table, or a league pairs you with someone. The page holds what others see of that player
already: the name they show, when they joined, the record league organisers and open tables judge them
by (``reliability.record_for``), and their games in play and lately finished, as far as the viewer may
see them (``selectors.game_list_of_player``: never an unlisted or private game, nor one of a private
league, to a stranger). Nothing of a game's state: names, the game and dates, as the Watch page.

A bot account (a program playing through the API, or the demo's house bots) has a page too, marked
as a bot's; it does not say whose program it is. A closed account (``accounts.closing``) and any other
inactive account answer 404 like an unknown name: nothing about the former person shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Case, Value, When

from apps.accounts.models import display_name
from apps.accounts.names import CLOSED_PREFIX

from . import reliability, selectors
from .errors import ServiceError
from .models import Game
from .people import is_bot_account

#: How many games in play, and how many of the latest finished ones, a player's page lists.
IN_PLAY_SHOWN = selectors.WATCH_PAGE_SIZE
FINISHED_SHOWN = 10
#: A game "in play": dealt and not over (a paused game is still in play).
IN_PLAY = [Game.Status.ACTIVE, Game.Status.PAUSED]


@dataclass(frozen=True)
class PlayerProfile:
    """What a player's page and ``GET /api/v1/players/<username>/`` show, for one viewer."""

    user: User
    name: str
    joined_at: datetime
    is_bot: bool
    record: reliability.Record
    in_play: list[Game]
    finished: list[Game]
    #: Whether the viewer is the player: only they see how many games and answers their record counts,
    #: since it counts games others may not see (an unlisted or private game, a private league's), and
    #: a count that grows would tell when they play one. Others see what league standings show: the
    #: share on time, timeouts, seats handed to the bot, games abandoned and vacation days.
    own: bool = False


def player_get(*, username: str) -> User:
    """The active account named ``username``, whatever its case (allauth treats usernames so: nobody
    signs up as ``Demo`` beside ``demo``), the exact spelling first should an older pair of accounts
    differ only by case; ``not_found`` (404) for an unknown name, a closed account or any other inactive
    one, the same answer for each so that a page tells nothing of an account that is gone."""
    found = (
        get_user_model()
        .objects.select_related("profile")
        .filter(username__iexact=username, is_active=True)
        .exclude(username__istartswith=CLOSED_PREFIX)
        .annotate(exact=Case(When(username=username, then=Value(0)), default=Value(1)))
        .order_by("exact", "pk")
        .first()
    )
    if found is None:
        raise ServiceError("not_found", "no such player", status=404)
    return found


def player_profile(*, user: User, viewer: User | AnonymousUser | None) -> PlayerProfile:
    """The player ``user`` (found by ``player_get``) as ``viewer`` (None or anonymous: a visitor) may
    see them."""
    return PlayerProfile(
        user=user,
        name=display_name(user),
        joined_at=user.date_joined,
        is_bot=is_bot_account(user),
        record=reliability.record_for(user),
        in_play=selectors.game_list_of_player(
            player=user, viewer=viewer, statuses=IN_PLAY, limit=IN_PLAY_SHOWN
        ),
        finished=selectors.game_list_of_player(
            player=user, viewer=viewer, statuses=[Game.Status.FINISHED], limit=FINISHED_SHOWN
        ),
        own=viewer is not None and viewer.is_authenticated and viewer.pk == user.pk,
    )


def player_linked(user: User | None) -> bool:
    """Whether ``user`` has a public page to link to (a person's or a bot account's, not closed)."""
    return user is not None and user.is_active and not user.get_username().startswith(CLOSED_PREFIX)
