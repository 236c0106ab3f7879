"""The rules pages' data and the words of the links from a game page into them.

The explanations themselves are templates (``templates/rules/<game>.html``); what can be computed
from the engines — the bird table, the thresholds, the Bao Huang ranks — is computed here from the
engines' own card data, so the pages cannot drift from the rules the server plays by. Which page
and which section belong to a game and its decisions is its presenter's (``presenters.<game>``).

Languages: the long explanations are written once per language, as a whole page —
``templates/rules/<language>/<game>.html`` (``zh_hans`` for Simplified Chinese), chosen by
``rules_template`` from the active language, else the English ``templates/rules/<game>.html``. A
translated page is easier to write and to keep in step than hundreds of ``blocktranslate`` blocks, and
it keeps every anchor (``#tribute``, ``#ability-peek``) and rule number (BB-…, BH-…) of the English
page, so the links from the game pages land in the same place in every language. The short words
computed here — ability names, section titles, bird and card names — are marked with ``gettext`` /
``gettext_lazy`` and come from the catalogue like every other string.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.template.loader import select_template
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, to_locale
from django.utils.translation import gettext_lazy as _

from baogame.rules.baobei.cards import CARDS, DECK_SIZE, DECK_TABLE
from baogame.rules.baobei.engine import ENGINE as BAOBEI
from baogame.rules.baobei.setup import default_threshold
from baogame.rules.baohuang.cards import CODES, COPIES, PACK_SIZE, STRENGTH
from baogame.rules.text import join

from .sentences import bird_name, card_name, localize


class Ability(TypedDict):
    """How an ability is shown: its icon on a card, its name, its section and its rule."""

    icon: str
    name: str | Promise
    anchor: str
    rule: str


#: Every Bao Bei ability (BB-9.7 … BB-9.12): the icon drawn on its card and the words for it.
ABILITIES: dict[str, Ability] = {
    "peek": {"icon": "◉", "name": _("Peek"), "anchor": "ability-peek", "rule": "BB-9.7"},
    "reveal": {"icon": "☀", "name": _("Reveal"), "anchor": "ability-reveal", "rule": "BB-9.8"},
    "blind_swap": {"icon": "⇄", "name": _("Blind swap"), "anchor": "ability-blind-swap", "rule": "BB-9.9"},
    "macaw": {"icon": "⇆", "name": _("Look and swap"), "anchor": "ability-macaw", "rule": "BB-9.10"},
    "toco": {"icon": "+", "name": _("Add a card"), "anchor": "ability-toco", "rule": "BB-9.11"},
    "shoebill": {
        "icon": "⇊",
        "name": _("Double replacement"),
        "anchor": "ability-shoebill",
        "rule": "BB-9.12",
    },
}

#: The headings of the sections a decision box links to, for the link's words.
SECTION_TITLES: dict[str, str | Promise] = {
    "setup": _("setting up a round"),
    "turn": _("a turn, step by step"),
    "plucking": _("plucking"),
    "abilities": _("abilities"),
    "bao": _("BAO"),
    "tribute": _("tribute"),
    "emperor": _("the emperor"),
    "declarations": _("declarations"),
    "play": _("tricks"),
    "ability-peek": _("the peek ability"),
    "ability-reveal": _("the reveal ability"),
    "ability-blind-swap": _("the blind swap ability"),
    "ability-macaw": _("the look and swap ability"),
    "ability-toco": _("the add a card ability"),
    "ability-shoebill": _("the double replacement ability"),
}


def rules_template(template: str) -> str:
    """``rules/<game>.html`` in the active language (``rules/zh_hans/<game>.html``), else as given."""
    folder, _slash, name = template.rpartition("/")
    language = to_locale(get_language() or "en").lower()
    chosen: str = select_template([f"{folder}/{language}/{name}", template]).template.name
    return chosen


def rules_url(engine: str, section: str = "") -> str:
    """The rules page of ``engine``, at ``section`` when given."""
    url = reverse("rules", args=[engine])
    return f"{url}#{section}" if section else url


def bird_rows() -> list[dict[str, Any]]:
    """The Bao Bei deck table (§2.1) from the engine's card data, in its own order."""
    families: dict[str, list[str]] = {}
    for row in DECK_TABLE:
        families.setdefault(row[3], []).append(row[0])
    rows = []
    for code, _name, _short, family, value, copies, ability, text in DECK_TABLE:
        rows.append(
            {
                "code": code,
                "name": bird_name(code),
                "value": value,
                "copies": copies,
                "family": family,
                "matches": [bird_name(other) for other in families[family] if other != code],
                "ability": None
                if ability is None
                else {"key": ability, "text": gettext(text), **ABILITIES[ability]},
            }
        )
    return rows


def ability_legend() -> list[dict[str, Any]]:
    """One line per ability: its icon, name, the birds that carry it and what it does."""
    return [
        {
            "key": key,
            "icon": info["icon"],
            "name": str(info["name"]),
            "anchor": info["anchor"],
            "rule": info["rule"],
            "birds": localize(join([bird_name(c["code"]) for c in CARDS.values() if c["ability"] == key])),
            "text": gettext(next(c["ability_text"] for c in CARDS.values() if c["ability"] == key)),
        }
        for key, info in ABILITIES.items()
    ]


def threshold_rows() -> list[dict[str, Any]]:
    """The default threshold per number of players (§2.3), from the engine's own defaults."""
    seats = BAOBEI.game_type
    return [
        {"players": n, "threshold": default_threshold(n)}
        for n in range(seats.min_players, seats.max_players + 1)
    ]


def baobei_context() -> dict[str, Any]:
    """Everything the Bao Bei rules template computes from the engine."""
    return {
        "birds": bird_rows(),
        "abilities": ability_legend(),
        "thresholds": threshold_rows(),
        "deck_size": DECK_SIZE,
    }


def baohuang_context() -> dict[str, Any]:
    """Everything the Bao Huang rules template computes from the engine: the ranks, high to low."""
    ranks = [
        {"code": code, "name": card_name(code), "strength": STRENGTH[code], "copies": COPIES[code]}
        for code in reversed(CODES)
    ]
    return {"ranks": ranks, "pack_size": PACK_SIZE}
