"""Standing orders as the pace simulation arms them, answered by the rules' own ``standing_answer``.

An order is a dict ``{"kind": …, …}`` of the orders module's kinds. ``answer`` is the one place the
simulation asks whether an order answers a seat's open decision.
"""

from __future__ import annotations

from typing import Any

Order = dict[str, Any]


def _standing_answer() -> Any:
    try:
        from baogame.rules.orders import standing_answer
    except ImportError:  # until the rules' standing orders are merged
        from .orders_fallback import standing_answer
    return standing_answer


def answer(game: str, state: dict[str, Any], seat: int, orders: list[Order]) -> tuple[Any, list[Order]]:
    """The action the seat's orders give for its open decision (None: the seat is asked) and the
    orders left afterwards."""
    action, left = _standing_answer()(game, state, seat, orders)
    return action, list(left)
