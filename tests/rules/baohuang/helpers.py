"""Small builders for Bao Huang engine tests (stacked deals, scripted play)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from baogame.rules.baohuang.engine import ENGINE
from baogame.rules.core import RuleError

State = dict[str, Any]
Event = dict[str, Any]

#: Going-out cards for places 1..5 in ``order_hands`` (strictly ascending singles).
PLACE_CARDS = ["7", "8", "9", "10", "J"]


def a_game(
    hands: list[list[str]],
    *,
    start: dict[str, Any] | None = None,
    target: int | None = None,
    deal_limit: int | None = None,
    deals: list[list[list[str]]] | None = None,
    seed: str = "test",
) -> State:
    """A game whose first deal is stacked with ``hands`` (and optional later stacked deals)."""
    options: dict[str, Any] = {"deals": [{"hands": hands}] + [{"hands": h} for h in deals or []]}
    if start is not None:
        options["start"] = start
    if target is not None:
        options["target_score"] = target
    if deal_limit is not None:
        options["deal_limit"] = deal_limit
    return ENGINE.setup(5, options, seed)


def act(state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[Event]]:
    """Apply and check the JSON round trip of the result."""
    new, events = ENGINE.apply(state, seat, action)
    assert json.loads(json.dumps(new)) == new
    return new, events


def refused(state: State, seat: int, action: Any) -> str:
    """The error code with which ``apply`` refuses the action."""
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, seat, action)
    return info.value.code


def types(events: list[Event]) -> list[str]:
    """The event types, in order."""
    return [e["type"] for e in events]


def find(events: list[Event], kind: str) -> Event:
    """The first event of a type."""
    return next(e for e in events if e["type"] == kind)


def keep_and_declare(
    state: State, declarations: dict[int, dict[str, Any]] | None = None
) -> tuple[State, list[Event]]:
    """The offer holder keeps; every seat answers the declarations (default ``no_declaration``)."""
    events: list[Event] = []
    if ENGINE.pending(state)[0]["allowed"] == ["keep_emperor", "pass_emperor"]:
        seat = ENGINE.pending(state)[0]["seats"][0]
        state, ev = act(state, seat, {"type": "keep_emperor"})
        events += ev
    declarations = declarations or {}
    for seat in range(5):
        state, ev = act(state, seat, declarations.get(seat, {"type": "no_declaration"}))
        events += ev
    return state, events


def run_script(state: State, script: list[tuple[int, list[str]]]) -> tuple[State, list[Event]]:
    """Play the scripted plays in order; every other turn passes. Stops when the deal ends."""
    events: list[Event] = []
    script = list(script)
    deal = state["deal"]
    while script and state["deal"] == deal and not state["over"]:
        seat = ENGINE.pending(state)[0]["seats"][0]
        if seat == script[0][0]:
            state, ev = act(state, seat, {"type": "play", "cards": script.pop(0)[1]})
        else:
            state, ev = act(state, seat, {"type": "pass"})
        events += ev
    return state, events


def order_hands(order: list[int], emperor: int, partner: int | None) -> list[list[str]]:
    """Hands with which ``order_script`` makes the seats go out in ``order``."""
    hands: list[list[str]] = [[PLACE_CARDS[order.index(s)]] for s in range(5)]
    if partner is None:
        hands[emperor] += ["6", "BJ*", "RJ*"]
    else:
        hands[emperor] += ["6", "6", "RJ*"]
        hands[partner] += ["BJ*"]
    return hands


def order_script(order: list[int], emperor: int, partner: int | None) -> list[tuple[int, list[str]]]:
    """Trick 1 gets rid of the marked jokers and E wins it; trick 2 goes out in ``order``."""
    if partner is None:
        first: list[tuple[int, list[str]]] = [(emperor, ["BJ*", "RJ*"])]
    else:
        first = [(emperor, ["6"]), (partner, ["BJ*"]), (emperor, ["RJ*"])]
    return first + [(emperor, ["6"])] + [(s, [PLACE_CARDS[i]]) for i, s in enumerate(order)]


def play_deal(
    order: list[int],
    emperor: int,
    partner: int | None,
    declarations: dict[int, dict[str, Any]] | None = None,
    **game: Any,
) -> tuple[State, list[Event]]:
    """A whole stacked deal in which the seats go out in ``order`` (the deal may end earlier)."""
    state = a_game(order_hands(order, emperor, partner), **game)
    state, ev1 = keep_and_declare(state, declarations)
    state, ev2 = run_script(state, order_script(order, emperor, partner))
    return state, ev1 + ev2
