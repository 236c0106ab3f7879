"""Plays, passes, tricks and going out (BH-12, BH-13, BH-14)."""

from __future__ import annotations

from typing import Any

from .cards import BJM, to_list
from .scoring import deal_is_over, end_deal
from .state import SEATS, State, next_active, open_decision

Event = dict[str, Any]


def play(
    state: State, seat: int, cards: list[int], no_beat: bool, timeout: bool, events: list[Event]
) -> None:
    """BH-12.6: the play becomes the top; BH-14.1 reveal; BH-13 going out; BH-15 end of the deal."""
    hand = state["hands"][seat]
    for i, n in enumerate(cards):
        if n:
            hand[i] -= n
    codes = to_list(cards)
    events.append(
        {
            "type": "play",
            "visible_to": "all",
            "seat": seat,
            "cards": codes,
            "no_beat_request": no_beat,
            "by_timeout": timeout,
        }
    )
    if cards[BJM]:
        state["revealed"] = True
        events.append(
            {"type": "partner_revealed", "visible_to": "all", "seat": seat, "alone": seat == state["emperor"]}
        )
    state["top"] = {"cards": codes, "seat": seat, "passes": 0, "no_beat_request": no_beat}
    state["trick"].append({"seat": seat, "cards": codes, "no_beat_request": no_beat})
    if not any(hand):
        state["finished"].append(seat)
        events.append(
            {"type": "went_out", "visible_to": "all", "seat": seat, "place": len(state["finished"])}
        )
        if deal_is_over(state):
            end_deal(state, seat, events)
            return
    state["turn"] = next_active(state, seat)
    open_decision(state)


def pass_turn(state: State, seat: int, timeout: bool, events: list[Event]) -> None:
    """BH-12.5 to BH-12.8: count the pass; end the trick when every other active player passed."""
    top = dict(state["top"])
    top["passes"] += 1
    state["top"] = top
    state["trick"].append({"seat": seat, "cards": None, "no_beat_request": False})
    events.append({"type": "pass", "visible_to": "all", "seat": seat, "by_timeout": timeout})
    hands = state["hands"]
    winner = top["seat"]
    others = sum(1 for s in range(SEATS) if s != winner and any(hands[s]))
    if top["passes"] >= others:
        leader = winner if any(hands[winner]) else next_active(state, winner)
        events.append({"type": "trick_won", "visible_to": "all", "seat": winner, "next_leader": leader})
        state["top"] = None
        state["trick"] = []
        state["leader"] = leader
        state["turn"] = leader
    else:
        state["turn"] = next_active(state, seat)
    open_decision(state)
