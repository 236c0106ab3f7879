"""The engine contract shared by both games (DESIGN.md, "The engine contract").

Everything here is pure Python: no Django, no I/O. State is plain JSON-compatible data,
actions are wire-format dicts, events are dicts with a ``visible_to`` field.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from .gametype import GameType

JSON = Any
State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
Decision = dict[str, Any]

T = TypeVar("T")


class RuleError(Exception):
    """An illegal action or invalid options.

    ``code`` is the stable error code of the rules file; ``message`` is human-readable text that
    describes the request and never names a card the sender may not know.
    """

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code

    def to_json(self) -> dict[str, str]:
        """The ``{"code", "detail"}`` body the service returns for a refused action."""
        return {"code": self.code, "detail": self.message}


@runtime_checkable
class Engine(Protocol):
    """What ``get_engine(name)`` returns. See DESIGN.md for the meaning of each member."""

    game_type: GameType
    name: str
    min_players: int
    max_players: int

    def default_options(self, players: int) -> dict[str, Any]: ...

    def setup(self, players: int, options: dict[str, Any], seed: str | int) -> State: ...

    def pending(self, state: State) -> list[Decision]: ...

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]: ...

    def timeout_action(self, state: State, seat: int) -> Action | None: ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def referee_view(self, state: State) -> dict[str, Any]: ...


def is_int(value: Any) -> bool:
    """A JSON integer: an ``int`` but not a ``bool`` (which Python counts as one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def start_number(start: dict[str, Any], key: str) -> int:
    """The round or deal a ``start`` option begins at (BB-25.3, BH-25.5): an integer >= 1, 1 when
    absent; ``invalid_options`` otherwise."""
    number = start.get(key, 1)
    if not is_int(number) or number < 1:
        raise RuleError("invalid_options", f"start.{key} must be an integer >= 1")
    return int(number)


def start_totals(start: dict[str, Any], seats: int, what: str) -> list[int]:
    """The running totals of a ``start`` option (BB-25.3, BH-25.5): one integer per seat, zeros when
    absent; ``invalid_options`` saying they must be ``what`` otherwise."""
    totals = start.get("totals", [0] * seats)
    if not isinstance(totals, list) or len(totals) != seats or not all(is_int(t) for t in totals):
        raise RuleError("invalid_options", f"start.totals must be {what}")
    return list(totals)


def seed_string(seed: str | int) -> str:
    """BB-25.9 1 / BH-25.8 1: an integer seed stands for its decimal string."""
    if isinstance(seed, bool) or not isinstance(seed, (str, int)):
        raise RuleError("invalid_options", "the seed must be a string or an integer")
    return str(seed)


def seeded_shuffle(cards: Sequence[T], key: str) -> list[T]:
    """Shuffle ``cards`` (given in canonical order) with a fresh ``random.Random(key)``.

    BB-25.9 2 / BH-25.8 2: one generator per step, exactly one call on it. The first entry of the
    result is the top card.
    """
    out = list(cards)
    random.Random(key).shuffle(out)
    return out


def seeded_choice(m: int, key: str) -> int:
    """One ``randrange(m)`` on a fresh ``random.Random(key)`` (BB-25.9 4)."""
    return random.Random(key).randrange(m)


def visible(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` (``None`` = spectator) may see ``event``."""
    to = event.get("visible_to", "all")
    if to == "all":
        return True
    return seat is not None and seat in to
