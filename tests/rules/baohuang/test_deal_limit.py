"""BH-3.2 and BH-17.6: the deal limit ends the game after that many deals unless the lead is shared."""

from __future__ import annotations

import pytest

from baogame.rules.baohuang import viewtext
from baogame.rules.baohuang.engine import ENGINE
from baogame.rules.baohuang.text import deal_progress
from baogame.rules.core import RuleError

from .helpers import a_game, find, keep_and_declare, order_hands, order_script, play_deal, run_script

#: E (seat 0) first, partner (seat 2) second: E +6, partner +3, the others -3 (BH-16.7).
WON = ([0, 2, 3, 1, 4], 0, 2)
#: E first, partner last: a draw, every deal score 0 (BH-16.6), so no tribute follows (BH-5.1).
DRAWN = ([0, 1, 3, 4, 2], 0, 2)


def test_limit_reached_with_a_unique_leader_ends_the_game_bh_17_6():
    """BH-17.6: with deal_limit 1 the game ends after its first deal when one seat leads, though no
    total has reached the target."""
    state, events = play_deal(*WON, deal_limit=1)

    over = find(events, "game_over")
    assert state["over"] and over["winner"] == 0
    assert find(events, "deal_ended")["totals"] == [6, -3, 3, -3, -3]
    assert max(state["totals"]) < state["options"]["target_score"]
    assert ENGINE.pending(state) == []
    assert ENGINE.view(state, None)["deals_played"] == 1


def test_below_the_limit_and_the_target_the_game_goes_on_bh_17_4():
    """BH-17.4, BH-17.6: one deal of a two-deal limit played, target not reached: the next deal."""
    state, events = play_deal(*WON, deal_limit=2)

    assert not state["over"] and state["deal"] == 2
    assert not any(e["type"] == "game_over" for e in events)
    assert ENGINE.view(state, 3)["deals_played"] == 2


def test_a_shared_lead_at_the_limit_plays_on_until_it_is_not_bh_17_3_bh_17_6():
    """BH-17.6 with BH-17.3: the limit is reached with seats 0 and 1 tied on top, so a further deal is
    played; after it one seat leads alone and the game ends at once."""
    second_deal = order_hands(*WON)
    state, events = play_deal(*DRAWN, deal_limit=1, start={"totals": [5, 5, 0, 0, 0]}, deals=[second_deal])

    assert find(events, "deal_ended")["totals"] == [5, 5, 0, 0, 0]
    assert not state["over"] and state["deal"] == 2
    view = ENGINE.view(state, None)
    assert (view["deal_limit"], view["deals_played"]) == (1, 2)

    state, ev1 = keep_and_declare(state)
    state, ev2 = run_script(state, order_script(*WON))

    assert state["over"] and find(ev1 + ev2, "game_over")["winner"] == 0
    assert state["totals"] == [11, 2, 3, -3, -3]


def test_target_reached_before_the_limit_ends_the_game_bh_17_2_bh_17_6():
    """BH-17.6: the target still ends the game before the limit (here after deal 1 of 3)."""
    state, events = play_deal(*WON, deal_limit=3, target=6)

    assert state["over"] and find(events, "game_over")["winner"] == 0
    assert ENGINE.view(state, 0)["deals_played"] == 1


def test_the_limit_counts_the_deals_of_a_game_that_starts_later_bh_17_6_bh_25_5():
    """BH-17.6, BH-25.5: deals 1-3 were not played, so a game starting at deal 4 with limit 1 ends after
    deal 4."""
    state, events = play_deal(*WON, deal_limit=1, start={"deal": 4})

    assert state["over"] and find(events, "deal_ended")["deal"] == 4


@pytest.mark.parametrize("limit", [0, -1, True, "3", 1.5, [2]])
def test_a_bad_deal_limit_is_refused_bh_3_2_bh_25_1(limit):
    """BH-3.2, BH-25.1: deal_limit is an integer >= 1 or null; anything else is invalid_options."""
    with pytest.raises(RuleError) as info:
        ENGINE.setup(5, {"deal_limit": limit}, "limits")

    assert info.value.code == "invalid_options"


def test_deal_limit_defaults_to_none_and_accepts_null_and_integers_bh_3_2():
    """BH-3.2: default null (no limit); a game without a limit keeps exactly the state it had before the
    option existed."""
    assert ENGINE.default_options(5)["deal_limit"] is None

    plain = ENGINE.setup(5, {}, "limits")
    assert ENGINE.setup(5, {"deal_limit": None}, "limits") == plain
    assert plain["options"] == {"target_score": 30}
    assert ENGINE.setup(5, {"deal_limit": 7}, "limits")["options"] == {"target_score": 30, "deal_limit": 7}


def test_the_limit_and_the_deals_played_are_in_every_view_bh_17_6_bh_23():
    """BH-17.6, BH-23.12: the limit and the number of deals played are public: every seat and a
    spectator see the same values."""
    state = a_game(order_hands(*WON), deal_limit=3)

    views = [ENGINE.view(state, seat) for seat in [None, 0, 1, 2, 3, 4]]

    assert {(v["deal_limit"], v["deals_played"]) for v in views} == {(3, 1)}
    unlimited = ENGINE.view(a_game(order_hands(*WON)), None)
    assert (unlimited["deal_limit"], unlimited["deals_played"]) == (None, 1)


def test_deal_progress_in_words_bh_17_6():
    """The page and the mail say which deal of the limit is under way, and when a deal is an extra."""
    assert deal_progress({"deal": 2, "deal_limit": None, "deals_played": 2}) == "Deal 2"
    assert deal_progress({"deal": 2, "deal_limit": 3, "deals_played": 2}) == "Deal 2 of 3"
    assert deal_progress({"deal": 4, "deal_limit": 3, "deals_played": 4}) == (
        "Deal 4 (extra: the lead was shared after 3)"
    )
    state = a_game(order_hands(*WON), deal_limit=3)
    lines = viewtext.view_lines(ENGINE.view(state, 1), 1, ["a", "b", "c", "d", "e"])
    assert lines[0].startswith("Deal 1 of 3; totals:")
