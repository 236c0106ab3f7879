"""An independent tracker of what each seat has seen, built only from the events it received
(BB-25.6 1, BB-31). Used by the leak tests to check every view."""

from __future__ import annotations

from typing import Any

from baogame.rules.core import visible

Pos = tuple[int, int]


def _p(d: dict[str, int]) -> Pos:
    return (d["seat"], d["slot"])


class Tracker:
    """Per-seat ``{position: card}`` knowledge, updated from the events visible to that seat."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.known: dict[Pos, str] = {}
        self.drawn: str | None = None

    def feed(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            if visible(e, self.seat):
                self._one(e)

    def _move(self, src: Pos, dst: Pos) -> None:
        card = self.known.pop(src, None)
        if card is None:
            self.known.pop(dst, None)
        else:
            self.known[dst] = card

    def _swap(self, a: Pos, b: Pos) -> None:
        ca, cb = self.known.pop(a, None), self.known.pop(b, None)
        if ca is not None:
            self.known[b] = ca
        if cb is not None:
            self.known[a] = cb

    def _one(self, e: dict[str, Any]) -> None:  # noqa: C901 - one branch per event type
        t = e["type"]
        private = e.get("private", False)
        if t == "round_started":
            self.known = {}
        elif t == "setup_peek_chosen":
            for k, c in zip(e["slots"], e["cards"], strict=True):
                self.known[(e["seat"], k)] = c
        elif t == "drew" and private:
            self.drawn = e["card"]
        elif t == "kept":
            if e["seat"] == self.seat:
                self.known[(e["seat"], e["slot"])] = self.drawn
            else:
                self.known.pop((e["seat"], e["slot"]), None)
        elif t == "took_discard":
            self.known[(e["seat"], e["slot"])] = e["card"]
        elif t == "pluck_resolved":
            targets = [_p(x) for x in e["targets"]]
            if e["success"]:
                for x in targets:
                    self.known.pop(x, None)
                for x, g in zip(targets, e["gifts"], strict=True):
                    if g is not None:
                        self._move((e["seat"], g), x)
            else:
                for x, c in zip(targets, e["cards"], strict=True):
                    self.known[x] = c
        elif t in ("penalty_added", "toco_added"):
            seat = e["seat"] if t == "penalty_added" else e["target_seat"]
            if e["slot"] is not None:
                self.known.pop((seat, e["slot"]), None)
        elif (t == "peeked" and private) or t == "revealed":
            self.known[_p(e["position"])] = e["card"]
        elif t == "blind_swapped" or (t == "macaw_decided" and e["swap"]):
            self._swap(_p(e["positions"][0]), _p(e["positions"][1]))
        elif t == "macaw_looked" and private:
            for x, c in zip(e["positions"], e["cards"], strict=True):
                self.known[_p(x)] = c
        elif t == "shoebill_placed":
            if private:
                for item in e["placed"]:
                    self.known[_p(item["position"])] = item["card"]
            else:
                for x in e["replaced"]:
                    self.known.pop(_p(x), None)
