"""Validate and apply one action (BH-19.3 validation order, BH-20 checks, BH-18.3 timeouts)."""

from __future__ import annotations

from typing import Any

from baogame.rules.core import RuleError

from . import play as play_mod
from . import roles, tribute
from .actions import PHASES, GiveTribute, GuessPartner, Plain, Play, Pledge, from_wire
from .cards import to_counts
from .combos import beats, is_combination
from .state import SEATS, State, copy_state

Event = dict[str, Any]


def check_ownership(state: State, seat: int, kind: str) -> None:
    """BH-19.3 step 4 for decision actions: ``not_your_turn`` / ``already_submitted``."""
    phase = state["phase"]
    if phase == "tribute":
        if not state["tribute"]["owed"][seat]:
            raise RuleError("not_your_turn", "you owe no tribute in this deal")
        if state["tribute"]["given"][seat] is not None:
            raise RuleError("already_submitted", "you have already given your tribute")
    elif phase == "offer":
        if state["offer"] != seat:
            raise RuleError("not_your_turn", f"seat {state['offer']} holds the emperor offer")
    elif phase == "declare":
        if state["declared"][seat] is not None:
            raise RuleError("already_submitted", "you have already answered the declarations")
    elif phase == "play" and state["turn"] != seat:
        raise RuleError("not_your_turn", f"it is seat {state['turn']}'s turn")


def validate(state: State, seat: int, wire: Any) -> tuple[Any, bool]:
    """Run every check of BH-19.3 and BH-20 in order; return the parsed action and timeout flag."""
    action, timeout = from_wire(wire)  # step 1
    if state["over"]:  # step 2
        raise RuleError("game_over", "the game has ended")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
        raise RuleError("not_your_turn", "no such seat")
    phase = state["phase"]
    if phase not in PHASES[action.type]:  # step 3
        raise RuleError("wrong_phase", f"{action.type} is not accepted in the {phase} phase")
    if isinstance(action, GuessPartner):  # step 4 and BH-20.9
        if seat == state["emperor"]:
            raise RuleError("emperor_cannot_guess", "the emperor cannot guess the partner")
        if not 0 <= action.seat < SEATS:
            raise RuleError("invalid_seat", "seats are numbered 0 to 4")
        if action.seat == seat:
            raise RuleError("cannot_guess_self", "you cannot name your own seat")
        if state["revealed"]:
            raise RuleError("partner_already_revealed", "the partner question is already settled")
        return action, timeout
    check_ownership(state, seat, action.type)
    if isinstance(action, GiveTribute):
        _check_tribute(state, seat, action)
    elif action is Plain.DECLARE_ALONE:
        if seat != state["emperor"]:
            raise RuleError("not_emperor", "only the emperor can declare alone")
        if not state["alone"]:
            raise RuleError("not_alone", "you do not hold the marked black joker")
    elif isinstance(action, Pledge):
        if seat == state["emperor"]:
            raise RuleError("emperor_cannot_pledge", "the emperor cannot pledge")
        own = "support" if seat == state["partner"] else "oppose"
        if action.side != own:
            raise RuleError("pledge_side_mismatch", f"you cannot pledge {action.side}")
    elif isinstance(action, Play):
        return (action, to_counts_checked_play(state, seat, action)), timeout
    elif action is Plain.PASS and state["top"] is None:
        raise RuleError("cannot_pass_lead", "you lead this trick and must play")
    return action, timeout


def _card_count(n: int) -> str:
    """``n`` cards in English words ("1 card", "2 cards"), for a refusal's message (English; a reader of
    another language is shown the sentence for its code instead)."""
    return f"{n} card" if n == 1 else f"{n} cards"


def _check_tribute(state: State, seat: int, action: GiveTribute) -> None:
    """BH-20.1 checks in order."""
    cards = to_counts(action.cards)  # invalid_card
    owed = state["tribute"]["owed_cards"][seat]
    if len(action.cards) != len(owed):
        raise RuleError("wrong_tribute_count", f"you owe {_card_count(len(owed))}")
    if any(c > h for c, h in zip(cards, state["hands"][seat], strict=True)):
        raise RuleError("card_not_in_hand", "you do not hold all of those cards")
    if cards != to_counts(owed):
        raise RuleError("wrong_tribute_cards", "tribute must be your highest non-joker cards (BH-5.4)")


def to_counts_checked_play(state: State, seat: int, action: Play) -> list[int]:
    """BH-20.7 checks in order; returns the play as a count vector."""
    cards = to_counts(action.cards)  # invalid_card
    if not action.cards:
        raise RuleError("empty_play", "a play needs at least one card")
    if any(c > h for c, h in zip(cards, state["hands"][seat], strict=True)):
        raise RuleError("card_not_in_hand", "you do not hold all of those cards")
    if not is_combination(cards):
        raise RuleError("not_a_combination", "non-joker cards of one rank only (BH-10)")
    top = state["top"]
    if top is not None:
        if len(action.cards) != len(top["cards"]):
            raise RuleError("wrong_card_count", f"the top has {_card_count(len(top['cards']))}")
        if not beats(cards, to_counts(top["cards"])):
            raise RuleError("does_not_beat", "that does not beat the top (BH-11)")
    return cards


def apply_action(state: State, seat: int, wire: Any) -> tuple[State, list[Event]]:
    """Validate, then apply on a copy of ``state``; the automatic steps follow inside (BH-25.2)."""
    parsed, timeout = validate(state, seat, wire)
    s = copy_state(state)
    events: list[Event] = []
    if isinstance(parsed, tuple):
        action, cards = parsed
        play_mod.play(s, seat, cards, action.no_beat_request, timeout, events)
    elif parsed is Plain.PASS:
        play_mod.pass_turn(s, seat, timeout, events)
    elif isinstance(parsed, GuessPartner):
        s["guesses"][seat] = parsed.seat
        events.append({"type": "guess", "visible_to": "all", "seat": seat, "target": parsed.seat})
    elif isinstance(parsed, GiveTribute):
        tribute.give(s, seat, list(parsed.cards), timeout, events)
    elif parsed is Plain.KEEP_EMPEROR:
        roles.keep_emperor(s, seat, timeout, events)
    elif parsed is Plain.PASS_EMPEROR:
        roles.pass_emperor(s, seat, timeout, events)
    elif parsed is Plain.DECLARE_ALONE:
        roles.declare(s, seat, "alone", timeout, events)
    elif isinstance(parsed, Pledge):
        roles.declare(s, seat, parsed.side, timeout, events)
    elif parsed is Plain.NO_DECLARATION:
        roles.declare(s, seat, "none", timeout, events)
    if timeout:
        for event in events:
            event["by_timeout"] = True
    return s, events
