"""Recycling the discard pile and the automatic final phase (BB-12)."""

from __future__ import annotations

import random

from baogame.rules.baobei.cards import CODE_OF

from .helpers import (
    CRANE,
    DUCK,
    GOLDEN,
    HUM,
    IBIS,
    KINGF,
    MACAW,
    MAGPIE,
    PEACOCK,
    SHOEBILL,
    SPARROW,
    WPEL,
    E,
    P,
    a_game,
    act,
    decision,
    kind,
    one_event,
    pass_all,
    play,
    ref,
    rest_of_deck,
    single,
    types,
)


def test_recycling_keeps_top_card_and_includes_under_cards_bb_12_2():
    """BB-12.2 / BB-25.9: the top discard stays; the rest and the under-cards are shuffled in
    canonical order with the recycle key."""
    hands = [
        [HUM, SPARROW],
        [KINGF, MAGPIE],
        rest_of_deck(HUM, SPARROW, KINGF, MAGPIE, CRANE, IBIS, DUCK, SHOEBILL),
    ]
    st = a_game(hands, discard=[IBIS, DUCK, CRANE], under=[SHOEBILL], draw=[], seed="rc")

    st = play(st, 0, "draw")

    import random

    expected = [SHOEBILL, DUCK, IBIS]
    expected = sorted(expected, key=CODE_OF.index)
    random.Random("baobei:rc:round:1:recycle:1").shuffle(expected)
    r = ref(st)
    assert r["recycles"] == 1 and r["discard"] == [CRANE] and r["under_discard"] == 0
    assert r["drawn"] == expected[:1] and r["draw"] == expected[1:]


def test_recycling_includes_shoebill_under_cards_and_keeps_the_top_card_bb_12_2_bb_9_12_e():
    """BB-9.12 e / BB-12.2 / BB-25.9: the cards a Shoebill put beneath the pile are recycled with the rest of
    the discard pile; its top card (the Shoebill) stays."""
    hands = [
        [HUM, SPARROW, KINGF, MAGPIE],
        [DUCK, IBIS, CRANE, PEACOCK],
        rest_of_deck(
            HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS, CRANE, PEACOCK, WPEL, SHOEBILL, GOLDEN, PEACOCK
        ),
    ]
    st = a_game(hands, discard=[WPEL], draw=[SHOEBILL, GOLDEN, PEACOCK], seed="under")
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)
    st = play(st, 0, "use_ability", ability="shoebill")
    st = play(st, 0, "shoebill_place", mine={"card": 0, "slot": 0}, theirs={"card": 1, "target": P(1, 0)})
    assert ref(st)["under_discard"] == 2 and ref(st)["draw"] == []
    st = play(st, 0, "end_turn", bao=False)

    st, events = act(st, 1, "draw")

    expected = sorted([WPEL, HUM, DUCK], key=CODE_OF.index)
    random.Random("baobei:under:round:1:recycle:1").shuffle(expected)
    r = ref(st)
    assert r["recycles"] == 1 and r["discard"] == [SHOEBILL] and r["under_discard"] == 0
    assert r["drawn"] + r["draw"] == expected
    assert one_event(events, "recycled")["draw_size"] == 3


def test_penalty_causing_second_recycling_anchors_on_the_active_player_d_39():
    """BB-12.5 / D-39: S1's failed window pluck needs a penalty card; the resulting second recycling starts
    the automatic final phase with the active S0 as anchor; S0 gets no ``end_turn``; S1 and S2 still take
    their final turns, then the round ends."""
    hands = [
        [HUM, SPARROW, KINGF, MAGPIE],
        [DUCK, IBIS, CRANE, PEACOCK],
        rest_of_deck(HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS, CRANE, PEACOCK, WPEL, MACAW, HUM),
    ]
    st = a_game(hands, discard=[WPEL, MACAW], draw=[HUM], recycles=1)
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")

    st, events = act(st, 1, "pluck", **single(1, 0))

    assert types(events).index("recycled") < types(events).index("automatic_final_phase")
    assert ref(st)["final_phase"] == {"anchor": 0, "cause": "recycling"} and ref(st)["recycles"] == 2
    assert ref(st)["displays"][1][4] is not None
    assert ref(st)["active"] == 1 and kind(st) == "turn_action"
    st = play(st, 1, "take_discard", slot=0)
    st = pass_all(st)
    assert ref(st)["active"] == 2 and kind(st) == "turn_action"
    st = play(st, 2, "take_discard", slot=0)
    st, events = act(st, 0, "pass")
    st, events = act(st, 1, "pass")
    assert one_event(events, "round_ended")["round"] == 1


