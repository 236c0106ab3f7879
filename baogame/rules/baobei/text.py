"""Short English sentences for events and decisions (history, email). They use only the fields of
the event or decision itself, never the state."""

from __future__ import annotations

from typing import Any

from .cards import CARDS

#: The abilities (BB-9.7 … BB-9.12) in words, as the game page's legend names them.
ABILITY_WORDS = {"peek": "peek", "reveal": "reveal", "blind_swap": "blind swap", "macaw": "look-and-swap",
                 "toco": "add-a-card", "shoebill": "double replacement"}


def _card(code: Any) -> str:
    if code is None or code == "?":
        return "an unknown card"
    name = CARDS[code]["name"]
    return f"an {name}" if name[0] in "AEIOU" else f"a {name}"


def _pos(p: dict[str, int], actor: Any = None, own: str = "their own") -> str:
    """``seat 2 slot 1``; a slot of the acting seat's own display is ``their own slot 1`` (``own``:
    ``your`` in a sentence addressed to that seat), not the seat's name twice."""
    if actor is not None and p["seat"] == actor:
        return f"{own} slot {p['slot']}"
    return f"seat {p['seat']} slot {p['slot']}"


def _cards(codes: list[str]) -> str:
    return " and ".join(_card(c) for c in codes)


def describe_event(e: dict[str, Any]) -> str:  # noqa: C901 - one sentence per event type
    """One sentence for an event (BB-31), e.g. "Seat 2 plucked seat 0 slot 1: success, removed a Magpie"."""
    t = e.get("type")
    s = e.get("seat")
    if t == "round_started":
        kind = "Deciding round" if e.get("deciding") else "Round"
        return (f"{kind} {e['round']} started with seats {e['participants']}; seat {e['starting_seat']} "
                f"begins; the first discard is {_card(e['discard_top'])}.")
    if t == "setup_peek_chosen":
        return f"You looked at your slots {e['slots'][0]} and {e['slots'][1]}: {_cards(e['cards'])}."
    if t == "setup_peek_done":
        return "Everyone has looked at two cards: " + "; ".join(
            f"seat {c['seat']} slots {c['slots'][0]} and {c['slots'][1]}" for c in e["choices"]) + "."
    if t == "turn_started":
        return f"Seat {s}'s turn."
    if t == "turn_ended":
        return f"Seat {s}'s turn ended."
    if t == "drew":
        return f"You drew {_card(e['card'])}." if "card" in e else f"Seat {s} drew a card."
    if t == "kept":
        return f"Seat {s} kept the drawn card in slot {e['slot']} and discarded {_card(e['card'])}."
    if t == "discarded":
        how = "automatically discarded" if e.get("automatic") else "discarded"
        return f"Seat {s} {how} the drawn card, {_card(e['card'])}."
    if t == "took_discard":
        return (f"Seat {s} took {_card(e['card'])} from the discard pile into slot {e['slot']} and "
                f"discarded {_card(e['discarded'])}.")
    if t == "window_opened":
        return f"Seats {e['eligible']} may pluck against {_card(e['reference'])}."
    if t == "window_closed":
        if e["how"] == "pluck":
            return "The plucking window closed with a pluck."
        return f"The plucking window closed; seats {e['passed']} passed."
    if t == "pluck_resolved":
        where = ", ".join(_pos(p, s) for p in e["targets"])
        word = "double-plucked" if e["kind"] == "double" else "plucked"
        if e["success"]:
            return f"Seat {s} {word} {where}: success, removed {_cards(e['cards'])}."
        return f"Seat {s} {word} {where}: failure, showing {_cards(e['cards'])}."
    if t == "penalty_added":
        if e.get("skipped"):
            return f"Seat {s} could not receive a penalty card: nothing left to draw."
        return f"Seat {s} received an unseen penalty card in slot {e['slot']}."
    if t == "recycled":
        return (f"The discard pile was shuffled into a new draw pile of {e['draw_size']} "
                f"(recycling {e['recycles']}).")
    if t == "automatic_final_phase":
        why = "the second recycling" if e["cause"] == "recycling" else "the exhausted deck"
        return f"The automatic final phase began after {why}; seat {e['anchor']} is the anchor."
    if t in ("ability_offered", "ability_declined", "ability_no_effect"):
        verb = {"ability_offered": "may use", "ability_declined": "declined",
                "ability_no_effect": "could not use"}[t]
        ability = ABILITY_WORDS.get(e["ability"], str(e["ability"]).replace("_", " "))
        return f"Seat {s} {verb} the {ability} ability of {_card(e['card'])}."
    if t == "peeked":
        if "card" in e:
            return f"You peeked at {_pos(e['position'], s, 'your')}: {_card(e['card'])}."
        return f"Seat {s} peeked at {_pos(e['position'], s)}."
    if t == "revealed":
        return f"Seat {s} revealed {_pos(e['position'], s)}: {_card(e['card'])}."
    if t == "blind_swapped":
        return f"Seat {s} swapped {_pos(e['positions'][0], s)} and {_pos(e['positions'][1], s)} blind."
    if t == "macaw_looked":
        if "cards" in e:
            mine = f"{_pos(e['positions'][0], s, 'your')} and {_pos(e['positions'][1], s, 'your')}"
            return f"You looked at {mine}: {_cards(e['cards'])}."
        return f"Seat {s} looked at {_pos(e['positions'][0], s)} and {_pos(e['positions'][1], s)}."
    if t == "macaw_decided":
        return f"Seat {s} {'swapped' if e['swap'] else 'did not swap'} the two cards."
    if t == "toco_added":
        if e.get("skipped"):
            return f"Seat {s}'s Toco Toucan had no effect: nothing left to draw."
        return f"Seat {s} added an unseen card to seat {e['target_seat']} slot {e['slot']}."
    if t == "shoebill_drawn":
        if "cards" in e:
            return f"Your Shoebill drew {_cards(e['cards'])}."
        return f"Seat {s} drew {e['count']} card(s) with the Shoebill."
    if t == "shoebill_placed":
        if "placed" in e:
            return "You placed " + ", ".join(f"{_card(p['card'])} at {_pos(p['position'])}"
                                             for p in e["placed"]) + "."
        where = ", ".join(_pos(p) for p in e["replaced"]) or "nothing"
        return f"Seat {s} replaced {where}; {e['under_count']} card(s) went beneath the discard pile."
    if t == "bao_called":
        return f"Seat {s} called BAO!"
    if t == "shield_activated":
        return f"The Shield now protects seat {s}'s cards."
    if t == "round_ended":
        return _round_ended(e)
    if t == "game_ended":
        return f"The game is over: seat {e['winner']} wins."
    return f"Event {t}."


