"""text.describe_event / describe_decision: one sentence for every event of BH-24."""

from __future__ import annotations

from baogame.rules.baohuang.engine import ENGINE
from baogame.rules.baohuang.text import describe_decision, describe_event, event_text
from baogame.rules.text import render

from .helpers import play_deal


def test_every_event_type_has_a_sentence_bh_24():
    """BH-24: describe_event handles each event type using only its own fields."""
    _state, events = play_deal(
        [0, 2, 1, 3, 4], 0, 2, declarations={1: {"type": "pledge", "side": "oppose"}}, target=3
    )
    _s, setup_events = ENGINE.setup_with_events(
        5, {"start": {"deal": 2, "previous": {"emperor": 0, "partner": 1, "result": "lost"}}}, 4
    )
    for event in (
        events
        + setup_events
        + [{"type": "guess", "seat": 1, "target": 2}, {"type": "emperor_card_passed", "from": 1, "to": 2}]
    ):
        text = describe_event(event)
        assert text.endswith(".") and not text.startswith(event["type"])


def test_describe_decision():
    """Each decision kind reads as an instruction."""
    state = ENGINE.setup(5, {}, 1)

    assert "keep" in describe_decision(ENGINE.pending(state)[0])
    assert (
        describe_decision({"kind": "turn", "seats": [2], "allowed": ["play", "pass"]})
        == "Seat 2: beat the top combination or pass."
    )


def test_private_events_face_up_read_in_the_third_person():
    """A private event is told to its own seat ("You owe as tribute …"); face up (the finished game's
    replay, read by someone who is not that seat) it names the seat instead."""
    cases = [
        (
            {"type": "hand_dealt", "visible_to": [3], "seat": 3, "cards": ["K", "BJ"]},
            "Seat 3 is dealt 2 cards: ",
        ),
        ({"type": "tribute_owed", "visible_to": [1], "seat": 1, "cards": ["2"]}, "Seat 1 owes as tribute: "),
        (
            {"type": "tribute_cards_received", "visible_to": [0], "seat": 0, "cards": ["A"]},
            "Seat 0 receives as tribute: ",
        ),
        (
            {"type": "partner_notice", "visible_to": [2], "partner": 4},
            "Seat 2's partner is Seat 4.",
        ),
        (
            {"type": "partner_notice", "visible_to": [2], "partner": None},
            "Seat 2 holds both marked jokers and plays alone.",
        ),
    ]
    for event, face_up in cases:
        assert render(event_text(event, face_up=True)).startswith(face_up)
        assert describe_event(event).startswith(("You", "Your"))  # as told to its own seat
