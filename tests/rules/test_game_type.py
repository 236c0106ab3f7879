"""Each engine's ``GameType`` states what its rules file says, and the engine plays by it."""

from __future__ import annotations

import dataclasses

import pytest

from baogame.rules.baobei import scoring as baobei_scoring
from baogame.rules.baohuang import scoring as baohuang_scoring
from baogame.rules.core import RuleError
from baogame.rules.gametype import GameType
from baogame.rules.registry import ENGINES, game_types, get_engine, get_game_type

BAOBEI = get_game_type("baobei")
BAOHUANG = get_game_type("baohuang")


def test_every_registered_engine_has_a_game_type_under_its_own_name() -> None:
    """The registry key, the engine's ``name`` and its game type's ``name`` are one word."""
    for name in ENGINES:
        engine = get_engine(name)

        assert isinstance(engine.game_type, GameType)
        assert engine.game_type.name == engine.name == name
        assert (engine.min_players, engine.max_players) == (
            engine.game_type.min_players,
            engine.game_type.max_players,
        )
    assert [t.name for t in game_types()] == list(ENGINES)


def test_bao_bei_takes_2_to_6_players_bb_1_1() -> None:
    """BB-1.1: "A game has 2 to 6 players."; setup refuses any other count."""
    engine = get_engine("baobei")

    assert (BAOBEI.min_players, BAOBEI.max_players, BAOBEI.fixed_players) == (2, 6, None)
    assert BAOBEI.seats_text() == "2-6 players"
    for players in range(BAOBEI.min_players, BAOBEI.max_players + 1):
        engine.setup(players, {}, "seats")
    for players in (1, 7):
        with pytest.raises(RuleError) as refused:
            engine.setup(players, {}, "seats")
        assert refused.value.code == "invalid_options"


def test_bao_huang_takes_exactly_5_players_bh_1_1() -> None:
    """BH-1.1: "A game has exactly five players"; setup refuses 4 and 6."""
    engine = get_engine("baohuang")

    assert (BAOHUANG.min_players, BAOHUANG.max_players, BAOHUANG.fixed_players) == (5, 5, 5)
    assert BAOHUANG.seats_text() == "5 players"
    engine.setup(5, {}, "seats")
    for players in (4, 6):
        with pytest.raises(RuleError) as refused:
            engine.setup(players, {}, "seats")
        assert refused.value.code == "invalid_options"


def test_bao_bei_ranks_the_lowest_total_first_bb_15_5() -> None:
    """BB-15.5: "Players are ranked by ascending running total" (no deciding round here)."""
    state = {"n": 3, "totals": [30, 10, 20], "deciding_results": []}

    ranking = baobei_scoring.standings(state)

    assert BAOBEI.high_score_wins is False
    assert [row["seat"] for row in ranking] == [1, 2, 0]


def test_bao_huang_ranks_the_highest_total_first_bh_17_5() -> None:
    """BH-17.5: "Final standings list the seats by total, highest first"."""
    ranking = baohuang_scoring.standings([12, 40, 5, 30, 20])

    assert BAOHUANG.high_score_wins is True
    assert [row["seat"] for row in ranking] == [1, 3, 4, 0, 2]


def test_bao_bei_actions_carry_their_decision_id_bb_20_3() -> None:
    """BB-20.3: an action contains ``"decision_id"``; one without it is refused."""
    engine = get_engine("baobei")
    state = engine.setup(3, {}, "ids")
    seat = engine.pending(state)[0]["seats"][0]
    action = engine.legal_actions(state, seat)[0]
    bare = {k: v for k, v in action.items() if k != "decision_id"}

    assert BAOBEI.decision_ids is True
    assert "decision_id" in action
    with pytest.raises(RuleError) as refused:
        engine.apply(state, seat, bare)
    assert refused.value.code == "malformed_action"


def test_bao_huang_actions_hold_only_their_parameters_bh_19_1() -> None:
    """BH-19.1: exactly the parameters of the type: an added ``decision_id`` is refused."""
    engine = get_engine("baohuang")
    state = engine.setup(5, {}, "ids")
    seat = engine.pending(state)[0]["seats"][0]
    action = engine.legal_actions(state, seat)[0]

    assert BAOHUANG.decision_ids is False
    assert "decision_id" not in action
    engine.apply(state, seat, action)
    with pytest.raises(RuleError) as refused:
        engine.apply(state, seat, {**action, "decision_id": "1.1"})
    assert refused.value.code == "malformed_action"


def test_the_display_names_are_the_rules_titles() -> None:
    assert (BAOBEI.display_name, BAOHUANG.display_name) == ("Bao Bei", "Bao Huang")


def test_a_game_type_is_frozen_and_refuses_impossible_seat_limits() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        BAOBEI.min_players = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="seat limits"):
        GameType(
            name="x", display_name="X", min_players=4, max_players=3, high_score_wins=False, decision_ids=True
        )
