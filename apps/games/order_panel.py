"""What the game page's "Standing orders" panel shows the viewer (``templates/games/_orders.html``): the
viewer's own orders, the switches, the cards of the "play these if they beat" picker. Its form is
``views_orders``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from baogame.rules import orders as rules
from baogame.rules.baohuang.cards import STRENGTH
from baogame.rules.registry import get_engine

from .models import Game, Seat
from .order_store import listed

#: The orders with an on/off switch on the panel, per game.
SWITCHES: dict[str, tuple[tuple[str, str], ...]] = {
    "baohuang": (("pass_unbeatable", gettext_lazy("Pass when I cannot beat")),),
    "baobei": (("end_turn_when_done", gettext_lazy("End my turn when nothing is left to do")),),
}


def orders_panel(game: Game, seat: Seat | None) -> dict[str, Any]:
    """The panel's context for the viewer's seat (empty when the viewer has none or the game is not on)."""
    if seat is None or seat.user_id is None or game.status != Game.Status.ACTIVE or game.state is None:
        return {}
    held = listed(seat, game.state, game.engine)
    kinds = {o["kind"] for o in held}
    view = get_engine(game.engine).view(game.state, seat.position)
    hand = view.get("hand") if game.engine == "baohuang" else None
    return {
        "orders_panel": {
            "held": [{**o, "text": order_text(o)} for o in held],
            "switches": [(kind, label, kind in kinds) for kind, label in SWITCHES.get(game.engine, ())],
            "hand": sorted(hand or [], key=_strength),
            "in_trick": game.engine == "baohuang" and rules.trick_key(game.state) is not None,
            "ahead": game.engine == "baohuang",
        }
    }


#: The answers an order gives ahead, as the panel names them.
ANSWERS = {
    "keep": gettext_lazy("keep the marked red joker"),
    "pass": gettext_lazy("pass it on"),
    "none": gettext_lazy("no declaration"),
    "pledge": gettext_lazy("pledge my side"),
    "alone": gettext_lazy("alone (emperor)"),
}


def order_text(order: dict[str, Any]) -> str:
    """A held order in the viewer's language (``rules.describe`` is the mail's English line)."""
    kind, params = order["kind"], order.get("params") or {}
    answer = str(ANSWERS.get(params.get("answer"), params.get("answer")))
    texts = {
        "pass_unbeatable": lambda: _("pass when I cannot beat"),
        "pass_trick": lambda: _("pass to the end of this trick"),
        "play_if_beats": lambda: (
            _("play %(cards)s if it beats, else ask me") % {"cards": " ".join(params.get("cards", []))}
        ),
        "offer": lambda: (
            _("emperor offer: %(answer)s (deal %(deal)s)") % {"answer": answer, "deal": order.get("bound")}
        ),
        "declare": lambda: (
            _("declaration: %(answer)s (deal %(deal)s)") % {"answer": answer, "deal": order.get("bound")}
        ),
        "end_turn_when_done": lambda: _("end my turn when nothing is left to do"),
        "skip_windows": lambda: _("don't wait for me in windows"),
    }
    text = texts.get(kind)
    return text() if text is not None else str(order.get("text") or kind)


def _strength(code: str) -> tuple[int, bool]:
    return STRENGTH.get(code, 0), code.endswith("*")
