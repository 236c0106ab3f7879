"""Combinations and beating (BH-10, BH-11), on count vectors (see ``cards``)."""

from __future__ import annotations

from .cards import BJ, BJM, RJ, RJM, STRENGTHS, expand


def is_combination(cards: list[int]) -> bool:
    """BH-10.1: non-empty, and all non-joker cards of one rank (any jokers may be added)."""
    ranks = 0
    for i in range(10):
        if cards[i]:
            ranks += 1
    return ranks <= 1 and sum(cards) > 0


def strengths(cards: list[int]) -> list[int]:
    """The strengths of a multiset in ascending order (BH-11.1 (b))."""
    return expand(cards, STRENGTHS)


def beats(new: list[int], top: list[int]) -> bool:
    """BH-11.1: same size and, sorted ascending, every card strictly stronger than its pair."""
    a = strengths(new)
    b = strengths(top)
    if len(a) != len(b):
        return False
    return all(x > y for x, y in zip(a, b, strict=True))


def joker_choices(hand: list[int]) -> list[tuple[int, int, int, int]]:
    """Every distinct sub-multiset of the hand's jokers as (BJ, BJ*, RJ, RJ*) counts."""
    return [
        (b, bm, r, rm)
        for b in range(hand[BJ] + 1)
        for bm in range(hand[BJM] + 1)
        for r in range(hand[RJ] + 1)
        for rm in range(hand[RJM] + 1)
    ]


def plays(hand: list[int], top: list[int] | None) -> list[list[int]]:
    """Every legal play, once per distinct multiset (BH-22.1): all combinations when leading,
    otherwise those that beat ``top`` (BH-11)."""
    out: list[list[int]] = []
    size = sum(top) if top is not None else 0
    top_strengths = strengths(top) if top is not None else []
    for b, bm, r, rm in joker_choices(hand):
        jokers = b + bm + r + rm
        base = [0] * 10 + [b, bm, r, rm]
        if top is None:
            if jokers:
                out.append(base)
            for rank in range(10):
                for n in range(1, hand[rank] + 1):
                    c = base[:]
                    c[rank] = n
                    out.append(c)
            continue
        n = size - jokers
        if n < 0:
            continue
        if n == 0:
            if _beats_sorted(base, top_strengths):
                out.append(base)
            continue
        for rank in range(10):
            if hand[rank] >= n:
                c = base[:]
                c[rank] = n
                if _beats_sorted(c, top_strengths):
                    out.append(c)
    return out


def _beats_sorted(new: list[int], top_strengths: list[int]) -> bool:
    a = strengths(new)
    return len(a) == len(top_strengths) and all(x > y for x, y in zip(a, top_strengths, strict=True))
