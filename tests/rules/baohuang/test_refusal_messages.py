"""BH-21: a refusal's English message counts cards as English does ("1 card", "2 cards")."""

from __future__ import annotations

from typing import Any

import pytest

from baogame.rules.baohuang.engine import ENGINE
from baogame.rules.core import RuleError

from .helpers import a_game, act, keep_and_declare
from .test_tribute import HANDS, started


def _refusal(state: Any, seat: int, action: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, seat, action)
    return info.value.code, info.value.message


def test_a_wrong_tribute_count_says_how_many_cards_are_owed_bh_20_1():
    """BH-20.1: after an imperial win a commoner owes one card, after a loss the emperor owes two."""
    won = a_game(HANDS, start=started("won"))
    lost = a_game(HANDS, start=started("lost"))

    one = _refusal(won, 1, {"type": "give_tribute", "cards": ["2", "2"]})
    two = _refusal(lost, 0, {"type": "give_tribute", "cards": ["2"]})

    assert one == ("wrong_tribute_count", "you owe 1 card")
    assert two == ("wrong_tribute_count", "you owe 2 cards")


def test_a_wrong_card_count_says_how_many_cards_the_top_has_bh_20_7():
    """BH-20.7: a play must have as many cards as the top."""
    hands = [["RJ*", "K", "K", "BJ", "9"], ["BJ*", "A", "A", "RJ", "2", "BJ", "A", "6"], ["6"], ["6"], ["6"]]
    single, _ = act(keep_and_declare(a_game(hands))[0], 0, {"type": "play", "cards": ["9"]})
    triple, _ = act(keep_and_declare(a_game(hands))[0], 0, {"type": "play", "cards": ["K", "K", "BJ"]})

    one = _refusal(single, 1, {"type": "play", "cards": ["A", "A"]})
    three = _refusal(triple, 1, {"type": "play", "cards": ["A", "A"]})

    assert one == ("wrong_card_count", "the top has 1 card")
    assert three == ("wrong_card_count", "the top has 3 cards")
