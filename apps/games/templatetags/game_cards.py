"""Template tags that draw the cards: Bao Bei birds and Bao Huang playing cards.

Every drawn card is one element with ``data-zone`` (where it lies) and, only when its face is shown,
``data-card`` (its code); a face-down card has no ``data-card``. Tests use these attributes to compare
a page with the seat's ``view()``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import template

from baogame.rules.baobei.cards import CARDS as BIRDS
from baogame.rules.baohuang.cards import NAMES as PLAYING_NAMES

register = template.Library()

#: Which drawing each bird family uses (static/img/cards.svg).
SHAPES = {
    "toucan": "toucan",
    "pelican": "pelican",
    "crowned_crane": "wader",
    "crested_ibis": "wader",
    "shoebill": "shoebill",
    "peacock": "peacock",
    "mandarin_duck": "duck",
}
ABILITY_ICONS = {"peek": "◉", "reveal": "☀", "blind_swap": "⇄", "macaw": "⇆", "toco": "+", "shoebill": "⇊"}


@register.inclusion_tag("games/cards/bird.html")
def bird(code: str | None, zone: str = "", pos: str = "", touched: bool = False) -> dict[str, Any]:
    """A Bao Bei card: face up when ``code`` is a card code, face down for ``None`` or ``"?"``."""
    meta = BIRDS.get(code or "")
    return {
        "meta": meta,
        "zone": zone,
        "pos": pos,
        "touched": touched,
        "shape": SHAPES.get(meta["family"], "songbird") if meta else "",
        "icon": ABILITY_ICONS.get(meta["ability"] or "", "") if meta else "",
    }


@register.inclusion_tag("games/cards/playing.html")
def playing_card(code: str | None, zone: str = "", seat: Any = "", pick: bool = False) -> dict[str, Any]:
    """A Bao Huang card; with ``pick`` it is a checkbox of a hand form; ``None`` draws its back."""
    joker = bool(code and code.startswith(("BJ", "RJ")))
    return {
        "code": code,
        "known": code in PLAYING_NAMES if code else False,
        "name": PLAYING_NAMES.get(code or "", ""),
        "joker": joker,
        "red": bool(code and code.startswith("RJ")),
        "marked": bool(code and code.endswith("*")),
        "rank": code.rstrip("*") if code and not joker else "",
        "zone": zone,
        "seat": seat,
        "pick": pick,
    }


@register.simple_tag
def new_key() -> str:
    """A fresh idempotency key for one rendered form, so a double click applies once."""
    return uuid.uuid4().hex


@register.filter
def bird_name(code: str | None) -> str:
    """The display name of a bird code."""
    meta = BIRDS.get(code or "")
    return meta["name"] if meta else "a face-down card"
