"""The 66-card deck of §2.1 and §2.2: codes, names, families, values and abilities.

Internally every physical card has an integer id 0 … 65 in *canonical order* (BB-25.9 3): the rows of
§2.1 top to bottom, copies adjacent. Ids never leave the engine (BB-30.4); clients see codes only.
"""

from __future__ import annotations

from typing import TypedDict

from ..text import gettext_noop as _


class CardInfo(TypedDict):
    """One row of the §2.1 table, keyed by name."""

    code: str
    name: str
    short: str
    family: str
    value: int
    copies: int
    ability: str | None
    ability_text: str


#: §2.1: (code, display name, short name, family, value, copies, ability key or None, ability text);
#: the names and texts are marked for translation (``baogame.rules.text``).
DECK_TABLE: tuple[tuple[str, str, str, str, int, int, str | None, str], ...] = (
    ("golden_toucan", _("Golden Toucan"), "Golden", "toucan", -5, 1, None, ""),
    ("hummingbird", _("Hummingbird"), "Hum", "hummingbird", 1, 5, None, ""),
    ("sparrow", _("Sparrow"), "Sparrow", "sparrow", 2, 5, None, ""),
    ("kingfisher", _("Kingfisher"), "Kingf", "kingfisher", 3, 5, None, ""),
    ("magpie", _("Magpie"), "Magpie", "magpie", 4, 5, None, ""),
    ("mandarin_duck", _("Mandarin Duck"), "Duck", "mandarin_duck", 5, 5, None, ""),
    ("crested_ibis", _("Crested Ibis"), "Ibis", "crested_ibis", 6, 5, None, ""),
    (
        "white_pelican",
        _("White Pelican"),
        "WPel",
        "pelican",
        7,
        5,
        "peek",
        _("look secretly at any one face-down card"),
    ),
    (
        "brown_pelican",
        _("Brown Pelican"),
        "BPel",
        "pelican",
        8,
        5,
        "reveal",
        _("show any one face-down card to everyone"),
    ),
    (
        "cuckoo",
        _("Cuckoo"),
        "Cuckoo",
        "cuckoo",
        9,
        5,
        "blind_swap",
        _("swap two face-down cards of two different players without looking"),
    ),
    (
        "macaw",
        _("Macaw"),
        "Macaw",
        "macaw",
        10,
        5,
        "macaw",
        _("look at two face-down cards of two different players, then optionally swap them"),
    ),
    ("crowned_crane", _("Crowned Crane"), "Crane", "crowned_crane", 11, 5, None, ""),
    ("peacock", _("Peacock"), "Peacock", "peacock", 12, 5, None, ""),
    (
        "toco_toucan",
        _("Toco Toucan"),
        "Toco",
        "toucan",
        13,
        3,
        "toco",
        _("add the top draw-pile card face down to one opponent's display"),
    ),
    ("shoebill", _("Shoebill"), "Shoebill", "shoebill", 13, 2, "shoebill", _("double replacement")),
)

#: The ability keys of §2.1, in table order.
ABILITY_KEYS: tuple[str, ...] = ("peek", "reveal", "blind_swap", "macaw", "toco", "shoebill")

#: Metadata per code, for the web layer: name, short name, family, value, copies, ability, text.
CARDS: dict[str, CardInfo] = {
    row[0]: {
        "code": row[0],
        "name": row[1],
        "short": row[2],
        "family": row[3],
        "value": row[4],
        "copies": row[5],
        "ability": row[6],
        "ability_text": row[7],
    }
    for row in DECK_TABLE
}

#: Canonical list of the 66 card codes; index = internal card id.
CODE_OF: tuple[str, ...] = tuple(row[0] for row in DECK_TABLE for _ in range(row[5]))
DECK_SIZE = len(CODE_OF)
VALUE_OF: tuple[int, ...] = tuple(CARDS[c]["value"] for c in CODE_OF)
FAMILY_OF: tuple[str, ...] = tuple(CARDS[c]["family"] for c in CODE_OF)
ABILITY_OF: tuple[str | None, ...] = tuple(CARDS[c]["ability"] for c in CODE_OF)
#: code -> the ids of its copies, ascending.
IDS_OF: dict[str, tuple[int, ...]] = {
    code: tuple(i for i, c in enumerate(CODE_OF) if c == code) for code in CARDS
}

assert DECK_SIZE == 66


def name(code: str) -> str:
    """The display name of a card code, e.g. ``"Magpie"``."""
    return CARDS[code]["name"]


def value(code: str) -> int:
    """The point value of a card code (§2.1)."""
    return CARDS[code]["value"]


def family(code: str) -> str:
    """The family of a card code (§2.2)."""
    return CARDS[code]["family"]


def ability(code: str) -> str | None:
    """The ability key of a card code, or ``None`` (BB-9.13)."""
    return CARDS[code]["ability"]


def matches(a: str, b: str) -> bool:
    """BB-2.2: two cards match iff they belong to the same family."""
    return CARDS[a]["family"] == CARDS[b]["family"]
