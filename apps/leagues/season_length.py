"""A season's match length: chosen when the season is scheduled, applied to every table's game.

A season names a length of the league's game (``apps.games.lengths``: Bao Huang ``short``, Bao Bei
``normal``, …, or ``custom`` with its values in ``Season.length_options``). It replaces whatever the
league's game options say about the length (a threshold in a Bao Bei league's options, say); the other
options stay. A named length that depends on the table size (Bao Bei's thresholds) is worked out per
table, so a smaller table of the same season gets its own size's value. A season without a length
(``""``: seasons scheduled before lengths existed, or through the API without one) plays the league's
options as they are.
"""

from __future__ import annotations

from typing import Any

from apps.games import estimates
from apps.games import lengths as game_lengths
from apps.games.errors import ServiceError
from apps.games.estimates import Estimate
from baogame.rules.registry import get_engine

from .models import League, Season


def table_sizes(league: League) -> range:
    """Every table size a round of the league can seat (the preferred one and any smaller)."""
    engine = get_engine(league.game)
    smallest = engine.min_players if league.allow_smaller_tables else league.players_per_table
    return range(max(smallest, engine.min_players), league.players_per_table + 1)


def table_options(
    *, league: League, length: str, length_options: dict[str, Any]
) -> tuple[dict[str, Any], str | None]:
    """The options and the length name with which a table's game is created (``game_create``)."""
    if not length:
        return dict(league.engine_options), None
    base = game_lengths.without_length(league.game, league.engine_options)
    if length == game_lengths.CUSTOM:
        return {**base, **length_options}, length
    return base, length


def season_length_check(
    *, league: League, length: str | None, length_options: dict[str, Any] | None
) -> tuple[str, dict[str, Any]]:
    """The season's length and custom values, checked at every table size the league can seat.

    ``invalid_length`` for a name the game does not have, custom values without ``custom``, or
    ``custom`` without values; ``invalid_options`` for a value the rules refuse or a key that is not a
    length's (the league's other options are the league's settings).
    """
    length, values = length or "", dict(length_options or {})
    if not length:
        if values:
            raise ServiceError("invalid_length", "length_options go with the length custom")
        return "", {}
    keys = game_lengths.length_keys(league.game)
    if length != game_lengths.CUSTOM and values:
        raise ServiceError("invalid_length", "length_options go with the length custom")
    unknown = sorted(set(values) - set(keys))
    if unknown:
        raise ServiceError("invalid_options", f"a length sets only {', '.join(keys) or 'nothing'}")
    engine = get_engine(league.game)
    for players in table_sizes(league):
        options, name = table_options(league=league, length=length, length_options=values)
        merged, _ = game_lengths.options_with_length(
            engine=league.game, players=players, length=name, options=options
        )
        engine.setup(players, merged, "options-check")  # RuleError("invalid_options") when out of range
    return length, values


def season_length_text(season: Season) -> str:
    """The season's length in words at the league's table size (``Short: 3 deals, or first to 30``)."""
    league = season.league
    options, name = table_options(league=league, length=season.length, length_options=season.length_options)
    players = league.players_per_table
    try:
        merged, _ = game_lengths.options_with_length(
            engine=league.game, players=players, length=name, options=options
        )
    except ServiceError:  # a preset that no longer fits; round_start will say so
        return ""
    return game_lengths.length_text(engine=league.game, players=players, options=merged)


def preset_length(league: League) -> tuple[str, dict[str, Any]]:
    """The length the league's game options amount to at its table size, with its custom values (what
    a new season's form offers first, so that choosing nothing keeps the league's games as they are)."""
    players = league.players_per_table
    try:
        _, name = game_lengths.options_with_length(
            engine=league.game, players=players, length=None, options=dict(league.engine_options)
        )
    except ServiceError:
        return "", {}
    custom = name == game_lengths.CUSTOM
    values = game_lengths.custom_values(league.game, league.engine_options) if custom else {}
    return name, values


def season_estimate(season: Season) -> Estimate | None:
    """How long a game of the season is expected to take at the league's table size and timing; None
    when the settings have no estimate."""
    league = season.league
    options, name = table_options(league=league, length=season.length, length_options=season.length_options)
    try:
        return estimates.estimate_for(
            engine=league.game,
            players=league.players_per_table,
            length=name,
            control=league.timing_preset,
            options=options,
        )
    except ServiceError:
        return None
