"""``pending``, ``referee_view`` and per-seat ``view`` (BB-25.4 – BB-25.6, BB-30)."""

from __future__ import annotations

from typing import Any

from .cards import CODE_OF
from .flow import ALLOWED, TIMING
from .state import State, pos


def touched_positions(st: State) -> list[dict[str, int]]:
    """BB-9.6 e: the (public) positions that hold ability-touched cards."""
    t = st["touched"]
    if not t:
        return []
    return [
        pos(s, k)
        for s in st["participants"]
        for k, c in enumerate(st["displays"][s])
        if c is not None and t >> c & 1
    ]


def _public(st: State) -> dict[str, Any]:
    return {
        "round": st["round"],
        "active": st["active"],
        "discard": [CODE_OF[c] for c in st["discard"]],
        "under_discard": len(st["under"]),
        "bao_caller": st["bao_caller"],
        "shield_active": st["shield"] and st["final_phase"] is None,
        "recycles": st["recycles"],
        "final_phase": dict(st["final_phase"]) if st["final_phase"] else None,
        "round_scores": list(st["round_scores"]) if st["round_scores"] is not None else None,
        "totals": list(st["totals"]),
        "over": st["over"],
        "winners": list(st["winners"]),
        # Extras (BB-25.4 allows more keys): public facts a client needs to build its choices.
        "participants": list(st["participants"]),
        "deciding": st["deciding"],
        "threshold": st["threshold"],
        "memory_aid": st["memory_aid"],
        "ability_touched": touched_positions(st),
    }


def referee_view(st: State) -> dict[str, Any]:
    """BB-25.4: everything."""
    out = _public(st)
    out["displays"] = [[None if c is None else CODE_OF[c] for c in d] for d in st["displays"]]
    out["drawn"] = [CODE_OF[c] for c in st["drawn"]]
    out["draw"] = [CODE_OF[c] for c in st["draw"]]
    return out


def pending(st: State) -> list[dict[str, Any]]:
    """BB-25.5 1: the open decision (owners that have not answered), or ``[]`` once the game is over."""
    d = st["decision"]
    if d is None or st["over"]:
        return []
    return [
        {
            "decision_id": d["id"],
            "kind": d["kind"],
            "seats": [s for s in d["owners"] if s not in d["answered"]],
            "allowed": list(ALLOWED[d["kind"]]),
            "timing": TIMING[d["kind"]],
            "context": dict(d["context"]),
        }
    ]


def _private_context(st: State, d: dict[str, Any]) -> dict[str, Any]:
    """BB-21: the context with its owner-only items."""
    kind = d["kind"]
    if kind == "after_draw":
        return {"drawn": CODE_OF[st["drawn"][0]]}
    if kind == "macaw_decide":
        looked = []
        for p in d["data"]["positions"]:
            looked.append({"position": dict(p), "card": CODE_OF[st["displays"][p["seat"]][p["slot"]]]})
        return {"looked": looked}
    if kind == "shoebill_place":
        return {
            "drawn": [CODE_OF[c] for c in st["drawn"]],
            "own_possible": d["data"]["own_possible"],
            "opponent_possible": d["data"]["opponent_possible"],
        }
    return dict(d["context"])


def view(st: State, seat: int | None) -> dict[str, Any]:
    """BB-25.6 2: what ``seat`` may know now (``None``: a spectator)."""
    out = _public(st)
    known = st["known"][seat] if (seat is not None and st["memory_aid"]) else 0
    out["displays"] = [
        [None if c is None else (CODE_OF[c] if known >> c & 1 else "?") for c in d] for d in st["displays"]
    ]
    mine = seat is not None and st["drawn_by"] == seat
    out["drawn"] = [CODE_OF[c] if mine else "?" for c in st["drawn"]]
    out["draw"] = len(st["draw"])
    out["seat"] = seat
    d = st["decision"]
    if d is not None and not st["over"] and seat in d["owners"] and seat not in d["answered"]:
        out["decision"] = {
            "decision_id": d["id"],
            "kind": d["kind"],
            "seats": list(d["owners"]),
            "allowed": list(ALLOWED[d["kind"]]),
            "context": _private_context(st, d),
        }
    else:
        out["decision"] = None
    return out
