"""Open decisions, legal actions and deadline defaults (BH-18, BH-22, BH-25.2)."""

from __future__ import annotations

from typing import Any

from .cards import CODES, to_counts, to_list
from .combos import plays
from .state import SEATS, State

Decision = dict[str, Any]
Action = dict[str, Any]

ALLOWED: dict[str, list[str]] = {
    "tribute": ["give_tribute"],
    "offer": ["keep_emperor", "pass_emperor"],
    "declare": ["declare_alone", "pledge", "no_declaration"],
}
KIND: dict[str, str] = {"tribute": "tribute", "offer": "declare", "declare": "declare", "play": "turn"}


def owners(state: State) -> list[int]:
    """The seats that own the open decision and have not answered it yet (BH-25.2), in seat order."""
    phase = state["phase"]
    if phase == "tribute":
        t = state["tribute"]
        return [s for s in range(SEATS) if t["owed"][s] and t["given"][s] is None]
    if phase == "offer":
        return [state["offer"]]
    if phase == "declare":
        return [s for s in range(SEATS) if state["declared"][s] is None]
    if phase == "play":
        return [state["turn"]]
    return []


def pending(state: State) -> list[Decision]:
    """BH-25.2: the single open decision (or ``[]`` once the game is over), with a ``decision_id``."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "play":
        allowed = ["play"] if state["top"] is None else ["play", "pass"]
    else:
        allowed = ALLOWED[phase][:]
    kind = KIND[phase]
    return [
        {
            "kind": kind,
            "seats": owners(state),
            "allowed": allowed,
            "timing": kind,
            "decision_id": state["decision_id"],
        }
    ]


def guesses(state: State, seat: int) -> list[Action]:
    """BH-22.2: ``guess_partner`` for each other seat, while the partner question is open."""
    if state["phase"] not in ("declare", "play") or state["revealed"] or seat == state["emperor"]:
        return []
    return [{"type": "guess_partner", "seat": t} for t in range(SEATS) if t != seat]


def decision_actions(state: State, seat: int) -> list[Action]:
    """BH-22.1: the decision actions the seat may take now (without guesses)."""
    if seat not in owners(state):
        return []
    phase = state["phase"]
    if phase == "tribute":
        return [{"type": "give_tribute", "cards": state["tribute"]["owed_cards"][seat][:]}]
    if phase == "offer":
        return [{"type": "keep_emperor"}, {"type": "pass_emperor"}]
    if phase == "declare":
        if seat == state["emperor"]:
            alone = [{"type": "declare_alone"}] if state["alone"] else []
            return alone + [{"type": "no_declaration"}]
        side = "support" if seat == state["partner"] else "oppose"
        return [{"type": "pledge", "side": side}, {"type": "no_declaration"}]
    top = state["top"]
    top_counts = None if top is None else to_counts(top["cards"])
    hand = state["hands"][seat]
    out: list[Action] = [{"type": "play", "cards": to_list(c)} for c in plays(hand, top_counts)]
    if top is not None:
        out.append({"type": "pass"})
    return out


def legal_actions(state: State, seat: int) -> list[Action]:
    """BH-22, BH-25.2: every legal action of ``seat`` (plays once, without ``no_beat_request``)."""
    if state["over"]:
        return []
    return decision_actions(state, seat) + guesses(state, seat)


def lowest_single(hand: list[int]) -> str:
    """BH-18.2: the single lowest card; the unmarked joker before the marked one."""
    for i, n in enumerate(hand):
        if n:
            return CODES[i]
    raise AssertionError("empty hand")


def timeout_action(state: State, seat: int) -> Action | None:
    """BH-18.1, BH-18.3: the default for the seat's open decision, with ``"timeout": true``."""
    if state["over"] or seat not in owners(state):
        return None
    phase = state["phase"]
    if phase == "tribute":
        action: Action = {"type": "give_tribute", "cards": state["tribute"]["owed_cards"][seat][:]}
    elif phase == "offer":
        action = {"type": "keep_emperor"}
    elif phase == "declare":
        action = {"type": "no_declaration"}
    elif state["top"] is not None:
        action = {"type": "pass"}
    else:
        action = {"type": "play", "cards": [lowest_single(state["hands"][seat])]}
    action["timeout"] = True
    return action
