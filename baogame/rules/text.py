"""Sentences that a page can show in any language: the one formatter of both games' ``text`` modules.

The rules package imports nothing outside the standard library, so it cannot translate. Instead a
game's sentence is a ``Text``: an English template with named placeholders, marked with
``gettext_noop`` so that ``makemessages`` extracts it, and its parameters, which may themselves be
``Text`` (a card's name, a slot, a list). ``render`` fills a template with its parameters after
passing every template through ``translate``; the engines' own ``describe_*`` functions render with no
translation (English), the web layer with Django's ``gettext`` (``apps.games.sentences``).

A seat stays a number in the parameters: the English and the Chinese templates write it as
``seat 3`` / ``座位3``, which the pages then replace by the player's name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .i18n import gettext_noop

__all__ = ["AND", "COMMA", "SEMICOLON", "Text", "gettext_noop", "join", "render", "text"]


class Text(NamedTuple):
    """An English template with ``%(name)s`` placeholders and the values that fill them."""

    template: str
    params: dict[str, Any]


def text(template: str, **params: Any) -> Text:
    """``Text(template, params)``; ``template`` must be a literal marked with ``gettext_noop``."""
    return Text(template, params)


#: How lists are joined, as whole patterns so a language can reorder or change the words.
AND = gettext_noop("%(first)s and %(second)s")
COMMA = gettext_noop("%(first)s, %(second)s")
SEMICOLON = gettext_noop("%(first)s; %(second)s")


def join(items: Sequence[Any], pattern: str = AND, empty: Text | str = "") -> Text | str:
    """``items`` joined pairwise by ``pattern`` (``AND``: "a and b and c"), or ``empty`` when none."""
    if not items:
        return empty
    joined: Any = items[0]
    for item in items[1:]:
        joined = Text(pattern, {"first": joined, "second": item})
    return joined  # type: ignore[no-any-return]


def identity(message: str) -> str:
    """No translation: the English templates as written."""
    return message


def render(value: Any, translate: Callable[[str], str] = identity) -> str:
    """``value`` as words: a ``Text`` is translated and filled (its parameters rendered first);
    anything else is ``str(value)`` (numbers, card codes, a list of seats as ``[0, 2]``)."""
    if isinstance(value, Text):
        params = {key: render(v, translate) for key, v in value.params.items()}
        return translate(value.template) % params
    return str(value)
