"""Cards and matching (BB-2): the 66 cards of the deck table, which birds match."""

from __future__ import annotations

from baogame.rules.baobei.cards import CARDS, CODE_OF, DECK_TABLE

from .helpers import (
    FOUR,
    GOLDEN,
    HUM,
    KINGF,
    MAGPIE,
    PEACOCK,
    SHOEBILL,
    TOCO,
    E,
    a_game,
    act,
    one_event,
    play,
    ref,
    single,
)


def test_deck_has_the_66_cards_of_the_table_bb_2_1():
    """BB-2.1 / §2.1: exactly 66 cards; every round uses the whole deck."""
    st = E.setup(5, {}, "deck")
    r = ref(st)
    cards = [c for d in r["displays"] for c in d] + r["discard"] + r["draw"]

    assert len(CODE_OF) == 66 and sorted(cards) == sorted(CODE_OF)
    assert sum(row[5] for row in DECK_TABLE) == 66 and CARDS[GOLDEN]["value"] == -5


def test_golden_toucan_matches_toco_but_shoebill_does_not_bb_2_2():
    """BB-2.2: the Golden Toucan matches the Toco Toucan (same family)."""
    st = a_game([[GOLDEN, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[TOCO])

    st = play(st, 0, "draw")
    st, events = act(st, 0, "pluck", **single(0, 0))

    assert next(e for e in events if e["type"] == "pluck_resolved")["success"] is True


def test_shoebill_does_not_match_toco_despite_equal_value_bb_2_2():
    """BB-2.2 / §2.2: matching is by family only: a drawn Toco Toucan (13) does not match a Shoebill (13)."""
    st = a_game([[SHOEBILL, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[TOCO, PEACOCK])
    st = play(st, 0, "draw")

    st, events = act(st, 0, "pluck", **single(0, 0))

    assert one_event(events, "pluck_resolved")["success"] is False
    assert ref(st)["displays"][0] == [SHOEBILL, HUM, KINGF, MAGPIE, PEACOCK]
