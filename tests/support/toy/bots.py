"""Bots for the toy engine: play the highest card, always snap."""

from __future__ import annotations

import random
from typing import Any


def greedy(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    d = view["decision"]
    if d["kind"] == "turn":
        return {"type": "play", "decision_id": d["decision_id"], "card": max(view["hand"])}
    return {"type": rng.choice(["snap", "pass"]), "decision_id": d["decision_id"]}


BOTS = {"greedy": greedy}
DEFAULT_BOT = "greedy"
