"""The emperor offer, the partner and the declarations window (BH-6, BH-7, BH-8)."""

from __future__ import annotations

from typing import Any

from .cards import BJM, RJM
from .state import SEATS, State, hand_size, nxt, open_decision

Event = dict[str, Any]


def holder_of(state: State, index: int) -> int:
    """The seat holding the card with count-vector index ``index`` (a marked joker)."""
    for seat in range(SEATS):
        if state["hands"][seat][index]:
            return seat
    raise AssertionError("marked card is in no hand")  # BH-3.3 guarantees both marked jokers


def begin_offer(state: State, events: list[Event]) -> None:
    """BH-6.1: announce the holder O of ``RJ*`` and give O the first offer.

    BH-25.4 item 4: if O's only card is ``RJ*``, O becomes the emperor at once (forced).
    """
    origin = holder_of(state, RJM)
    state["phase"] = "offer"
    state["holder"] = origin
    state["offer"] = origin
    state["passed"] = []
    events.append({"type": "emperor_card_shown", "visible_to": "all", "seat": origin})
    if hand_size(state, origin) == 1:
        settle(state, origin, True, events)
    else:
        open_decision(state)


def keep_emperor(state: State, seat: int, timeout: bool, events: list[Event]) -> None:
    """BH-6.2 ``keep_emperor``: the holder of the offer becomes the emperor."""
    settle(state, seat, False, events, by_timeout=timeout)


def pass_emperor(state: State, seat: int, timeout: bool, events: list[Event]) -> None:
    """BH-6.2 ``pass_emperor``: ``RJ*`` moves publicly to next(seat); back at O means O keeps (BH-6.3)."""
    to = nxt(seat)
    hands = state["hands"]
    hands[seat][RJM] -= 1
    hands[to][RJM] += 1
    state["passed"].append(seat)
    events.append(
        {"type": "emperor_card_passed", "visible_to": "all", "from": seat, "to": to, "by_timeout": timeout}
    )
    if to == state["holder"]:
        settle(state, to, True, events)
    else:
        state["offer"] = to
        open_decision(state)


def settle(state: State, emperor: int, forced: bool, events: list[Event], by_timeout: bool = False) -> None:
    """BH-6.5, BH-7: settle E, look up the partner, tell E privately (BH-7.3), open BH-8's window."""
    partner_card = holder_of(state, BJM)
    alone = partner_card == emperor
    partner = None if alone else partner_card
    state["emperor"] = emperor
    state["partner"] = partner
    state["alone"] = alone
    state["forced"] = forced
    state["offer"] = None
    state["phase"] = "declare"
    state["declared"] = [None] * SEATS
    event: Event = {"type": "emperor_settled", "visible_to": "all", "seat": emperor, "forced": forced}
    if by_timeout:
        event["by_timeout"] = True
    events.append(event)
    events.append({"type": "partner_notice", "visible_to": [emperor], "partner": partner})
    open_decision(state)


def declare(state: State, seat: int, what: str, timeout: bool, events: list[Event]) -> None:
    """BH-8.2 to BH-8.6: record one answer of the window; close it when all five have answered."""
    state["declared"][seat] = what
    doubled = False
    if what != "none" and state["doubled_by"] is None:
        state["doubled_by"] = seat
        state["multiplier"] = 2
        doubled = True
    if what in ("support", "alone"):
        state["revealed"] = True  # BH-8.5, BH-9.4
    events.append(
        {
            "type": "declaration",
            "visible_to": "all",
            "seat": seat,
            "what": what,
            "doubled": doubled,
            "by_timeout": timeout,
        }
    )
    if all(d is not None for d in state["declared"]):
        events.append({"type": "declarations_closed", "visible_to": "all", "multiplier": state["multiplier"]})
        emperor = state["emperor"]
        state["phase"] = "play"
        state["leader"] = emperor  # BH-8.7, BH-12.1
        state["turn"] = emperor
        state["top"] = None
        state["trick"] = []
        open_decision(state)
