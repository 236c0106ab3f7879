"""The rules pages' data and the links from a game page into them.

The explanations themselves are templates (``templates/rules/<game>.html``); what can be computed
from the engines — the bird table, the thresholds, the Bao Huang ranks — is computed here from the
engines' own card data, so the pages cannot drift from the rules the server plays by.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.urls import reverse

from baogame.rules.baobei.cards import CARDS, DECK_SIZE, DECK_TABLE
from baogame.rules.baobei.setup import default_threshold
from baogame.rules.baohuang.cards import CODES, COPIES, NAMES, PACK_SIZE, STRENGTH

#: The games with a rules page, and their titles.
GAMES = {"baobei": "Bao Bei", "baohuang": "Bao Huang"}


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

#: The section of the Bao Bei rules page that explains each decision kind (BB-21).
BAOBEI_SECTIONS = {
    "setup_peek": "setup",
    "turn_action": "turn",
    "after_draw": "turn",
    "pluck_window": "plucking",
    "macaw_decide": "ability-macaw",
    "shoebill_place": "ability-shoebill",
    "end_turn": "bao",
}
#: The section of the Bao Huang rules page for each decision kind (BH-18.1).
BAOHUANG_SECTIONS = {"tribute": "tribute", "turn": "play"}


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


def decision_section(engine: str, decision: dict[str, Any]) -> str | None:
    """The anchor of the rules section that explains an open decision; None for an unknown game."""
    kind = decision.get("kind", "")
    if engine == "baobei":
        if kind == "ability":
            ability = (decision.get("context") or {}).get("ability", "")
            return ABILITIES[ability]["anchor"] if ability in ABILITIES else "abilities"
        return BAOBEI_SECTIONS.get(kind, "turn")
    if engine == "baohuang":
        if kind == "declare":
            allowed = decision.get("allowed") or []
            return "emperor" if "keep_emperor" in allowed else "declarations"
        return BAOHUANG_SECTIONS.get(kind, "play")
    return None


def decision_rules_link(engine: str, decision: dict[str, Any] | None) -> dict[str, str] | None:
    """The link a decision box gives to its explanation (``url`` and ``title``), or None."""
    if not decision or engine not in GAMES:
        return None
    section = decision_section(engine, decision) or ""
    return {"url": rules_url(engine, section), "title": SECTION_TITLES.get(section, "the rules")}


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
    return [{"players": n, "threshold": default_threshold(n)} for n in range(2, 7)]


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
