"""Default actions applied at a deadline (BB-24, BB-25.5 3)."""

from __future__ import annotations

from typing import Any

from .abilities import default_shoebill
from .state import State, can_draw, occupied


def owns_open(st: State, seat: Any) -> bool:
    """Whether ``seat`` owns the open decision and has not answered it."""
    d = st["decision"]
    return d is not None and seat in d["owners"] and seat not in d["answered"]


def timeout_action(st: State, seat: int) -> dict[str, Any] | None:
    """BB-25.5 3: BB-24's default for the seat's open decision, with ``"timeout": true``."""
    if not owns_open(st, seat):
        return None
    d = st["decision"]
    kind = d["kind"]
    act: dict[str, Any] = {"decision_id": d["id"]}
    if kind == "setup_peek":
        act.update(type="choose_peek", slots=[0, 1])
    elif kind == "turn_action":
        if can_draw(st):
            act.update(type="draw")
        else:
            act.update(type="take_discard", slot=occupied(st, seat)[0])
    elif kind == "after_draw":
        act.update(type="discard")
    elif kind == "pluck_window":
        act.update(type="pass")
    elif kind == "ability":
        act.update(type="decline_ability")
    elif kind == "macaw_decide":
        act.update(type="macaw_decide", swap=False)
    elif kind == "shoebill_place":
        act.update(type="shoebill_place", **default_shoebill(st, seat, d["data"]))
    elif kind == "end_turn":
        act.update(type="end_turn", bao=False)
    act["timeout"] = True
    return act
