"""The 168-card pack: codes, strengths, copies and display names (BH-2).

Hands are stored as *count vectors*: a list of 14 ints, one per code in canonical order (BH-25.8 3),
so that card multisets are cheap to compare, copy and store as JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from baogame.rules.core import RuleError
from baogame.rules.text import gettext_noop as _

T = TypeVar("T")

#: BH-2.3: the 14 card codes in canonical pack order (ascending strength, unmarked before marked).
CODES: tuple[str, ...] = ("6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "BJ*", "RJ", "RJ*")
#: Strength of each code (BH-2.3, BH-2.4, BH-2.5).
STRENGTH: dict[str, int] = {
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": 14,
    "2": 15,
    "BJ": 16,
    "BJ*": 16,
    "RJ": 17,
    "RJ*": 17,
}
#: Copies of each code in the pack (BH-2.1).
COPIES: dict[str, int] = {code: 16 for code in CODES[:10]} | {"BJ": 3, "BJ*": 1, "RJ": 3, "RJ*": 1}
#: English display names for pages and email, marked for translation (``baogame.rules.text``).
NAMES: dict[str, str] = {
    "6": _("six"),
    "7": _("seven"),
    "8": _("eight"),
    "9": _("nine"),
    "10": _("ten"),
    "J": _("jack"),
    "Q": _("queen"),
    "K": _("king"),
    "A": _("ace"),
    "2": _("two"),
    "BJ": _("black joker"),
    "BJ*": _("marked black joker"),
    "RJ": _("red joker"),
    "RJ*": _("marked red joker"),
}

N_CODES = len(CODES)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
STRENGTHS: tuple[int, ...] = tuple(STRENGTH[c] for c in CODES)
COPY_COUNTS: tuple[int, ...] = tuple(COPIES[c] for c in CODES)
#: Indexes of the non-joker ranks (BH-2.4); the jokers follow them.
RANKS: range = range(10)
BJ, BJM, RJ, RJM = 10, 11, 12, 13
PACK_SIZE = 168
#: The whole pack in canonical order (BH-25.8 3): sixteen "6", …, three "BJ", "BJ*", three "RJ", "RJ*".
PACK: tuple[str, ...] = tuple(code for code in CODES for _ in range(COPIES[code]))


def to_counts(cards: Iterable[str]) -> list[int]:
    """A count vector from card codes; ``invalid_card`` for an unknown code (BH-20.1, BH-20.7)."""
    counts = [0] * N_CODES
    index = INDEX
    for code in cards:
        i = index.get(code) if isinstance(code, str) else None
        if i is None:
            raise RuleError("invalid_card", "a card code is not one of the 14 codes of BH-2.3")
        counts[i] += 1
    return counts


def expand(counts: list[int], by_index: Sequence[T]) -> list[T]:
    """A count vector read out: each card's ``by_index`` entry (its code, its strength) as many times
    as the vector counts it, in the order of ``CODES``."""
    out: list[T] = []
    for value, n in zip(by_index, counts, strict=True):
        if n:
            out += [value] * n
    return out


def to_list(counts: list[int]) -> list[str]:
    """Card codes from a count vector, sorted as BH-19.2 requires (ascending, unmarked first)."""
    return expand(counts, CODES)


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Sort card codes by strength, unmarked before marked (BH-19.2)."""
    return sorted(cards, key=INDEX.__getitem__)
