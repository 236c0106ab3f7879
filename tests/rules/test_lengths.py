"""Match lengths (``baogame.rules.lengths``): each game's named lengths, their values and their words."""

from __future__ import annotations

import pytest

from baogame.rules import lengths
from baogame.rules.core import RuleError
from baogame.rules.registry import get_engine, get_lengths

BAOHUANG = get_lengths("baohuang")
BAOBEI = get_lengths("baobei")


def test_bao_huang_lengths_are_deal_limits_with_the_default_target_bh_3_2() -> None:
    assert BAOHUANG is not None
    assert BAOHUANG.names == ("one_deal", "short", "standard", "custom")
    assert lengths.length_options(BAOHUANG, "one_deal", 5) == {"target_score": 30, "deal_limit": 1}
    assert lengths.length_options(BAOHUANG, "short", 5) == {"target_score": 30, "deal_limit": 3}
    assert lengths.length_options(BAOHUANG, "standard", 5) == {"target_score": 30, "deal_limit": None}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bao_bei_lengths_scale_the_default_threshold_bb_2_3(players: int) -> None:
    """§2.3's threshold is normal; short is half of it and long one and a half times it."""
    assert BAOBEI is not None
    default = get_engine("baobei").default_options(players)["threshold"]

    values = [
        lengths.length_options(BAOBEI, name, players)["threshold"] for name in ("short", "normal", "long")
    ]

    assert values == [default // 2, default, default * 3 // 2]


def test_the_defaults_amount_to_standard_and_normal() -> None:
    assert BAOHUANG is not None and BAOBEI is not None
    assert lengths.classify(BAOHUANG, players=5, options={}) == "standard"
    assert (
        lengths.classify(BAOHUANG, players=5, options=get_engine("baohuang").default_options(5)) == "standard"
    )
    assert lengths.classify(BAOBEI, players=4, options={"threshold": 80, "memory_aid": False}) == "normal"


def test_options_are_named_by_what_they_amount_to_at_the_table_size() -> None:
    """A threshold of 40 is short at a table of 4 and custom at a table of 2 (where short is 50)."""
    assert BAOBEI is not None and BAOHUANG is not None
    assert lengths.classify(BAOBEI, players=4, options={"threshold": 40}) == "short"
    assert lengths.classify(BAOBEI, players=2, options={"threshold": 40}) == "custom"
    assert lengths.classify(BAOHUANG, players=5, options={"deal_limit": 3}) == "short"
    assert lengths.classify(BAOHUANG, players=5, options={"deal_limit": 3, "target_score": 25}) == "custom"


def test_a_named_length_fills_its_values_and_refuses_options_that_say_otherwise() -> None:
    assert BAOHUANG is not None

    applied = lengths.apply_length(BAOHUANG, name="short", players=5, options={"deal_limit": 3})

    assert applied == {"target_score": 30, "deal_limit": 3}
    with pytest.raises(RuleError) as conflict:
        lengths.apply_length(BAOHUANG, name="one_deal", players=5, options={"deal_limit": 3})
    assert conflict.value.code == "length_conflict"


def test_custom_needs_a_value_and_an_unknown_name_is_invalid() -> None:
    assert BAOHUANG is not None and BAOBEI is not None
    for name, game in (("custom", BAOHUANG), ("one_deal", BAOBEI), ("forever", BAOHUANG)):
        with pytest.raises(RuleError) as info:
            lengths.apply_length(game, name=name, players=5, options={})
        assert info.value.code == "invalid_length"


def test_lengths_in_words_say_only_what_can_happen() -> None:
    """The target is named beside a deal limit only when it can end the game before the limit does: a
    deal scores at most 24 for a seat (a lone emperor, doubled, BH-16.3)."""
    assert BAOHUANG is not None and BAOBEI is not None
    words = {name: lengths.choice_label(BAOHUANG, name, None) for name in ("one_deal", "short", "standard")}

    assert words == {
        "one_deal": "One deal",
        "short": "Short: 3 deals, or first to 30",
        "standard": "Standard: first to 30",
    }
    assert lengths.length_label(BAOHUANG, players=5, options={"deal_limit": 2}) == "Custom: 2 deals"
    assert lengths.length_label(BAOHUANG, players=5, options={"deal_limit": 2, "target_score": 20}) == (
        "Custom: 2 deals, or first to 20"
    )
    assert lengths.choice_label(BAOBEI, "long", None) == (
        "Long: ends at 150 points with 2 players, 120 with 3–4, 90 with 5–6"
    )
    assert lengths.choice_label(BAOBEI, "long", 5) == "Long: ends at 90 points with 5 players"
    one = lengths.length_label(BAOBEI, players=3, options={"threshold": 1})
    assert one == "Custom: ends at 1 point with 3 players"


def test_a_game_without_lengths_has_none() -> None:
    """The registry answers None for a game whose package lists no lengths (the toy engine's case)."""
    assert get_lengths("chess") is None
