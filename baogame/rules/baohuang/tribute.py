"""Tribute between deals (BH-5), as a simultaneous pending decision of the givers."""

from __future__ import annotations

from typing import Any

from baogame.rules.core import seeded_shuffle

from .cards import INDEX, N_CODES, sort_cards, to_list
from .roles import begin_offer
from .state import SEATS, State, open_decision

Event = dict[str, Any]


def shares(prev: dict[str, Any] | None) -> tuple[list[int], list[int]] | None:
    """BH-5.3: (cards each seat gives, cards each seat receives) after the previous deal, or None."""
    if prev is None or prev["result"] == "draw":
        return None
    emperor, partner, won = prev["emperor"], prev["partner"], prev["result"] == "won"
    give = [0] * SEATS
    get = [0] * SEATS
    others = [s for s in range(SEATS) if s not in (emperor, partner)]
    if partner is not None:
        winners = {emperor: 2, partner: 1} if won else dict.fromkeys(others, 1)
        losers = dict.fromkeys(others, 1) if won else {emperor: 2, partner: 1}
    else:
        winners = {emperor: 4} if won else dict.fromkeys(others, 1)
        losers = dict.fromkeys(others, 1) if won else {emperor: 4}
    for s, n in winners.items():
        get[s] = n
    for s, n in losers.items():
        give[s] = n
    return give, get


def owed_cards(hand: list[int], n: int) -> list[int]:
    """BH-5.4: the n highest non-jokers, never the giver's last card (BH-25.4 item 4)."""
    n = min(n, sum(hand) - 1)
    out = [0] * N_CODES
    for i in range(9, -1, -1):
        if n <= 0:
            break
        k = min(n, hand[i])
        out[i] = k
        n -= k
    return out


def begin(state: State, events: list[Event]) -> None:
    """BH-5.1, BH-5.5 step 1: open the tribute decision, or go straight to the offer (BH-6)."""
    share = shares(state["prev"])
    state["tribute"] = None
    if share is None:
        begin_offer(state, events)
        return
    give, get = share
    owed: list[int] = [0] * SEATS
    owed_lists: list[list[str] | None] = [None] * SEATS
    for seat in range(SEATS):
        if give[seat]:
            cards = owed_cards(state["hands"][seat], give[seat])
            owed[seat] = sum(cards)
            owed_lists[seat] = to_list(cards)
    state["tribute"] = {
        "owed": owed,
        "allot": get,
        "owed_cards": owed_lists,
        "given": [None] * SEATS,
        "received": [None] * SEATS,
    }
    events.append({"type": "tribute_required", "visible_to": "all", "owed": owed[:], "allot": get[:]})
    for seat in range(SEATS):
        if owed[seat]:
            events.append(
                {"type": "tribute_owed", "visible_to": [seat], "seat": seat, "cards": owed_lists[seat]}
            )
    if any(owed):
        state["phase"] = "tribute"
        open_decision(state)
    else:
        hand_out(state, events)


def give(state: State, seat: int, cards: list[str], timeout: bool, events: list[Event]) -> None:
    """BH-5.5 step 2: the tribute leaves the giver's hand face down; hand out when all have given."""
    tribute = state["tribute"]
    hand = state["hands"][seat]
    for code in cards:
        hand[INDEX[code]] -= 1
    tribute["given"][seat] = sort_cards(cards)
    events.append(
        {
            "type": "tribute_given",
            "visible_to": "all",
            "seat": seat,
            "count": len(cards),
            "by_timeout": timeout,
        }
    )
    if all(tribute["given"][s] is not None for s in range(SEATS) if tribute["owed"][s]):
        hand_out(state, events)


def hand_out(state: State, events: list[Event]) -> None:
    """BH-5.5 step 3: shuffle the pile from the seed (BH-25.8) and serve receivers in seat order."""
    tribute = state["tribute"]
    pile = sort_cards(c for given in tribute["given"] if given for c in given)
    if pile:
        pile = seeded_shuffle(pile, f"baohuang:{state['seed']}:deal:{state['deal']}:tribute")
    pos = 0
    for seat in range(SEATS):
        n = tribute["allot"][seat]
        if not n:
            continue
        got = sort_cards(pile[pos : pos + n])
        pos += len(got)
        tribute["received"][seat] = got
        hand = state["hands"][seat]
        for code in got:
            hand[INDEX[code]] += 1
        events.append({"type": "tribute_received", "visible_to": "all", "seat": seat, "count": len(got)})
        events.append({"type": "tribute_cards_received", "visible_to": [seat], "seat": seat, "cards": got})
    begin_offer(state, events)
