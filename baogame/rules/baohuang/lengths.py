"""Bao Huang's match lengths (``baogame.rules.lengths``): the deal limit and the target (BH-3.2, BH-17)."""

from __future__ import annotations

from typing import Any

from ..lengths import GameLengths, Length
from ..text import Text, gettext_noop, text
from .options import DEFAULTS

#: The most a seat can score in one deal: a lone emperor's 12 × m with m at most 2 (BH-16.3, BH-8.6).
#: A target above this many points per deal cannot be reached before a deal limit ends the game.
MAX_DEAL_SCORE = 24
TARGET = DEFAULTS["target_score"]


def _fixed(target: int, limit: int | None) -> Any:
    return lambda players: {"target_score": target, "deal_limit": limit}


def describe(values: dict[str, Any], players: int) -> Text:
    """``first to 30``, ``one deal``, ``3 deals, or first to 30``: the target is named with a limit only
    when it can end the game before the limit does (from a start at 0)."""
    target, limit = values["target_score"], values["deal_limit"]
    if limit is None:
        return text(gettext_noop("first to %(target)s"), target=target)
    deals = text(gettext_noop("one deal")) if limit == 1 else text(gettext_noop("%(n)s deals"), n=limit)
    if target <= MAX_DEAL_SCORE * (limit - 1):
        return text(gettext_noop("%(deals)s, or first to %(target)s"), deals=deals, target=target)
    return deals


def size(values: dict[str, Any], players: int) -> float:
    """About how many deals the values make a game: the deal limit, or the target in points when it
    comes first (seeded bot games reach a target of 30 in about 30 deals, BH-17)."""
    target, limit = values["target_score"], values["deal_limit"]
    return float(target if limit is None else min(limit, target))


LENGTHS = GameLengths(
    keys=("target_score", "deal_limit"),
    named=(
        Length("one_deal", gettext_noop("One deal"), _fixed(TARGET, 1)),
        Length("short", gettext_noop("Short"), _fixed(TARGET, 3)),
        Length("standard", gettext_noop("Standard"), _fixed(TARGET, None)),
    ),
    defaults=lambda players: dict(DEFAULTS),
    describe=describe,
    rule=gettext_noop(
        "The highest total wins; when the lead is shared at the end, further deals are played until "
        "it is not (BH-17.3, BH-17.6)."
    ),
    player_groups=((5, "5 players"),),
    size=size,
)
