"""Which league a game is played in, who may see that league, and how a league game's title reads:
answers the leagues app gives.

The games sit below the leagues and never import them. The leagues app registers both answers from its
``AppConfig.ready()``; without it (or for a game outside any league) a game has no league.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from .models import Game

#: ``game`` -> ``(league_id, is_public)``, or None for a game outside any league.
LeagueOf = Callable[["Game"], "tuple[int, bool] | None"]
#: ``(user, league_id)`` -> whether the signed-in ``user`` may see that (private) league.
MaySeeLeague = Callable[["User", int], bool]

#: A game's stored title -> the title shown to the reader (a league table's in their language).
TitleShown = Callable[[str], str]

_league_of: list[LeagueOf] = []
_may_see: list[MaySeeLeague] = []
_title: list[TitleShown] = []


def register(*, league_of: LeagueOf, may_see: MaySeeLeague, title: TitleShown) -> None:
    _league_of[:] = [league_of]
    _may_see[:] = [may_see]
    _title[:] = [title]


def title_shown(title: str) -> str:
    return _title[0](title) if _title else title


def league_of(game: Game) -> tuple[int, bool] | None:
    return _league_of[0](game) if _league_of else None


def may_see_league(user: User, league_id: int) -> bool:
    return bool(_may_see) and _may_see[0](user, league_id)
