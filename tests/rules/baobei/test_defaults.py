"""Default actions at a deadline (BB-24)."""

from __future__ import annotations

from .helpers import (
    CRANE,
    DUCK,
    GOLDEN,
    HUM,
    IBIS,
    KINGF,
    MAGPIE,
    PEACOCK,
    SHOEBILL,
    SPARROW,
    E,
    P,
    a_game,
    decision,
    pass_all,
    play,
    ref,
    rest_of_deck,
)


def test_default_shoebill_placement_bb_24():
    """BB-24: card 0 replaces the user's lowest untouched card, card 1 the first eligible opponent card in
    turn order after the user (S2 before S0, skipping the shielded caller S0)."""
    st = a_game(
        [[HUM, SPARROW, KINGF, MAGPIE], [None, IBIS, CRANE, PEACOCK], [None, None, DUCK, MAGPIE]],
        draw=[SHOEBILL, GOLDEN, PEACOCK],
        active=1,
        bao_caller=0,
        shield_active=True,
    )
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st = pass_all(st)
    st = play(st, 1, "use_ability", ability="shoebill")

    t = E.timeout_action(st, 1)

    assert (t["mine"], t["theirs"]) == ({"card": 0, "slot": 1}, {"card": 1, "target": P(2, 2)})
    st = E.apply(st, 1, t)[0]
    assert ref(st)["displays"][1][1] == GOLDEN and ref(st)["displays"][2][2] == PEACOCK


def test_default_turn_takes_the_discard_when_draw_is_impossible_bb_24():
    """BB-24 / D-43: with nothing to draw, the default turn takes the discard into the lowest occupied
    slot."""
    st = a_game([[None, HUM], [KINGF], rest_of_deck(HUM, KINGF, CRANE)], discard=[CRANE])

    t = E.timeout_action(st, 0)

    assert t == {
        "type": "take_discard",
        "decision_id": decision(st)["decision_id"],
        "slot": 1,
        "timeout": True,
    }
    st = E.apply(st, 0, t)[0]
    assert ref(st)["displays"][0] == [None, CRANE]
