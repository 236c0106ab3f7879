"""The game state: a plain JSON-compatible dict, and small helpers over it.

Keys (all JSON types; hands are count vectors, see ``cards``):

``seed`` (str), ``options`` ({"target_score"}, plus ``deal_limit`` only when one is set, BH-17.6, so that a
game without a limit has the state it always had), ``stacked`` (stacked deals, BH-25.4), ``first_deal``,
``deal``, ``phase`` ("tribute" | "offer" | "declare" | "play" | "over"), ``hands`` (5 count vectors),
``decision_seq``/``decision_id`` (the open decision's id), ``prev`` (the previous deal's roles and result,
BH-5.2), ``tribute`` (BH-5), ``holder``/``offer``/``passed`` (BH-6), ``emperor``, ``partner``, ``alone``,
``declared``, ``doubled_by``, ``multiplier`` (BH-8), ``revealed`` (the partner question closed publicly,
BH-9.4), ``guesses`` (BH-9), ``leader``, ``turn``, ``top``, ``trick`` (BH-12), ``finished`` (BH-13),
``totals``, ``round_scores``, ``over``, ``winners`` (BH-17), ``last_deal`` (the public record of the last
completed deal, BH-25.6).

``apply`` works on ``copy_state(state)``: every mutable container that an action may change is copied,
and nested records (plays in ``trick``, ``top``, ``last_deal``) are replaced, never edited in place.
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]

SEATS = 5
PHASES = ("tribute", "offer", "declare", "play", "over")


def nxt(seat: int) -> int:
    """BH-1.2: next(s) = (s + 1) mod 5, the player to the right of s."""
    return (seat + 1) % SEATS


def roles_of_deal(deal: int) -> tuple[int, int, int]:
    """BH-4.1: (shuffler, cutter, first drawer) of deal ``deal``."""
    shuffler = (deal - 1) % SEATS
    return shuffler, nxt(shuffler), nxt(nxt(shuffler))


def hand_size(state: State, seat: int) -> int:
    """Number of cards seat ``seat`` holds now."""
    return sum(state["hands"][seat])


def is_active(state: State, seat: int) -> bool:
    """Glossary: an active player still holds at least one card."""
    return hand_size(state, seat) > 0


def next_active(state: State, seat: int) -> int:
    """BH-1.3: the first of next(s), next(next(s)), … that still holds cards (never s itself)."""
    hands = state["hands"]
    s = seat
    for _ in range(SEATS - 1):
        s = (s + 1) % SEATS
        if any(hands[s]):
            return s
    raise AssertionError("next_active with fewer than two active players")  # BH-1.3


def deal_limit(state: State) -> int | None:
    """BH-3.2, BH-17.6: the game's deal limit, None when it has none."""
    limit: int | None = state["options"].get("deal_limit")
    return limit


def deals_played(state: State) -> int:
    """BH-17.6: the deals of this game begun so far, the current one included (counted from the
    game's first deal, BH-25.5); once the game is over, the deals it took."""
    played: int = state["deal"] - state["first_deal"] + 1
    return played


def copy_state(state: State) -> State:
    """A copy in which every container ``apply`` may change is new (the input is never mutated)."""
    s = dict(state)
    s["hands"] = [h[:] for h in state["hands"]]
    s["passed"] = state["passed"][:]
    s["declared"] = state["declared"][:]
    s["guesses"] = state["guesses"][:]
    s["trick"] = state["trick"][:]
    s["finished"] = state["finished"][:]
    s["totals"] = state["totals"][:]
    tribute = state["tribute"]
    if tribute is not None:
        s["tribute"] = {k: v[:] for k, v in tribute.items()}
    return s


def open_decision(state: State) -> None:
    """Give the decision that has just opened a fresh id, unique within the game."""
    state["decision_seq"] += 1
    state["decision_id"] = f"{state['deal']}.{state['decision_seq']}"


def deal_fields() -> dict[str, Any]:
    """The per-deal part of the state as a deal starts (BH-4): no tribute, offer, roles, declarations or
    tricks yet. A new game has it (``new_state``), and every deal resets it (``dealing.start_deal``)."""
    return {
        "tribute": None,
        "holder": None,
        "offer": None,
        "passed": [],
        "emperor": None,
        "partner": None,
        "alone": None,
        "forced": False,
        "declared": [None] * SEATS,
        "doubled_by": None,
        "multiplier": 1,
        "revealed": False,
        "guesses": [None] * SEATS,
        "leader": None,
        "turn": None,
        "top": None,
        "trick": [],
        "finished": [],
    }


def new_state(
    seed: str,
    options: dict[str, Any],
    stacked: list[dict[str, Any]],
    first_deal: int,
    totals: list[int],
    prev: dict[str, Any] | None,
) -> State:
    """An empty game before its first deal is dealt (``dealing.start_deal`` deals it)."""
    return {
        "game": "baohuang",
        "seed": seed,
        "options": dict(options),
        "stacked": stacked,
        "first_deal": first_deal,
        "deal": first_deal,
        "phase": "tribute",
        "hands": [[0] * 14 for _ in range(SEATS)],
        "decision_seq": 0,
        "decision_id": None,
        "prev": prev,
        **deal_fields(),
        "totals": list(totals),
        "round_scores": None,
        "over": False,
        "winners": [],
        "last_deal": None,
    }
