"""The rules pages' data and the words of the links from a game page into them.

The explanations themselves are templates (``templates/rules/<game>.html``); what can be computed
from the engines — the bird table, the thresholds, the Bao Huang ranks — is computed here from the
engines' own card data, so the pages cannot drift from the rules the server plays by. Which page
and which section belong to a game and its decisions is its presenter's (``presenters.<game>``).
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.urls import reverse

from baogame.rules.baobei.cards import CARDS, DECK_SIZE, DECK_TABLE
from baogame.rules.baobei.engine import ENGINE as BAOBEI
from baogame.rules.baobei.setup import default_threshold
from baogame.rules.baohuang.cards import CODES, COPIES, NAMES, PACK_SIZE, STRENGTH


class Ability(TypedDict):
    """How an ability is shown: its icon on a card, its name, its section and its rule."""

    icon: str
    name: str
    anchor: str
    rule: str


#: Every Bao Bei ability (BB-9.7 … BB-9.12): the icon drawn on its card and the words for it.
ABILITIES: dict[str, Ability] = {
    "peek": {"icon": "◉", "name": "Peek", "anchor": "ability-peek", "rule": "BB-9.7"},
    "reveal": {"icon": "☀", "name": "Reveal", "anchor": "ability-reveal", "rule": "BB-9.8"},
    "blind_swap": {"icon": "⇄", "name": "Blind swap", "anchor": "ability-blind-swap", "rule": "BB-9.9"},
    "macaw": {"icon": "⇆", "name": "Look and swap", "anchor": "ability-macaw", "rule": "BB-9.10"},
    "toco": {"icon": "+", "name": "Add a card", "anchor": "ability-toco", "rule": "BB-9.11"},
    "shoebill": {"icon": "⇊", "name": "Double replacement", "anchor": "ability-shoebill", "rule": "BB-9.12"},
}

#: The headings of the sections a decision box links to, for the link's words.
SECTION_TITLES = {
    "setup": "setting up a round",
    "turn": "a turn, step by step",
    "plucking": "plucking",
    "abilities": "abilities",
    "bao": "BAO",
    "tribute": "tribute",
    "emperor": "the emperor",
    "declarations": "declarations",
    "play": "tricks",
} | {info["anchor"]: f"the {info['name'].lower()} ability" for info in ABILITIES.values()}


def rules_url(engine: str, section: str = "") -> str:
    """The rules page of ``engine``, at ``section`` when given."""
    url = reverse("rules", args=[engine])
    return f"{url}#{section}" if section else url


def bird_rows() -> list[dict[str, Any]]:
    """The Bao Bei deck table (§2.1) from the engine's card data, in its own order."""
    families: dict[str, list[str]] = {}
    for row in DECK_TABLE:
        families.setdefault(row[3], []).append(row[1])
    rows = []
    for code, name, _short, family, value, copies, ability, text in DECK_TABLE:
        rows.append(
            {
                "code": code,
                "name": name,
                "value": value,
                "copies": copies,
                "family": family,
                "matches": [other for other in families[family] if other != name],
                "ability": None if ability is None else {"key": ability, "text": text, **ABILITIES[ability]},
            }
        )
    return rows


def ability_legend() -> list[dict[str, str]]:
    """One line per ability: its icon, name, the birds that carry it and what it does."""
    return [
        {
            "key": key,
            "icon": info["icon"],
            "name": info["name"],
            "anchor": info["anchor"],
            "rule": info["rule"],
            "birds": " and ".join(c["name"] for c in CARDS.values() if c["ability"] == key),
            "text": next(c["ability_text"] for c in CARDS.values() if c["ability"] == key),
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
        {"code": code, "name": NAMES[code], "strength": STRENGTH[code], "copies": COPIES[code]}
        for code in reversed(CODES)
    ]
    return {"ranks": ranks, "pack_size": PACK_SIZE}
