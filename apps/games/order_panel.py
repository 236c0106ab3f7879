"""What the game page's "Standing orders" panel shows the viewer (``templates/games/_orders.html``): the
viewer's own orders, the switches, the cards of the "play these if they beat" picker. Its form is
``views_orders``.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise as StrPromise
from django.utils.translation import gettext_lazy as _

from baogame.rules import orders as rules
from baogame.rules.baohuang.cards import STRENGTH
from baogame.rules.registry import get_engine

from .models import Game, Seat
from .order_store import listed
from .people import table_of_one

#: The orders with an on/off switch on the panel, per game.
SITTING_BOT = ("sitting_bot", _("If I miss a sitting, the bot plays my seat until I arrive"))
SWITCHES: dict[str, tuple[tuple[str, str | StrPromise], ...]] = {
    "baohuang": (("pass_unbeatable", _("Pass when I cannot beat")), SITTING_BOT),
    "baobei": (("end_turn_when_done", _("End my turn when nothing is left to do")), SITTING_BOT),
}


def orders_panel(game: Game, seat: Seat | None) -> dict[str, Any]:
    """The panel's context for the viewer's seat (empty when the viewer has none or the game is not on)."""
    if seat is None or seat.user_id is None or game.status != Game.Status.ACTIVE or game.state is None:
        return {}
    alone = table_of_one(game.seats.all())
    held = listed(seat, game.state, game.engine, sittings=not alone)
    kinds = {o["kind"] for o in held}
    view = get_engine(game.engine).view(game.state, seat.position)
    hand = view.get("hand") if game.engine == "baohuang" else None
    return {
        "orders_panel": {
            "held": held,
            "switches": [
                (kind, label, kind in kinds)
                for kind, label in SWITCHES.get(game.engine, ())
                # no sitting to miss against bots: no switch, and an order stored there before is not shown
                if kind != SITTING_BOT[0] or not alone
            ],
            "hand": sorted(hand or [], key=_strength),
            "in_trick": game.engine == "baohuang" and rules.trick_key(game.state) is not None,
            # the answers ahead that have a deal to be for (none for a next deal that is not due)
            "ahead": [k for k in rules.ANSWERS if rules.answer_ahead_deal(game.state, k) is not None]
            if game.engine == "baohuang"
            else [],
        }
    }


def _strength(code: str) -> tuple[int, bool]:
    return STRENGTH.get(code, 0), code.endswith("*")
