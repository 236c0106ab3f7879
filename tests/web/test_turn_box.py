"""The Bao Huang turn box says that plays exist and how to pick them, however many there are."""

from __future__ import annotations

from typing import Any

from apps.games.presenters import present
from apps.games.presenters.baohuang import MAX_QUICK_PLAYS
from baogame.rules.registry import get_engine
from tests.support.bh_turns import MANY_BEATS_DEAL, MANY_PLAYS_DEAL

NAMES = ["ann", "ben", "cy", "dan", "eve"]


def _first_lead(deal: dict[str, Any] = MANY_PLAYS_DEAL) -> tuple[Any, dict[str, Any], int]:
    engine = get_engine("baohuang")
    state = engine.setup(5, {"deal": deal}, "turn-box")
    while engine.pending(state)[0]["kind"] != "turn":
        d = engine.pending(state)[0]
        for s in d["seats"]:
            action = engine.timeout_action(state, s)
            action.pop("timeout", None)
            state, _ = engine.apply(state, s, action)
    return engine, state, engine.pending(state)[0]["seats"][0]


def _board(engine: Any, state: dict[str, Any], seat: int) -> dict[str, Any]:
    return present(
        engine="baohuang",
        view=engine.view(state, seat),
        seat=seat,
        names=NAMES,
        legal=engine.legal_actions(state, seat),
    )["decision"]


def test_a_lead_with_more_plays_than_quick_buttons_counts_them_and_marks_the_cards_bh_10():
    """BH-10: the leader may play any cards of one rank with jokers; with 87 such plays there are no
    quick-play buttons, and the box still says plays exist, how many, and which cards make them."""
    engine, state, seat = _first_lead()

    decision = _board(engine, state, seat)

    assert decision["play_count"] == 87 > MAX_QUICK_PLAYS
    assert decision["quick_plays"] == []
    assert decision["play_hint"].startswith("You lead: 87 possible plays: pick cards in your hand")
    assert "quick play" not in decision["play_hint"]
    assert set(decision["usable_cards"]) == set(engine.view(state, seat)["hand"])


def test_beating_plays_are_counted_and_only_their_cards_are_marked_bh_11():
    """BH-11: a play beats the top with as many higher cards; only cards that can be part of one are
    marked, and quick plays are offered when they are few."""
    engine, state, seat = _first_lead()
    state, _ = engine.apply(state, seat, {"type": "play", "cards": ["6"]})
    beater = engine.pending(state)[0]["seats"][0]

    decision = _board(engine, state, beater)

    plays = [a for a in engine.legal_actions(state, beater) if a["type"] == "play"]
    assert decision["play_count"] == len(plays) > 0
    assert decision["play_hint"].startswith(f"{len(plays)} play")
    assert "beat the top" in decision["play_hint"] and decision["play_hint"].endswith("or use a quick play.")
    assert set(decision["usable_cards"]) == {c for p in plays for c in p["cards"]}
    assert "6" not in decision["usable_cards"]
    assert len(decision["quick_plays"]) == len(plays)


def test_more_beating_plays_than_quick_buttons_are_counted_not_left_to_a_lone_pass_bh_11():
    """BH-11, a case once met (32 plays, only "Pass" shown): seat 1 has 25 ways to beat 6 6,
    more than MAX_QUICK_PLAYS; the box says so and marks every card that can make one."""
    engine, state, seat = _first_lead(MANY_BEATS_DEAL)
    state, _ = engine.apply(state, seat, {"type": "play", "cards": ["6", "6"]})
    beater = engine.pending(state)[0]["seats"][0]

    decision = _board(engine, state, beater)

    plays = [a for a in engine.legal_actions(state, beater) if a["type"] == "play"]
    assert decision["play_count"] == len(plays) == 25 > MAX_QUICK_PLAYS
    assert decision["quick_plays"] == [] and decision["can_pass"]
    assert decision["play_hint"].startswith("25 plays beat the top: pick cards in your hand")
    assert "quick play" not in decision["play_hint"]
    assert set(decision["usable_cards"]) == set(engine.view(state, beater)["hand"])


def test_with_nothing_that_beats_the_box_says_pass_bh_11():
    engine, state, seat = _first_lead()
    state, _ = engine.apply(state, seat, {"type": "play", "cards": ["RJ"]})
    beater = engine.pending(state)[0]["seats"][0]

    decision = _board(engine, state, beater)

    assert decision["play_count"] == 0 and decision["usable_cards"] == []
    assert decision["play_hint"] == "Nothing in your hand beats the top: pass."
