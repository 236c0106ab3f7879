"""End of a deal, scoring, totals and the end of the game (BH-15, BH-16, BH-17)."""

from __future__ import annotations

from typing import Any

from .cards import to_list
from .state import SEATS, State, deal_limit, deals_played, hand_size

Event = dict[str, Any]

#: BH-16.1: place points for places 1 … 5.
PLACE_POINTS = (2, 1, 0, -1, -2)


def deal_is_over(state: State) -> bool:
    """BH-15.1 (with a partner) and BH-15.2 (alone), checked after a player goes out."""
    finished = state["finished"]
    emperor, partner = state["emperor"], state["partner"]
    if partner is not None:
        if emperor in finished and partner in finished:
            return True
        return sum(1 for s in finished if s not in (emperor, partner)) == 3
    if emperor in finished:
        return True
    return sum(1 for s in finished if s != emperor) >= 2


def finishing_order(state: State, ender: int) -> list[int]:
    """BH-15.4: the places so far, then the rest by fewest cards, ties in turn order from next(ender)."""
    finished: list[int] = state["finished"]
    order = [(ender + 1 + k) % SEATS for k in range(SEATS)]
    rest = [s for s in order if s not in finished]
    rest.sort(key=lambda s: hand_size(state, s))  # stable: ties keep turn order
    return finished + rest


def deal_scores(places: list[int], emperor: int, partner: int | None, m: int) -> tuple[list[int], str]:
    """BH-16.2, BH-16.3, BH-16.6: the five deal scores by seat and the result of the deal."""
    if partner is not None:
        s = PLACE_POINTS[places[emperor] - 1] + PLACE_POINTS[places[partner] - 1]
        scores = [-s * m] * SEATS
        scores[emperor] = 2 * s * m
        scores[partner] = s * m
        return scores, ("won" if s > 0 else "lost" if s < 0 else "draw")
    place = places[emperor]
    if place == 1:
        e, o, result = 12 * m, -3 * m, "won"
    elif place == 2:
        e, o, result = 0, 0, "draw"
    else:
        e, o, result = -12 * m, 3 * m, "lost"
    scores = [o] * SEATS
    scores[emperor] = e
    return scores, result


def standings(totals: list[int]) -> list[dict[str, int]]:
    """BH-17.5, BH-25.6: highest total first, ties by seat; position = 1 + number strictly higher."""
    seats = sorted(range(SEATS), key=lambda s: (-totals[s], s))
    return [
        {"seat": s, "total": totals[s], "position": 1 + sum(1 for t in totals if t > totals[s])}
        for s in seats
    ]


def game_ends(state: State, totals: list[int]) -> bool:
    """BH-17.2 read with BH-17.6: after the current deal is scored with ``totals``, whether the game
    ends: the target is reached or the deal limit is, and exactly one seat has the highest total
    (a shared lead plays on, BH-17.3)."""
    best = max(totals)
    limit = deal_limit(state)
    reached = best >= state["options"]["target_score"] or (limit is not None and deals_played(state) >= limit)
    return reached and totals.count(best) == 1


def end_deal(state: State, ender: int, events: list[Event]) -> None:
    """BH-15.3 to BH-17: end the deal at once, score it, then end the game or deal the next deal."""
    from .dealing import start_deal  # the next deal is dealt inside the action that ends this one

    emperor, partner, alone = state["emperor"], state["partner"], state["alone"]
    order = finishing_order(state, ender)
    places = [0] * SEATS
    for i, seat in enumerate(order):
        places[seat] = i + 1
    m = state["multiplier"]
    scores, result = deal_scores(places, emperor, partner, m)
    totals = [t + d for t, d in zip(state["totals"], scores, strict=True)]
    truth = emperor if alone else partner
    guesses = [None if g is None else {"target": g, "correct": g == truth} for g in state["guesses"]]
    record: dict[str, Any] = {
        "deal": state["deal"],
        "finished": order,
        "places": places,
        "emperor": emperor,
        "partner": partner,
        "alone": alone,
        "multiplier": m,
        "doubled_by": state["doubled_by"],
        "result": result,
        "scores": scores,
        "totals": totals,
        "hands": [to_list(h) for h in state["hands"]],
        "guesses": guesses,
    }
    events.append({"type": "deal_ended", "visible_to": "all", **record})
    state["last_deal"] = record
    state["round_scores"] = scores
    state["totals"] = totals
    state["prev"] = {"emperor": emperor, "partner": partner, "result": result}
    state["top"] = None
    state["trick"] = []
    state["leader"] = None
    state["turn"] = None
    if game_ends(state, totals):
        winner = totals.index(max(totals))
        state.update(
            {"phase": "over", "over": True, "winners": [winner], "finished": order, "decision_id": None}
        )
        events.append(
            {"type": "game_over", "visible_to": "all", "winner": winner, "standings": standings(totals)}
        )
        return
    state["deal"] += 1  # BH-17.3, BH-17.4 (and a shared lead at the deal limit, BH-17.6)
    start_deal(state, events)
