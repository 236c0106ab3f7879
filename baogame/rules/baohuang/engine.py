"""The Bao Huang engine object ``ENGINE`` (DESIGN.md, "The engine contract")."""

from __future__ import annotations

from typing import Any

from baogame.rules.core import seed_string
from baogame.rules.gametype import GameType

from . import legal, view
from .apply import apply_action
from .dealing import start_deal
from .options import DEFAULTS, check_options
from .state import SEATS, new_state

State = dict[str, Any]


class BaoHuangEngine:
    """Pure functions over plain-dict states; see the module docstrings for the rule numbers."""

    game_type = GameType(
        name="baohuang",
        display_name="Bao Huang",
        min_players=SEATS,  # BH-1.1: exactly five
        max_players=SEATS,
        high_score_wins=True,  # BH-17.5: highest total first
        decision_ids=False,  # BH-19.1: only the type's own parameters
    )
    name = game_type.name
    min_players = game_type.min_players
    max_players = game_type.max_players

    def default_options(self, players: int) -> dict[str, Any]:
        """BH-3.2: every rule option with its default (``target_score`` 30, ``deal_limit`` None)."""
        return dict(DEFAULTS)

    def setup(self, players: int, options: dict[str, Any], seed: str | int) -> State:
        """BH-25.1: validate the options and deal the first deal; all randomness comes from ``seed``."""
        seed_s = seed_string(seed)
        rule_options, stacked, first, totals, prev = check_options(players, options)
        state = new_state(seed_s, rule_options, stacked, first, totals, prev)
        start_deal(state, [])
        return state

    def setup_with_events(
        self, players: int, options: dict[str, Any], seed: str | int
    ) -> tuple[State, list[dict[str, Any]]]:
        """Like ``setup``, also returning the events of the first deal (deal_started, hand_dealt, …)."""
        seed_s = seed_string(seed)
        rule_options, stacked, first, totals, prev = check_options(players, options)
        state = new_state(seed_s, rule_options, stacked, first, totals, prev)
        events: list[dict[str, Any]] = []
        start_deal(state, events)
        return state, events

    def pending(self, state: State) -> list[dict[str, Any]]:
        """BH-18, BH-25.2: the open decision, with its ``decision_id``."""
        return legal.pending(state)

    def apply(self, state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
        """BH-19, BH-20: validate and apply one action; never mutates ``state``."""
        return apply_action(state, seat, action)

    def timeout_action(self, state: State, seat: int) -> dict[str, Any] | None:
        """BH-18.1, BH-18.3: the seat's default, carrying ``"timeout": true``."""
        return legal.timeout_action(state, seat)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """BH-22, BH-25.2: every legal action of the seat."""
        return legal.legal_actions(state, seat)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """BH-23: what ``seat`` (``None``: a spectator) may know now."""
        return view.view(state, seat)

    def referee_view(self, state: State) -> dict[str, Any]:
        """BH-25.3: everything, in the standard's schema."""
        return view.referee_view(state)


ENGINE = BaoHuangEngine()
