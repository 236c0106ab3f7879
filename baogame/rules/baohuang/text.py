"""Short English sentences for events and decisions (history pages and email).

Each function uses only the fields of the dict it is given, so it never reveals more than the
event or decision itself (which the caller has already filtered by ``visible_to``).
"""

from __future__ import annotations

from typing import Any


def seat_name(seat: Any) -> str:
    """``Seat 3`` (seats are shown 0-based, as everywhere in the rules)."""
    return f"Seat {seat}"


def cards_text(cards: list[str]) -> str:
    """``K K BJ``, or ``nothing`` for an empty list."""
    return " ".join(cards) if cards else "nothing"


def _timeout(event: dict[str, Any]) -> str:
    return " (by timeout)" if event.get("by_timeout") else ""


def deal_progress(view: dict[str, Any]) -> str:
    """The deal under way, from a view: ``Deal 2``; with a deal limit (BH-17.6, public) ``Deal 2 of 3``,
    and past it, when the lead was shared at the limit (BH-17.3), ``Deal 4 (extra: the lead was shared
    after 3)``."""
    limit = view.get("deal_limit")
    if not limit:
        return f"Deal {view.get('deal')}"
    played = view.get("deals_played") or view.get("deal")
    if isinstance(played, int) and played > limit:
        return f"Deal {played} (extra: the lead was shared after {limit})"
    return f"Deal {played} of {limit}"


DECLARATION = {
    "alone": "announces playing alone",
    "support": "pledges support for the emperor",
    "oppose": "pledges opposition to the emperor",
    "none": "makes no declaration",
}


def describe_event(event: dict[str, Any]) -> str:
    """One sentence describing an event of BH-24."""
    t = event.get("type")
    e = event
    s = seat_name(e.get("seat"))
    if t == "deal_started":
        return (f"Deal {e['deal']} is dealt: {seat_name(e['shuffler'])} shuffles, "
                f"{seat_name(e['cutter'])} cuts, {seat_name(e['first_drawer'])} draws first.")
    if t == "hand_dealt":
        return f"You are dealt {len(e['cards'])} cards: {cards_text(e['cards'])}."
    if t == "tribute_required":
        givers = [f"{seat_name(i)} gives {n}" for i, n in enumerate(e["owed"]) if n]
        takers = [f"{seat_name(i)} receives {n}" for i, n in enumerate(e["allot"]) if n]
        return "Tribute: " + ", ".join(givers + takers) + "."
    if t == "tribute_owed":
        return f"You owe as tribute: {cards_text(e['cards'])}."
    if t == "tribute_given":
        return f"{s} gives {e['count']} tribute card(s) face down{_timeout(e)}."
    if t == "tribute_received":
        return f"{s} receives {e['count']} tribute card(s)."
    if t == "tribute_cards_received":
        return f"You receive as tribute: {cards_text(e['cards'])}."
    if t == "emperor_card_shown":
        return f"{s} holds the marked red joker."
    if t == "emperor_card_passed":
        return f"{seat_name(e['from'])} passes the marked red joker to {seat_name(e['to'])}{_timeout(e)}."
    if t == "emperor_settled":
        how = " (nobody took the card)" if e.get("forced") else ""
        return f"{s} is the emperor{how}."
    if t == "partner_notice":
        if e["partner"] is None:
            return "You hold both marked jokers: you play alone."
        return f"Your partner is {seat_name(e['partner'])}."
    if t == "declaration":
        doubled = " The deal is doubled." if e.get("doubled") else ""
        return f"{s} {DECLARATION.get(e['what'], e['what'])}{_timeout(e)}.{doubled}"
    if t == "declarations_closed":
        return f"Declarations are closed; the multiplier is {e['multiplier']}."
    if t == "play":
        request = " and asks the others not to beat it" if e.get("no_beat_request") else ""
        return f"{s} plays {cards_text(e['cards'])}{request}{_timeout(e)}."
    if t == "pass":
        return f"{s} passes{_timeout(e)}."
    if t == "partner_revealed":
        if e.get("alone"):
            return f"{s} plays the marked black joker: the emperor plays alone."
        return f"{s} plays the marked black joker and is the emperor's partner."
    if t == "went_out":
        return f"{s} goes out in place {e['place']}."
    if t == "trick_won":
        return f"{s} wins the trick; {seat_name(e['next_leader'])} leads."
    if t == "guess":
        return f"{s} guesses that {seat_name(e['target'])} is the partner."
    if t == "deal_ended":
        side = "alone" if e.get("alone") else f"with {seat_name(e['partner'])} as partner"
        scores = ", ".join(f"{seat_name(i)} {v:+d}" for i, v in enumerate(e["scores"]))
        return (f"Deal {e['deal']} ends: the emperor {seat_name(e['emperor'])} played {side} and "
                f"{e['result']} (x{e['multiplier']}). Scores: {scores}.")
    if t == "game_over":
        return f"Game over: {seat_name(e['winner'])} wins."
    return f"{t}."


KIND_TEXT = {
    "tribute": "give your tribute",
    "declare": "answer the emperor offer or the declarations",
    "turn": "play or pass",
}
def describe_decision(decision: dict[str, Any]) -> str:
    """One sentence for an open decision: who must do what."""
    allowed = decision.get("allowed") or []
    seats = decision.get("seats")
    who = "" if seats is None else (", ".join(seat_name(s) for s in seats) + ": ")
    if "keep_emperor" in allowed:
        what = "keep the marked red joker (become emperor) or pass it on"
    elif "pledge" in allowed:
        what = "declare (pledge, announce alone) or make no declaration"
    elif allowed == ["play"]:
        what = "lead a combination"
    elif "pass" in allowed:
        what = "beat the top combination or pass"
    elif "give_tribute" in allowed:
        what = "give the owed tribute cards"
    else:
        what = KIND_TEXT.get(decision.get("kind", ""), "decide")
    sentence = f"{who}{what}."
    return sentence[0].upper() + sentence[1:]  # a prompt starts with a capital letter