def _round_ended(e: dict[str, Any]) -> str:
    """"Round 2 ended: seat 0 scored 8 (total 43); seat 1 scored 0 (total 61)." and the BAO outcome
    (BB-25.7): each seat that played the round, by seat; a seat that sat out a deciding round is left
    out. A deciding round's scores do not change the totals (BB-15), so it gives scores alone."""
    scores, totals = e.get("scores") or [], e.get("totals") or []
    kind = "Deciding round" if e.get("deciding") else "Round"
    parts = []
    for seat, score in enumerate(scores):
        if score is None:
            continue
        total = totals[seat] if seat < len(totals) and not e.get("deciding") else None
        parts.append(f"seat {seat} scored {score}" + ("" if total is None else f" (total {total})"))
    text = f"{kind} {e['round']} ended: " + ("; ".join(parts) or "no scores") + "."
    bao = e.get("bao")
    if bao:
        text += f" Seat {bao['caller']}'s BAO {'succeeded' if bao['success'] else 'failed'}."
    return text


def describe_decision(d: dict[str, Any]) -> str:
    """One sentence for an open decision, e.g. "Your turn: draw or take the Magpie"."""
    kind = d.get("kind")
    ctx = d.get("context") or {}
    if kind == "setup_peek":
        return "Choose two of your cards to look at."
    if kind == "turn_action":
        options = []
        if ctx.get("can_draw"):
            options.append("draw")
        if ctx.get("can_take"):
            options.append(f"take the {CARDS[ctx['discard_top']]['name']}")
        return "Your turn: " + " or ".join(options) + "."
    if kind == "after_draw":
        drawn = f"the {CARDS[ctx['drawn']]['name']}" if "drawn" in ctx else "the drawn card"
        return f"You drew {drawn}: pluck with it, keep it or discard it."
    if kind == "pluck_window":
        return f"Pluck against the {CARDS[ctx['reference']]['name']}, or pass."
    if kind == "ability":
        return f"Use the {ctx.get('ability')} ability of the {CARDS[ctx['card']]['name']}, or decline."
    if kind == "macaw_decide":
        return "Swap the two cards you looked at, or not."
    if kind == "shoebill_place":
        return "Place your Shoebill cards."
    if kind == "end_turn":
        return "End your turn, or call BAO."
    return "Make your choice."
