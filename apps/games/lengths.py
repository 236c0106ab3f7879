"""Match lengths for the service: a length name or explicit options become a game's options and its
stored length name (``Game.length``), and a game's length in words.

The lengths themselves (names, values, meaning) belong to each game's rules package
(``baogame.rules.lengths``, ``registry.get_lengths``); this module applies them for game creation,
leagues, forms and the API, and turns their refusals into ``ServiceError`` with the same stable codes:
``invalid_length`` (a name the game does not have, or ``custom`` that sets nothing) and
``length_conflict`` (a named length together with options that set its values otherwise). Values out
of range stay the engine's ``invalid_options``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext

from baogame.rules import lengths as rule_lengths
from baogame.rules.core import RuleError
from baogame.rules.lengths import CUSTOM as CUSTOM
from baogame.rules.lengths import GameLengths
from baogame.rules.registry import ENGINES, get_engine, get_lengths
from baogame.rules.text import text

from .errors import ServiceError
from .sentences import localize


def _lengths(engine: str) -> GameLengths | None:
    return get_lengths(engine)


def all_names() -> list[str]:
    """Every length name of every game (the API's choices; each game accepts its own, ``names``)."""
    found: list[str] = []
    for engine in ENGINES:
        lengths = _lengths(engine)
        for name in lengths.names if lengths is not None else ():
            if name not in found:
                found.append(name)
    return found


def length_keys(engine: str) -> tuple[str, ...]:
    """The rule options a length of ``engine`` sets (none for a game without lengths)."""
    lengths = _lengths(engine)
    return lengths.keys if lengths is not None else ()


def options_with_length(
    *, engine: str, players: int, length: str | None, options: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """The game's options (the engine's defaults, then ``options``, then the length) and its length name.

    ``length`` None: ``options`` decide. A named length sets its values (``length_conflict`` when
    ``options`` set them otherwise); ``custom`` keeps the values ``options`` give. The name stored is
    the one the resulting options amount to (``custom`` that equals a named length is that length),
    so that games are compared by what they are; "" for a game without lengths. The options are not
    yet checked by the engine (``game_create`` does that).
    """
    eng = get_engine(engine)
    lengths = _lengths(engine)
    if lengths is None:
        if length is not None:
            raise ServiceError("invalid_length", f"{engine} has no named lengths")
        return {**eng.default_options(players), **options}, ""
    try:
        chosen = rule_lengths.apply_length(lengths, name=length, players=players, options=options)
    except RuleError as exc:
        raise ServiceError(exc.code, exc.message) from None
    merged = {**eng.default_options(players), **chosen}
    return merged, rule_lengths.classify(lengths, players=players, options=merged)


def without_length(engine: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` without the keys a length sets (a league preset under a season's length)."""
    keys = length_keys(engine)
    return {k: v for k, v in options.items() if k not in keys}


def custom_values(engine: str, options: dict[str, Any]) -> dict[str, Any]:
    """The length values that ``options`` set, e.g. ``{"deal_limit": 4}``."""
    lengths = _lengths(engine)
    return rule_lengths.custom_values(lengths, options) if lengths is not None else {}


def length_text(*, engine: str, players: int, options: dict[str, Any]) -> str:
    """A game's length in words (``Short: 3 deals, or first to 30``); "" for a game without lengths."""
    lengths = _lengths(engine)
    if lengths is None:
        return ""
    return localize(rule_lengths.length_label_text(lengths, players=players, options=options))


def choices(engine: str, players: int | None = None) -> list[tuple[str, str]]:
    """The lengths a form offers for ``engine``, named ones first, then ``custom``: ``(name, label)``.
    ``players`` None: each named length's values for every player group."""
    lengths = _lengths(engine)
    if lengths is None:
        return []
    named = [
        (n.name, localize(rule_lengths.choice_label_text(lengths, n.name, players))) for n in lengths.named
    ]
    return [*named, (CUSTOM, pgettext("length", "Custom"))]


def rule_text(engine: str) -> str:
    """What any length of ``engine`` means for who wins (one sentence), "" without lengths."""
    lengths = _lengths(engine)
    return localize(text(lengths.rule)) if lengths is not None else ""


def default_name(engine: str, players: int) -> str:
    """The length the rules' defaults amount to (``standard``, ``normal``); "" without lengths."""
    lengths = _lengths(engine)
    if lengths is None:
        return ""
    return rule_lengths.classify(lengths, players=players, options={})


#: The length the new-game form proposes where it is not the rules' default: a standard Bao Huang game
#: (first to 30 points, about 30 deals) takes some two years at a correspondence pace, a short one
#: (3 deals) under three months, or about a week with two sittings a week (docs/clocks.md, "How long a game
#: takes"). The rules' default stays the API's and a league's.
FORM_LENGTHS = {"baohuang": "short"}


def form_name(engine: str, players: int) -> str:
    """The length the new-game form proposes for ``engine`` (``FORM_LENGTHS``, else the rules' default)."""
    return FORM_LENGTHS.get(engine) or default_name(engine, players)


def names_text() -> str:
    """Every game's length names with their meaning, for the API's documentation."""
    parts = []
    for engine in ENGINES:
        lengths = _lengths(engine)
        if lengths is None:
            continue
        named = ", ".join(
            f"{n.name} ({rule_lengths.choice_label(lengths, n.name, None)})" for n in lengths.named
        )
        parts.append(f"{engine}: {named}; custom sets {' and/or '.join(lengths.keys)} in options")
    return ". ".join(parts)
