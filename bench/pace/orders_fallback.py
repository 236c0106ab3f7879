"""A stand-in for the rules' standing orders while they are not there yet (same call, same kinds)."""

from __future__ import annotations

from typing import Any

from baogame.rules.baohuang.cards import to_counts
from baogame.rules.baohuang.combos import plays


def _trick(state: dict[str, Any]) -> list[Any]:
    first = state["trick"][0] if state.get("trick") else None
    return [state["deal"], state["leader"], first and first["seat"], first and list(first["cards"])]


def standing_answer(
    game: str, state: dict[str, Any], seat: int, orders: list[dict[str, Any]]
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    pending = [d for d in _pending(game, state) if seat in d["seats"]]
    if not pending:
        return None, orders
    decision = pending[0]
    kinds = {o["kind"]: o for o in orders}
    if game == "baohuang":
        if decision["kind"] == "turn" and "pass" in decision["allowed"]:
            if "pass_trick" in kinds and kinds["pass_trick"].get("trick") in (None, _trick(state)):
                return {"type": "pass"}, orders
            if "pass_unbeatable" in kinds:
                view = _view(state, seat)
                if not plays(to_counts(view["hand"]), to_counts(view["top"]["cards"])):
                    return {"type": "pass"}, orders
        if decision["timing"] == "declare":
            for o in orders:
                if (
                    o["kind"] in ("offer_ahead", "declare_ahead")
                    and o["answer"]["type"] in decision["allowed"]
                ):
                    return dict(o["answer"]), [x for x in orders if x is not o]
        return None, orders
    if (
        decision["kind"] == "end_turn"
        and decision["allowed"] == ["end_turn"]
        and "end_turn_when_done" in kinds
    ):
        return {"type": "end_turn", "decision_id": decision["decision_id"], "bao": False}, orders
    if decision["kind"] == "pluck_window" and "skip_windows" in kinds:
        return {"type": "pass", "decision_id": decision["decision_id"]}, orders
    return None, orders


def _pending(game: str, state: dict[str, Any]) -> list[dict[str, Any]]:
    from baogame.rules.registry import get_engine

    return get_engine(game).pending(state)


def _view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    from baogame.rules.registry import get_engine

    return get_engine("baohuang").view(state, seat)
