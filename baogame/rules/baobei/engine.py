"""The Bao Bei engine object returned by ``get_engine("baobei")`` (DESIGN.md, "The engine contract")."""

from __future__ import annotations

from typing import Any

from baogame.rules.gametype import GameType

from . import flow, legal, setup
from . import view as views
from .apply import advance
from .apply import apply as _apply
from .defaults import timeout_action as _timeout_action
from .state import State


class BaoBeiEngine:
    """Bao Bei for 2–6 players, per rules/baobei.md."""

    game_type = GameType(
        name="baobei",
        display_name="Bao Bei",
        min_players=2,  # BB-1.1
        max_players=6,
        high_score_wins=False,  # BB-15.5: ranked by ascending running total
        decision_ids=True,  # BB-20.3
    )
    name = game_type.name
    min_players = game_type.min_players
    max_players = game_type.max_players

    def default_options(self, players: int) -> dict[str, Any]:
        """BB-25.1: ``{"threshold": T, "memory_aid": true}``."""
        return setup.default_options(players)

    def setup(self, players: int, options: dict[str, Any], seed: str | int) -> State:
        """BB-3 / BB-25: a new game, round 1 (or ``start.round``) dealt and opened."""
        st = setup.new_game(players, options, seed)
        flow.open_round(st, [])
        advance(st, [])
        return st

    def pending(self, state: State) -> list[dict[str, Any]]:
        """BB-25.5 1."""
        return views.pending(state)

    def apply(self, state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
        """Validate and apply one action (BB-22); never mutates ``state``."""
        return _apply(state, seat, action)

    def timeout_action(self, state: State, seat: int) -> dict[str, Any] | None:
        """BB-25.5 3."""
        return _timeout_action(state, seat)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """BB-25.5 2."""
        return legal.legal_actions(state, seat)

    def legal_page(
        self, state: State, seat: int, offset: int, limit: int
    ) -> tuple[int, list[dict[str, Any]]]:
        """``(len(legal_actions), legal_actions[offset:offset + limit])``, without building every
        double pluck (an optional addition to the contract that the API uses when an engine has it)."""
        return legal.legal_page(state, seat, offset, limit)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """BB-25.6."""
        return views.view(state, seat)

    def referee_view(self, state: State) -> dict[str, Any]:
        """BB-25.4."""
        return views.referee_view(state)


ENGINE = BaoBeiEngine()
