"""Standing orders, stored (DESIGN.md "Standing orders"; the rules are ``baogame.rules.orders``).

A seat's orders are ``StandingOrder`` rows of its current player. The pipeline asks ``answer`` for the
seats that own an open decision right after every move (``pipeline.auto_answer``), in the same
transaction, and applies what the orders give exactly like an answer the player sent. Setting and
clearing them is ``orders``.

Private: only the owner reads them (``listed``); nothing here is ever told to another seat. The on/off
orders that the pipeline does not consult keep their own storage on the seat (``SEAT_SWITCHES``): Bao
Bei's "don't wait for me in windows" (``Seat.skip_pluck_windows``) and, in both games, "if I miss a
sitting, the bot plays my seat until I arrive" (``Seat.sitting_bot``, read by the sittings).
"""

from __future__ import annotations

from typing import Any

from baogame.rules import orders as rules

from .models import Seat, StandingOrder
from .sentences import localize
from .store import LockedGame

Order = dict[str, Any]

#: Orders kept on the seat: kind -> (the games that have it, the seat's field).
SEAT_SWITCHES: dict[str, tuple[tuple[str, ...], str]] = {
    "skip_windows": (("baobei",), "skip_pluck_windows"),
    "sitting_bot": (("baobei", "baohuang"), "sitting_bot"),
}


def load(seat: Seat) -> list[Order]:
    """The seat's stored orders (those of its current player), as ``baogame.rules.orders`` records."""
    if not seat.has_orders or seat.user_id is None:
        return []
    rows = StandingOrder.objects.filter(seat=seat, user_id=seat.user_id).order_by("id")
    return [{"kind": r.kind, "params": r.params, "bound": r.bound or None} for r in rows]


def store(seat: Seat, orders: list[Order]) -> None:
    """Replace the seat's stored orders with ``orders`` (``skip_windows`` is not stored here)."""
    StandingOrder.objects.filter(seat=seat).delete()
    kept = [o for o in orders if o["kind"] not in SEAT_SWITCHES]
    if kept and seat.user_id is not None:
        StandingOrder.objects.bulk_create(
            StandingOrder(
                seat=seat, user_id=seat.user_id, kind=o["kind"], params=o["params"], bound=o["bound"] or ""
            )
            for o in kept
        )
    has = bool(kept) and seat.user_id is not None
    if has != seat.has_orders:
        seat.has_orders = has
        Seat.objects.filter(pk=seat.pk).update(has_orders=has)


def answer(locked: LockedGame, seat: Seat) -> dict[str, Any] | None:
    """The action the seat's orders answer its open decision with now (None: ask the player).

    Orders used up or found illegal are dropped on the way (``baogame.rules.orders.standing_answer``).
    """
    if not seat.has_orders or seat.played_by_bot or seat.user_id is None:
        return None
    held = load(seat)
    action, left = rules.standing_answer(locked.game.engine, locked.state, seat.position, held)
    if left != held:
        store(seat, left)
    return action


#: The orders that only a table with sittings has (``people.table_of_one``: none against bots).
SITTING_KINDS = frozenset({"sitting_bot"})


def listed(seat: Seat, state: dict[str, Any] | None, engine: str, *, sittings: bool = True) -> list[Order]:
    """The seat's orders as its owner sees them (the ones still standing), with a ``text`` each.

    ``sittings`` False: the table can have no sittings (``people.table_of_one``), so an order about them
    (``SITTING_KINDS``) is left out. One stored before such orders were refused there stays on the seat,
    dormant and harmless: no sitting can be agreed at that table, so it never acts, and it is not shown
    (withdrawing or clearing the orders still clears it). Should the table gain a second person (a
    substitute in a bot account's seat), it is its owner's order again, shown and acting.
    """
    held = load(seat)
    if state is not None:
        held = rules.alive(engine, state, seat.position, held)
    for kind, (games, field) in SEAT_SWITCHES.items():
        if engine in games and getattr(seat, field) and (sittings or kind not in SITTING_KINDS):
            held.append({"kind": kind, "params": {}, "bound": None})
    return [{**o, "text": localize(rules.describe_text(o))} for o in held]
