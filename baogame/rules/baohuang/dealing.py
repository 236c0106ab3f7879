"""Dealing a deal (BH-4, BH-25.4, BH-25.8) and resetting the per-deal state."""

from __future__ import annotations

from typing import Any

from baogame.rules.core import seeded_shuffle

from . import tribute
from .cards import INDEX, PACK, to_counts, to_list
from .state import SEATS, State, deal_fields, roles_of_deal

Event = dict[str, Any]


def shuffled_hands(seed: str, deal: int) -> list[list[int]]:
    """BH-4.2, BH-4.3, BH-25.8: shuffle the canonical pack with key ``baohuang:{seed}:deal:{d}``;
    card c_k goes to seat (first drawer + k) mod 5."""
    first = roles_of_deal(deal)[2]
    pack = seeded_shuffle(PACK, f"baohuang:{seed}:deal:{deal}")
    hands = [[0] * 14 for _ in range(SEATS)]
    index = INDEX
    for k, code in enumerate(pack):
        hands[(first + k) % SEATS][index[code]] += 1
    return hands


def start_deal(state: State, events: list[Event]) -> None:
    """Deal ``state["deal"]`` (stacked or shuffled), then open its tribute or emperor offer (BH-3.1)."""
    deal = state["deal"]
    shuffler, cutter, first = roles_of_deal(deal)
    index = deal - state["first_deal"]
    stacked = state["stacked"]
    if index < len(stacked):
        hands = [to_counts(h) for h in stacked[index]["hands"]]  # BH-25.4 item 3
    else:
        hands = shuffled_hands(state["seed"], deal)
    state.update({"hands": hands, **deal_fields()})
    events.append(
        {
            "type": "deal_started",
            "visible_to": "all",
            "deal": deal,
            "shuffler": shuffler,
            "cutter": cutter,
            "first_drawer": first,
            "counts": [sum(h) for h in hands],
            "stacked": index < len(stacked),
        }
    )
    for seat in range(SEATS):
        events.append(
            {"type": "hand_dealt", "visible_to": [seat], "seat": seat, "cards": to_list(hands[seat])}
        )
    tribute.begin(state, events)
