"""Bao Bei's match lengths (``baogame.rules.lengths``): the threshold, scaled from §2.3's default."""

from __future__ import annotations

from typing import Any

from ..lengths import GameLengths, Length
from ..text import COMMA, Text, gettext_noop, join, n_, text
from .setup import default_options, default_threshold


def _scaled(numerator: int, denominator: int) -> Any:
    """The threshold of §2.3 for the number of players, times numerator / denominator."""
    return lambda players: {"threshold": default_threshold(players) * numerator // denominator}


def describe(values: dict[str, Any], players: int) -> Text:
    """``ends at 80 points``."""
    points = int(values["threshold"])
    return text(n_("ends at %(points)s point", "ends at %(points)s points", points), points=points)


def describe_groups(values: list[tuple[dict[str, Any], Any]]) -> Text | str:
    """``ends at 100 points with 2 players, 80 with 3-4, 60 with 5-6``."""
    first, *rest = values
    parts: list[Any] = [
        text(gettext_noop("%(words)s with %(who)s"), words=describe(first[0], 0), who=first[1])
    ]
    parts += [
        text(gettext_noop("%(points)s with %(who)s"), points=v["threshold"], who=words) for v, words in rest
    ]
    return join(parts, COMMA)


LENGTHS = GameLengths(
    keys=("threshold",),
    named=(
        Length("short", gettext_noop("Short"), _scaled(1, 2)),
        Length("normal", gettext_noop("Normal"), _scaled(1, 1)),
        Length("long", gettext_noop("Long"), _scaled(3, 2)),
    ),
    defaults=default_options,
    describe=describe,
    describe_groups=describe_groups,
    rule=gettext_noop(
        "The game ends after the round in which a running total reaches the threshold; the lowest "
        "total wins (players tied for it play a deciding round, BB-15)."
    ),
    player_groups=((2, text(gettext_noop("2 players"))), (3, "3–4"), (5, "5–6")),
    size=lambda values, players: float(values["threshold"]),
)
