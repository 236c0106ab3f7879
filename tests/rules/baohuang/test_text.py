"""text.describe_event / describe_decision: one sentence for every event of BH-24."""

from __future__ import annotations

from baogame.rules.baohuang.engine import ENGINE
from baogame.rules.baohuang.text import describe_decision, describe_event

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
