"""Template tags that draw the cards: Bao Bei birds and Bao Huang playing cards.

Every drawn card is one element with ``data-zone`` (where it lies) and, only when its face is shown,
``data-card`` (its code); a face-down card has no ``data-card``. Tests use these attributes to compare
a page with the seat's ``view()``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import template
from django.utils.translation import gettext

from apps.games.rulebook import ABILITIES, ability_legend, rules_url
from apps.games.sentences import bird_name as translated_bird_name
from apps.games.sentences import card_name
from baogame import wording
from baogame.rules.baobei.cards import CARDS as BIRDS
from baogame.rules.baohuang.cards import NAMES as PLAYING_NAMES

register = template.Library()

#: Names with a word longer than this are set smaller on a card, so that they fit its width.
LONG_WORD = 10


@register.inclusion_tag("games/cards/bird.html")
def bird(code: str | None, zone: str = "", pos: str = "", touched: bool = False) -> dict[str, Any]:
    """A Bao Bei card: face up when ``code`` is a card code, face down for ``None`` or ``"?"``.

    Each kind of bird has its own drawing in ``static/img/birds.svg`` (symbol id = card code); a card
    with an ability carries the ability's icon, explained by the legend on the board and the rules page.
    """
    meta = BIRDS.get(code or "")
    ability = ABILITIES.get(meta["ability"] or "") if meta else None
    name = translated_bird_name(meta["code"]) if meta else ""
    return {
        "meta": meta,
        "name": name,
        "ability_text": gettext(meta["ability_text"]) if meta and meta["ability"] else "",
        "zone": zone,
        "pos": pos,
        "touched": touched,
        "icon": ability["icon"] if ability else "",
        "ability_name": ability["name"] if ability else "",
        # A single word this long (Hummingbird) gets a smaller type so that it is never cut.
        "long_name": meta is not None and max(len(word) for word in name.split()) > LONG_WORD,
    }


@register.inclusion_tag("games/cards/playing.html")
def playing_card(
    code: str | None,
    zone: str = "",
    seat: Any = "",
    pick: bool = False,
    usable: Any = None,
    checked: bool = False,
) -> dict[str, Any]:
    """A Bao Huang card; with ``pick`` it is a checkbox of a hand form; ``None`` draws its back.

    ``usable``: the codes that are part of a legal play now; such a card is highlighted. ``checked``:
    its box is ticked (a refused play's own pick)."""
    joker = bool(code and code.startswith(("BJ", "RJ")))
    return {
        "code": code,
        "known": code in PLAYING_NAMES if code else False,
        "name": card_name(code) if code in PLAYING_NAMES else "",
        "joker": joker,
        "red": bool(code and code.startswith("RJ")),
        "marked": bool(code and code.endswith("*")),
        "rank": code.rstrip("*") if code and not joker else "",
        "zone": zone,
        "seat": seat,
        "pick": pick,
        "usable": bool(usable and code in usable),
        "checked": checked,
    }


@register.simple_tag
def new_key() -> str:
    """A fresh idempotency key for one rendered form, so a double click applies once."""
    return uuid.uuid4().hex


@register.filter
def listed(items: Any) -> str:
    """Names one after another as the reader's language lists them (``baogame.wording.listed``)."""
    return wording.listed(items)


@register.filter
def entries(items: Any) -> str:
    """Entries that are lists themselves, one after another (``baogame.wording.entries``)."""
    return wording.entries(items)


@register.filter
def bird_name(code: str | None) -> str:
    """The display name of a bird code."""
    meta = BIRDS.get(code or "")
    return translated_bird_name(meta["code"]) if meta else gettext("a face-down card")


@register.inclusion_tag("games/cards/ability_legend.html")
def ability_icons_legend() -> dict[str, Any]:
    """The visible legend of the ability icons drawn on Bao Bei cards (phones have no hover tooltips).

    Icons and ability names only: the board names no bird the seat has not seen (the leak checks read
    every bird name on the page); the rules page it links to says which bird carries which ability.
    """
    return {"abilities": ability_legend(), "url": rules_url("baobei", "abilities")}


@register.simple_tag
def rules_link(engine: str, section: str = "") -> str:
    """The URL of a section of a game's rules page."""
    return rules_url(engine, section)


@register.simple_tag
def chosen(decision: dict[str, Any], name: str, value: Any, attribute: str = "selected") -> str:
    """`` selected`` (or `` checked``) when the decision's form has ``value`` chosen for field ``name``.

    The choices are the form's defaults or the seat's own refused ones (``presenters.baobei._chosen``);
    only options the page offers anyway are marked, so nothing posted is printed.
    """
    picked = (decision.get("chosen") or {}).get(name) or []
    return f" {attribute}" if str(value) in picked else ""
