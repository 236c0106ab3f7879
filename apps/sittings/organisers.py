"""Who organises a game's league: an answer the leagues app gives (sittings sit below the leagues).

The leagues register ``is_organiser(game, user)`` from their ``AppConfig.ready()``; without it (or for
a game outside any league) nobody organises a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from apps.games.models import Game

IsOrganiser = Callable[["Game", "User"], bool]
_is_organiser: list[IsOrganiser] = []


def register(is_organiser: IsOrganiser) -> None:
    _is_organiser[:] = [is_organiser]


def is_organiser(game: Game, user: User) -> bool:
    """Whether ``user`` organises the league ``game`` is played in."""
    return bool(_is_organiser) and _is_organiser[0](game, user)
