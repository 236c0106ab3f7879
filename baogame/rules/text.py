"""Sentences that a page can show in any language: the one formatter of both games' ``text`` modules.

The rules package imports nothing outside the standard library, so it cannot translate. Instead a
game's sentence is a ``Text``: an English template with named placeholders, marked with
``gettext_noop`` so that ``makemessages`` extracts it, and its parameters, which may themselves be
``Text`` (a card's name, a slot, a list). A sentence whose words depend on a number ("1 card",
"2 cards") has a ``Plural`` template instead, marked with ``n_`` (singular, plural, count), which
``makemessages`` extracts as a plural entry (the project's ``makemessages`` command adds the keyword).
``render`` fills a template with its parameters after passing every template through ``translate`` (a
``Plural`` through ``translate_plural``, which picks the form for its count); the engines' own
``describe_*`` functions render with no translation (English), the web layer with Django's ``gettext``
and ``ngettext`` (``apps.games.sentences``).

A seat stays a number in the parameters: the English and the Chinese templates write it as
``seat 3`` / ``座位3``, which the pages then replace by the player's name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .i18n import gettext_noop

__all__ = ["AND", "COMMA", "SEMICOLON", "Plural", "Text", "gettext_noop", "join", "n_", "render", "text"]


class Plural(NamedTuple):
    """A template's English singular and plural forms and the number ``n`` that chooses between them."""

    singular: str
    plural: str
    n: int


def n_(singular: str, plural: str, n: int) -> Plural:
    """Mark a template with a plural form (``ngettext``'s arguments), translated when it is rendered."""
    return Plural(singular, plural, n)


class Text(NamedTuple):
    """An English template with ``%(name)s`` placeholders and the values that fill them."""

    template: str | Plural
    params: dict[str, Any]


def text(template: str | Plural, **params: Any) -> Text:
    """``Text(template, params)``; ``template`` must be a literal marked with ``gettext_noop``, or
    ``n_(singular, plural, count)`` with literals."""
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


def english_plural(singular: str, plural: str, n: int) -> str:
    """No translation: the English form for ``n``."""
    return singular if n == 1 else plural


def render(
    value: Any,
    translate: Callable[[str], str] = identity,
    translate_plural: Callable[[str, str, int], str] = english_plural,
) -> str:
    """``value`` as words: a ``Text`` is translated and filled (its parameters rendered first; a
    ``Plural`` template in the form for its count); anything else is ``str(value)`` (numbers, card
    codes, a list of seats as ``[0, 2]``)."""
    if isinstance(value, Text):
        params = {key: render(v, translate, translate_plural) for key, v in value.params.items()}
        template = value.template
        if isinstance(template, Plural):
            pattern = translate_plural(template.singular, template.plural, template.n)
        else:
            pattern = translate(template)
        return pattern % params
    return str(value)
