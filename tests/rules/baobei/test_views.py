"""What each seat is told and when (BB-30): multi-owner decisions publish their answers when they close."""

from __future__ import annotations

from .helpers import (
    FOUR,
    HUM,
    SPARROW,
    a_fresh_game,
    act,
    one_event,
    play,
)


def test_passes_and_peek_choices_are_public_only_when_the_decision_closes_bb_30_6_d_50():
    """BB-30.6 / D-50: a pass and a setup-peek choice publish nothing while the decision stays open; the
    closing events list them."""
    st = a_fresh_game(FOUR, SPARROW, draw=[HUM])
    st, events = act(st, 1, "choose_peek", slots=[2, 3])
    assert [e for e in events if e["visible_to"] == "all"] == []
    st = play(st, 0, "choose_peek", slots=[0, 1])
    st, events = act(st, 2, "choose_peek", slots=[1, 0])
    assert one_event(events, "setup_peek_done")["choices"][1] == {"seat": 1, "slots": [2, 3]}
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st, events = act(st, 2, "pass")

    assert [e for e in events if e["visible_to"] == "all"] == []
    st, events = act(st, 1, "pass")
    assert one_event(events, "window_closed")["passed"] == [1, 2]
