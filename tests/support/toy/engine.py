"""A tiny engine implementing the contract, to test the service apart from the real games.

"Toy": 2-4 seats, each dealt 3 private cards (ints 1-9) from a seeded deck. On its turn the active
seat plays one card from its hand (``{"type": "play", "decision_id", "card": n}``); then every other
seat holding cards owns a ``reaction`` window (``snap`` or ``pass``, multi-owner, first snap closes it).
A seat that snaps discards its lowest card. The game ends when the active player has no card.
Timeout actions: play the lowest card; pass.
"""

from __future__ import annotations

import copy
from typing import Any

from baogame.rules.core import RuleError, seed_string, seeded_shuffle
from baogame.rules.gametype import GameType


class ToyEngine:
    game_type = GameType(
        name="toy", display_name="Toy", min_players=2, max_players=4, high_score_wins=False, decision_ids=True
    )
    name = game_type.name
    min_players = game_type.min_players
    max_players = game_type.max_players

    def default_options(self, players: int) -> dict[str, Any]:
        return {"hand": 3}

    def setup(self, players: int, options: dict[str, Any], seed: str | int) -> dict[str, Any]:
        if set(options) - {"hand"} or not isinstance(options.get("hand", 3), int):
            raise RuleError("invalid_options", "unknown option")
        hand = options.get("hand", 3)
        deck = seeded_shuffle(list(range(1, 10)) * 2, f"toy:{seed_string(seed)}:deal")
        hands = [sorted(deck[i * hand : (i + 1) * hand]) for i in range(players)]
        return {
            "n": players,
            "hands": hands,
            "active": 0,
            "window": None,
            "counter": 0,
            "played": [],
            "snaps": [0] * players,
            "over": False,
            "seed": seed_string(seed),
        }

    def pending(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        if state["over"]:
            return []
        if state["window"] is not None:
            w = state["window"]
            return [
                {
                    "decision_id": f"d{state['counter']}",
                    "kind": "window",
                    "seats": w["seats"],
                    "allowed": ["snap", "pass"],
                    "timing": "reaction",
                    "context": {"card": w["card"]},
                }
            ]
        return [
            {
                "decision_id": f"d{state['counter']}",
                "kind": "turn",
                "seats": [state["active"]],
                "allowed": ["play"],
                "timing": "turn",
                "context": {},
            }
        ]

    def apply(
        self, state: dict[str, Any], seat: int, action: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if not isinstance(action, dict) or "type" not in action:
            raise RuleError("malformed_action", "not an action")
        decisions = self.pending(state)
        if not decisions:
            raise RuleError("game_over", "the game is over")
        decision = decisions[0]
        if action.get("decision_id") != decision["decision_id"]:
            raise RuleError("stale_decision", "that decision is not open")
        if seat not in decision["seats"]:
            raise RuleError("not_your_turn", "not your decision")
        if action["type"] not in decision["allowed"]:
            raise RuleError("action_not_allowed", "not allowed now")
        new = copy.deepcopy(state)
        extra = {"by_timeout": True} if action.get("timeout") else {}
        events: list[dict[str, Any]] = []
        if action["type"] == "play":
            card = action.get("card")
            if card not in new["hands"][seat]:
                raise RuleError("card_not_in_hand", "you do not hold that card")
            new["hands"][seat].remove(card)
            new["played"].append(card)
            events.append({"type": "played", "visible_to": "all", "seat": seat, "card": card, **extra})
            events.append({"type": "hand", "visible_to": [seat], "cards": list(new["hands"][seat]), **extra})
            others = [s for s in range(new["n"]) if s != seat and new["hands"][s]]
            new["counter"] += 1
            if others:
                new["window"] = {"card": card, "seats": others}
            else:
                self._next(new)
        elif action["type"] == "pass":
            new["window"]["seats"].remove(seat)
            if not new["window"]["seats"]:
                events.append({"type": "window_closed", "visible_to": "all", **extra})
                new["counter"] += 1
                self._next(new)
        else:  # snap
            low = min(new["hands"][seat])
            new["hands"][seat].remove(low)
            new["snaps"][seat] += 1
            events.append({"type": "snapped", "visible_to": "all", "seat": seat, "card": low, **extra})
            new["counter"] += 1
            self._next(new)
        return new, events

    def _next(self, new: dict[str, Any]) -> None:
        new["window"] = None
        new["active"] = (new["active"] + 1) % new["n"]
        if not new["hands"][new["active"]]:
            new["over"] = True

    def timeout_action(self, state: dict[str, Any], seat: int) -> dict[str, Any] | None:
        for d in self.pending(state):
            if seat in d["seats"]:
                if d["kind"] == "turn":
                    return {
                        "type": "play",
                        "decision_id": d["decision_id"],
                        "card": min(state["hands"][seat]),
                        "timeout": True,
                    }
                return {"type": "pass", "decision_id": d["decision_id"], "timeout": True}
        return None

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        out = []
        for d in self.pending(state):
            if seat in d["seats"]:
                if d["kind"] == "turn":
                    out += [
                        {"type": "play", "decision_id": d["decision_id"], "card": c}
                        for c in sorted(set(state["hands"][seat]))
                    ]
                else:
                    out += [{"type": t, "decision_id": d["decision_id"]} for t in ("snap", "pass")]
        return out

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        # The seat's own decision without its remaining owners: who has answered a window stays
        # hidden until it closes (BB-30.6), as in the real engines.
        decision = next(
            ({k: v for k, v in d.items() if k != "seats"} for d in self.pending(state) if seat in d["seats"]),
            None,
        )
        return {
            "seat": seat,
            "active": state["active"],
            "counts": [len(h) for h in state["hands"]],
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "played": list(state["played"]),
            "over": state["over"],
            "decision": decision,
        }

    def referee_view(self, state: dict[str, Any]) -> dict[str, Any]:
        totals = [sum(h) for h in state["hands"]]
        return {
            "hands": copy.deepcopy(state["hands"]),
            "active": state["active"],
            "totals": totals,
            "over": state["over"],
            "winners": [min(range(state["n"]), key=lambda s: totals[s])] if state["over"] else [],
        }


ENGINE = ToyEngine()
