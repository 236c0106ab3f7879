"""The six abilities (BB-9.7 – BB-9.13): peek, blind swap, Macaw, Toco, Shoebill; the Golden Toucan
has none."""

from __future__ import annotations

from .helpers import (
    CRANE,
    CUCKOO,
    DUCK,
    FOUR,
    GOLDEN,
    HUM,
    IBIS,
    KINGF,
    MACAW,
    MAGPIE,
    PEACOCK,
    SHOEBILL,
    SPARROW,
    TOCO,
    WPEL,
    E,
    P,
    a_game,
    act,
    decision,
    error,
    kind,
    one_event,
    pass_all,
    play,
    ref,
    rest_of_deck,
    single,
    types,
)


def test_peek_shows_only_the_user_bb_9_7():
    """BB-9.7: only the user sees the peeked card; it stays in place."""
    st = a_game(FOUR, draw=[WPEL])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)

    st, events = act(st, 0, "use_ability", ability="peek", target=P(1, 3))

    assert E.view(st, 0)["displays"][1][3] == PEACOCK and E.view(st, 1)["displays"][1][3] == "?"
    assert [e["visible_to"] for e in events if e["type"] == "peeked"] == ["all", [0]]


def test_blind_swap_needs_unprotected_untouched_cards_bb_9_9():
    """BB-9.9 / BB-11.4: a Cuckoo cannot choose a protected card (``shielded``)."""
    st = a_game(FOUR, draw=[CUCKOO], active=0, bao_caller=2, shield_active=True)
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)

    assert error(st, 0, "use_ability", ability="blind_swap", targets=[P(0, 0), P(2, 0)]) == "shielded"
    st = play(st, 0, "use_ability", ability="blind_swap", targets=[P(0, 0), P(1, 3)])
    assert ref(st)["displays"][0][0] == PEACOCK and ref(st)["displays"][1][3] == HUM


def test_macaw_on_touched_card_looks_without_swap_decision_bb_9_10():
    """BB-9.10 c / D-23: a Macaw may look at an ability-touched card; no swap decision opens."""
    st = a_game([[MACAW, CUCKOO, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[MACAW])
    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(0, 0))
    st = play(st, 0, "use_ability", ability="macaw", targets=[P(0, 1), P(1, 0)])
    assert kind(st) == "macaw_decide"
    st = play(st, 0, "macaw_decide", swap=True)

    st = play(st, 0, "use_ability", ability="macaw", targets=[P(0, 1), P(2, 0)])

    assert kind(st) == "end_turn"
    assert E.view(st, 0)["displays"][0][1] == DUCK and E.view(st, 0)["displays"][2][0] == HUM


def test_toco_adds_unseen_card_that_becomes_touched_bb_9_11():
    """BB-9.11: Toco adds the top draw card to an opponent; nobody sees it; it is ability-touched."""
    st = a_game(FOUR, draw=[TOCO, PEACOCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)

    assert error(st, 0, "use_ability", ability="toco", target_seat=0) == "not_opponent"
    assert error(st, 0, "use_ability", ability="toco", target_seat=5) == "invalid_seat"
    st = play(st, 0, "use_ability", ability="toco", target_seat=1)

    assert ref(st)["displays"][1][4] == PEACOCK and ref(st)["ability_touched"] == [P(1, 4)]
    assert all(E.view(st, s)["displays"][1][4] == "?" for s in range(3))


def test_toco_fills_the_lowest_empty_slot_of_the_opponent_bb_9_11_bb_4_4():
    """BB-9.11 b / BB-4.4 / D-6: the Toco card goes into the lowest empty slot (a gap), not a new slot."""
    st = a_game([FOUR[0], [DUCK, None, CRANE, None], FOUR[2]], draw=[TOCO, PEACOCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)

    st, events = act(st, 0, "use_ability", ability="toco", target_seat=1)

    assert ref(st)["displays"][1] == [DUCK, PEACOCK, CRANE, None]
    assert one_event(events, "toco_added")["slot"] == 1


def test_shoebill_replaces_unseen_and_puts_cards_beneath_bb_9_12():
    """BB-9.12: two draws; the replaced cards go beneath unseen; placed cards seen by the user only."""
    st = a_game(FOUR, draw=[SHOEBILL, GOLDEN, PEACOCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)
    st = play(st, 0, "use_ability", ability="shoebill")

    assert error(st, 0, "shoebill_place", mine={"card": 0, "slot": 3}, theirs=None) == "shoebill_incomplete"
    assert (
        error(st, 0, "shoebill_place", mine={"card": 0, "slot": 3}, theirs={"card": 0, "target": P(1, 0)})
        == "card_reused"
    )
    st = play(st, 0, "shoebill_place", mine={"card": 0, "slot": 3}, theirs={"card": 1, "target": P(1, 0)})

    r = ref(st)
    assert r["displays"][0][3] == GOLDEN and r["displays"][1][0] == PEACOCK and r["under_discard"] == 2
    assert E.view(st, 0)["displays"][0][3] == GOLDEN and E.view(st, 0)["displays"][1][0] == PEACOCK
    assert E.view(st, 1)["displays"][1][0] == "?"


def test_shoebill_with_only_one_drawable_card_lets_the_user_choose_bb_9_12_b_d_28():
    """BB-9.12 b, c / D-28 / BB-12.2 / BB-12.8: the first Shoebill draw recycles the single card under the
    Shoebill; the second draw is impossible and starts the final phase (exhaustion); the user places the one
    card as the opponent replacement, leaving the own replacement out."""
    hands = [
        [HUM, SPARROW, KINGF, MAGPIE],
        [DUCK, IBIS, CRANE, PEACOCK],
        rest_of_deck(HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS, CRANE, PEACOCK, CRANE, SHOEBILL),
    ]
    st = a_game(hands, discard=[CRANE], draw=[SHOEBILL])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)

    st, events = act(st, 0, "use_ability", ability="shoebill")

    assert types(events)[:3] == ["recycled", "automatic_final_phase", "shoebill_drawn"]
    assert ref(st)["final_phase"] == {"anchor": 0, "cause": "exhaustion"} and ref(st)["drawn"] == [CRANE]
    assert E.view(st, 0)["decision"]["context"] == {
        "drawn": [CRANE],
        "own_possible": True,
        "opponent_possible": True,
    }
    st = play(st, 0, "shoebill_place", mine=None, theirs={"card": 0, "target": P(1, 3)})
    r = ref(st)
    assert r["displays"][1][3] == CRANE and r["under_discard"] == 1 and r["displays"][0][0] == HUM
    assert kind(st) != "end_turn" and r["active"] == 1


def test_golden_toucan_has_no_ability_bb_9_13_bb_9_4_a():
    """BB-9.13 / BB-9.4 a: an own-draw Toco pluck removing the Golden Toucan offers only the Toco's
    ability."""
    st = a_game([[GOLDEN, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[TOCO, PEACOCK])
    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(0, 0))

    assert decision(st)["context"] == {"ability": "toco", "card": TOCO, "trigger": "own_draw_reference"}
    st = play(st, 0, "decline_ability")
    assert kind(st) == "end_turn"
