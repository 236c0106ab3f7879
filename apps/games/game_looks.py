"""What happened since a person last looked at a game's page (README, "Playing").

Each time the board of a game is made for a signed-in person (the whole page, the board refreshed
while they watch, the board after their own move), ``looked`` records how far the game had gone as
they may know it (``selectors.viewer_version``: the public moves and their own seat's hidden answers,
BB-30.6) and answers how far it had gone at their look before; the page marks the moves since
(``new_history``; the person's own moves count as looks too). One row per person and game
(``GameLook``), written only when it changes.

The marks are counted in the viewer's own numbering of the moves, so they tell a seat nothing its
page does not already show: another seat's hidden answer is never counted as new.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from .models import Game, GameLook

#: The most history rows the page shows to cover what is new; the rest are on the full history page.
NEW_HISTORY_MAX = 200


@dataclass(frozen=True)
class LastLook:
    """A person's look before this one: ``seen`` moves known then, at ``at``."""

    seen: int
    at: datetime


def looked(*, game: Game, user: User, seat: int | None, version: int) -> LastLook | None:
    """Record that ``user`` now sees ``game`` at ``version`` from ``seat`` (None: as a spectator), and
    return their look before, or None: a first look, or one from another seat (the moves are
    numbered per seat), which marks nothing."""
    earlier = GameLook.objects.filter(game=game, user=user).values_list("seat", "seen", "at").first()
    if earlier is None or earlier[0] != seat or earlier[1] != version:
        # One upsert: two pages of the same person made at once both write, neither fails.
        GameLook.objects.bulk_create(
            [GameLook(game=game, user=user, seat=seat, seen=version, at=timezone.now())],
            update_conflicts=True,
            unique_fields=["game", "user"],
            update_fields=["seat", "seen", "at"],
        )
    if earlier is None or earlier[0] != seat or earlier[1] > version:
        return None
    return LastLook(seen=earlier[1], at=earlier[2])


@dataclass(frozen=True)
class NewHistory:
    """The page's history rows with what is new since the last look marked (``row["new"]``)."""

    rows: list[dict[str, Any]]  #: the rows to show, oldest first
    new_moves: int  #: moves since the last look (0: none, or no look before)
    hidden_new: bool  #: some new rows are older than those shown (on the full history page)


def new_history(
    history: list[dict[str, Any]],
    *,
    last: LastLook | None,
    version: int,
    recent: int,
    seat: int | None = None,
) -> NewHistory:
    """The last ``recent`` rows of ``history`` (``selectors.game_history``'s, oldest first), or more to
    show every row new since ``last`` (at most ``NEW_HISTORY_MAX``), each marked ``new`` or not.

    The viewer's own moves from ``seat`` (made by the player: not by a timeout or the bot) count as
    looks, wherever they were made (a page, the API, a mail): their own latest move and what came
    before it is not new to them."""
    seen = last.seen if last is not None else version
    own = [h["seq"] for h in history if h["seat"] == seat and not h["by_timeout"] and not h.get("by_bot")]
    if seat is not None and own:
        seen = max(seen, own[-1])
    fresh = sum(1 for h in history if h["seq"] > seen)
    shown = history[-max(recent, min(fresh, NEW_HISTORY_MAX)) :] if history else []
    rows = [{**h, "new": h["seq"] > seen} for h in shown]
    return NewHistory(rows=rows, new_moves=max(0, version - seen), hidden_new=fresh > len(shown))