def test_third_recycling_changes_nothing_bb_12_5_d_bb_12_7():
    """BB-12.5 / BB-12.7 / BB-25.4: the second recycling anchors the final phase on S1; a third recycling in
    S0's final turn changes neither the anchor nor the end (after S0, the seat before the anchor). The
    finished game's referee view keeps the last round's recycle count and final phase."""
    hands = [
        [HUM, SPARROW, KINGF, MAGPIE],
        [DUCK, IBIS, CRANE, PEACOCK],
        rest_of_deck(HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS, CRANE, PEACOCK, SPARROW, KINGF, HUM),
    ]
    st = a_game(hands, discard=[SPARROW, KINGF], draw=[HUM], recycles=1)
    st = play(st, 0, "draw")
    st = pass_all(play(st, 0, "discard"))
    st = play(st, 0, "end_turn", bao=False)
    st = play(st, 1, "draw")
    assert ref(st)["final_phase"] == {"anchor": 1, "cause": "recycling"}
    st = pass_all(play(st, 1, "discard"))
    st = pass_all(play(play(st, 2, "draw"), 2, "discard"))
    assert ref(st)["active"] == 0 and ref(st)["draw"] == []

    st, events = act(st, 0, "draw")

    assert ref(st)["recycles"] == 3 and "automatic_final_phase" not in types(events)
    st = play(st, 0, "discard")
    st, events = act(st, 1, "pass")
    st, events = act(st, 2, "pass")
    assert one_event(events, "round_ended")["bao"] is None
    r = ref(st)
    assert r["over"] is True and r["recycles"] == 3
    assert r["final_phase"] == {"anchor": 1, "cause": "recycling"}


def test_final_phase_lifts_shield_and_annuls_bao_bb_12_6():
    """BB-12.6 / D-40: after BAO, exhaustion lifts the Shield and the caller scores the round total."""
    st = a_game(
        [[HUM], [KINGF], rest_of_deck(HUM, KINGF, CRANE)],
        discard=[CRANE],
        active=1,
        bao_caller=0,
        shield_active=True,
    )

    assert ref(st)["shield_active"] is False
    st = play(st, 1, "take_discard", slot=0)
    st = pass_all(st)
    st = play(st, 2, "take_discard", slot=0)
    st, events = act(st, 0, "pass") if 0 in decision(st)["seats"] else (st, [])
    st, events = act(st, 1, "pass")

    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["bao"] is None and ended["scores"][0] == 1


def test_exhaustion_starts_the_final_phase_bb_12_8():
    """BB-12.8 / D-41: nothing to draw and nothing to recycle: final phase with the active anchor."""
    st = a_game([[HUM], [KINGF], rest_of_deck(HUM, KINGF, CRANE)], discard=[CRANE], active=1)

    assert ref(st)["final_phase"] == {"anchor": 1, "cause": "exhaustion"}
    st = play(st, 1, "take_discard", slot=0)
    st = pass_all(st)
    assert kind(st) == "turn_action" and ref(st)["active"] == 2


def test_the_round_end_names_the_bao_the_final_phase_annulled_bb_12_6_bb_25_7():
    """BB-12.6 / BB-25.7: BAO called before a start within the round (BB-25.3, so no ``bao_called`` in
    the log), then S1's draw recycles a second time: the call no longer counts, the round's end gives no
    BAO outcome and its record names the annulled caller (``bao_annulled``)."""
    hands = [
        [HUM, SPARROW, KINGF, MAGPIE],
        [DUCK, IBIS, CRANE, PEACOCK],
        rest_of_deck(HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS, CRANE, PEACOCK, WPEL, MACAW),
    ]
    st = a_game(hands, discard=[WPEL, MACAW], draw=[], active=1, bao_caller=0, recycles=1)
    ended = None
    while ended is None:
        open_ = E.pending(st)[0]
        seat = open_["seats"][0]
        choice = next(k for k in ("decline_ability", "pass", "discard", "draw") if k in open_["allowed"])
        st, events = act(st, seat, choice)
        assert "bao_called" not in types(events)
        ended = next((e for e in events if e["type"] == "round_ended"), None)

    assert ended["bao"] is None and ended["bao_annulled"] == 0
    assert ended["scores"] == ended["round_totals"]
