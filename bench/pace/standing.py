"""Standing orders as the pace simulation arms them, answered by the rules' own ``standing_answer``.

Orders are the rules' own records (``baogame.rules.orders.make_order``). ``answer`` is the one place the
simulation asks whether an order answers a seat's open decision; ``make`` and ``arm`` build them.
"""

from __future__ import annotations

from typing import Any

from baogame.rules import orders as orders_rules

Order = dict[str, Any]


def answer(game: str, state: dict[str, Any], seat: int, orders: list[Order]) -> tuple[Any, list[Order]]:
    """The action the seat's orders give for its open decision (None: the seat is asked) and the
    orders left afterwards."""
    action, left = orders_rules.standing_answer(game, state, seat, orders)
    return action, list(left)


def make(
    game: str, state: dict[str, Any], seat: int, kind: str, params: dict[str, Any] | None = None
) -> Order:
    """An order of ``seat`` armed now (bound to its trick or deal, as the site binds it)."""
    return orders_rules.make_order(game, state, seat, kind, params)


def arm(game: str, state: dict[str, Any], seat: int, orders: list[Order], kind: str) -> list[Order]:
    """``orders`` with a new order of ``kind`` (replacing one of the same kind)."""
    return orders_rules.arm(game, state, seat, orders, kind)


#: The bots' answers to the emperor offer and the declaration, as the orders' answers (BH-6.2, BH-8).
AHEAD = {
    "keep_emperor": ("offer", "keep"),
    "pass_emperor": ("offer", "pass"),
    "no_declaration": ("declare", "none"),
    "pledge": ("declare", "pledge"),
    "declare_alone": ("declare", "alone"),
}
