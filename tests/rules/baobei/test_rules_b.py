"""Tests for BB-9 … BB-15 (abilities, BAO, Shield, recycling, zero cards, scoring, game end)."""

from __future__ import annotations

from baogame.rules.baobei.cards import CODE_OF
from baogame.rules.baobei.scoring import caller_score, next_round

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
    pass_all,
    play,
    ref,
    rest_of_deck,
    single,
    types,
)


def test_single_own_draw_pluck_orders_reference_then_removed_ability_bb_9_4_a():
    """BB-9.4 a: first the drawn reference's ability, then the removed card's."""
    st = a_game([[MACAW, HUM, KINGF, MAGPIE], FOUR[1], FOUR[2]], draw=[MACAW])

    st = play(st, 0, "draw")
    st = play(st, 0, "pluck", **single(0, 0))

    assert decision(st)["context"]["trigger"] == "own_draw_reference"
    st = play(st, 0, "decline_ability")
    assert decision(st)["context"]["trigger"] == "single_removal"


def test_infeasible_ability_is_announced_without_decision_bb_9_5():
    """BB-9.5 / D-20: Toco with no eligible opponent has no effect; no decision opens."""
    st = a_game([[TOCO, HUM], [KINGF, MAGPIE]], draw=[TOCO], active=0, bao_caller=1, shield_active=True)

    st = play(st, 0, "draw")
    st, events = act(st, 0, "pluck", **single(0, 0))

    assert "ability_no_effect" in types(events) and "ability_offered" not in types(events)


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


def test_bao_gives_every_other_participant_one_final_turn_bb_10_2():
    """BB-10.1 / BB-10.2: after BAO the others play once each; the caller plays no more."""
    st = a_game(FOUR, draw=[HUM, HUM, SPARROW, SPARROW])
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = pass_all(st)
    st = play(st, 0, "end_turn", bao=True)
    for seat in (1, 2):
        assert ref(st)["active"] == seat
        st = play(st, seat, "draw")
        st = play(st, seat, "discard")
        assert kind(st) == "pluck_window"
        st = pass_all(st)
        assert kind(st) != "end_turn"

    assert ref(st)["round"] == 2


def test_own_changes_never_activate_the_shield_bb_11_2_bb_11_3():
    """BB-11.2 / BB-11.3: the caller's own plucks never activate the Shield; an opponent's pluck on the
    caller's display does, after its gifts."""
    st = a_game(FOUR, draw=[HUM, KINGF], active=0, bao_caller=2)
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    st = play(st, 2, "pluck", **single(2, 0))
    assert ref(st)["shield_active"] is False
    st = play(st, 1, "draw")
    st, events = act(st, 1, "pluck", **single(2, 2, 0))

    assert types(events)[:2] == ["pluck_resolved", "shield_activated"]
    assert next(e for e in events if e["type"] == "round_ended")["displays"][2][2] == DUCK


def test_shielded_card_cannot_be_targeted_even_by_a_failing_pluck_bb_11_4():
    """BB-11.4 / D-33: ``shielded`` for any pluck at the caller's cards."""
    st = a_game(FOUR, draw=[HUM], active=0, bao_caller=2, shield_active=True)
    st = play(st, 0, "draw")

    assert error(st, 0, "pluck", **single(2, 3, 0)) == "shielded"


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


def test_exhaustion_starts_the_final_phase_bb_12_8():
    """BB-12.8 / D-41: nothing to draw and nothing to recycle: final phase with the active anchor."""
    st = a_game([[HUM], [KINGF], rest_of_deck(HUM, KINGF, CRANE)], discard=[CRANE], active=1)

    assert ref(st)["final_phase"] == {"anchor": 1, "cause": "exhaustion"}
    st = play(st, 1, "take_discard", slot=0)
    st = pass_all(st)
    assert kind(st) == "turn_action" and ref(st)["active"] == 2


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


def test_zero_card_player_cannot_take_the_discard_bb_13_2():
    """BB-13.2: a player without cards cannot take the discard (``no_cards``)."""
    st = a_game([[None, None], FOUR[1], FOUR[2]], draw=[HUM])

    assert decision(st)["context"]["can_take"] is False
    assert error(st, 0, "take_discard", slot=0) == "no_cards"


def test_scores_failed_and_negative_successful_bao_bb_14_3():
    """BB-14.3: failed BAO = max(2 × total, 5); a negative successful caller keeps it."""
    assert caller_score(6, False) == 12 and caller_score(2, False) == 5 and caller_score(0, False) == 5
    assert caller_score(-5, True) == -5 and caller_score(3, True) == 0
    st = a_game([[GOLDEN], [KINGF], [HUM]], draw=[HUM, HUM], active=1, bao_caller=0)
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st = pass_all(st)
    st = play(st, 2, "draw")
    st = play(st, 2, "discard")
    st = play(st, 0, "pass")
    st, events = act(st, 1, "pass")

    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["scores"] == [-5, 3, 1] and ended["totals"] == [-5, 3, 1]


def test_game_ends_at_threshold_with_unique_lowest_winner_bb_15_1_bb_15_2():
    """BB-15.1 / BB-15.2: a total at the threshold ends the game; the lowest total wins."""
    st = E.setup(
        2,
        {
            "deal": {"hands": [[PEACOCK], [HUM]], "discard": [SPARROW], "draw": [HUM]},
            "start": {"active": 1, "bao_caller": 0, "totals": [70, 10]},
            "threshold": 80,
        },
        "t",
    )

    st = play(st, 1, "draw")
    st, events = act(st, 1, "discard")
    st, events = act(st, 0, "pass")

    assert ref(st)["over"] is True and ref(st)["winners"] == [1]
    assert ref(st)["totals"] == [94, 11]
    game = next(e for e in events if e["type"] == "game_ended")
    assert game["standings"] == [
        {"seat": 1, "total": 11, "position": 1},
        {"seat": 0, "total": 94, "position": 2},
    ]


def test_deciding_round_repeats_while_tied_bb_15_3_bb_15_4():
    """BB-15.3 / BB-15.4: tied lowest totals play a deciding round (5 cards for two); a tie in it
    leads to another deciding round among the tied participants."""
    st = E.setup(
        2,
        {
            "deal": {"hands": [[HUM], [SPARROW]], "discard": [SPARROW], "draw": [HUM]},
            "start": {"active": 1, "totals": [80, 78], "bao_caller": 0},
            "threshold": 80,
        },
        "t",
    )
    st = play(st, 1, "draw")
    st = play(st, 1, "discard")
    st = play(st, 0, "pass")

    r = ref(st)
    assert r["totals"] == [80, 80] and r["deciding"] is True and r["round"] == 2
    assert [len(d) for d in r["displays"]] == [5, 5] and kind(st) == "setup_peek"
    tied = dict(st, deciding=True, participants=[0, 1], deciding_results=[])
    assert next_round(tied, [7, 7]) == ([0, 1], True, None)
    assert next_round(dict(tied, deciding_results=[]), [6, 7]) is None
