"""What the service needs to know about a game, beside its rules: the engine's ``game_type``.

As OpenSpiel's ``GameType``: the facts that pages, forms, league tables and mail handling would
otherwise repeat per game name. Each engine exposes one as ``engine.game_type``
(``registry.get_game_type(name)``); nothing outside the engine package branches on a game's name.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameType:
    """The facts of one game that the service reads (pure data, no behaviour)."""

    #: The engine name: the registry key, ``Game.engine`` and the URL word (``baobei``).
    name: str
    #: The name people read (``Bao Bei``).
    display_name: str
    #: The seats a game takes, inclusive (BB-1.1, BH-1.1).
    min_players: int
    max_players: int
    #: Final standings rank higher totals first (BH-17.5); False: lower totals first (BB-15.5).
    high_score_wins: bool
    #: Every action carries the ``decision_id`` of the decision it answers (BB-20.3). False: an
    #: action holds only its own parameters (BH-19.1) and the service checks staleness itself.
    decision_ids: bool

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.name}: seat limits {self.min_players}-{self.max_players}")

    @property
    def fixed_players(self) -> int | None:
        """The one table size of a game that has only one (Bao Huang's 5); None otherwise."""
        return self.min_players if self.min_players == self.max_players else None

    def seats_text(self) -> str:
        """``2-6 players`` or ``5 players``: the seat limits in words."""
        if self.fixed_players is not None:
            return f"{self.fixed_players} players"
        return f"{self.min_players}-{self.max_players} players"
