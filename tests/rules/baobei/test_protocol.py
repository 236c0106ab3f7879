"""BB-20 … BB-25 (protocol, decisions, actions, errors, defaults, referee view, options, randomness)
and BB-30 / BB-31 (information)."""

from __future__ import annotations

import random

import pytest

from baogame.rules.baobei import text
from baogame.rules.baobei.bots import BOTS, DEFAULT_BOT
from baogame.rules.baobei.cards import DECK_TABLE
from baogame.rules.core import RuleError
from baogame.rules.registry import get_engine
from bench.engines import play_game

from .helpers import (
    BPEL,
    DUCK,
    HUM,
    IBIS,
    KINGF,
    MAGPIE,
    SPARROW,
    E,
    a_game,
    act,
    decision,
    error,
    kind,
    pass_all,
    play,
    ref,
    single,
)

FOUR = [[HUM, SPARROW, KINGF, MAGPIE], [DUCK, IBIS, KINGF, MAGPIE], [HUM, SPARROW, KINGF, MAGPIE]]


def test_refused_action_changes_nothing_bb_20_1_bb_20_4():
    """BB-20.1 / BB-20.4: a refused action raises RuleError and the state is unchanged."""
    st = a_game(FOUR, draw=[HUM])
    before = repr(st)

    with pytest.raises(RuleError) as info:
        act(st, 0, "take_discard", slot=9)

    assert info.value.code == "invalid_position" and repr(st) == before
    assert info.value.to_json() == {"code": "invalid_position", "detail": info.value.message}


def test_pending_lists_one_decision_with_its_fields_bb_20_2_bb_25_5():
    """BB-20.2 / BB-25.5 1: one open decision with decision_id, kind, seats, allowed, timing, context."""
    st = a_game(FOUR, draw=[HUM])

    assert E.pending(st) == [
        {
            "decision_id": decision(st)["decision_id"],
            "kind": "turn_action",
            "seats": [0],
            "allowed": ["draw", "take_discard"],
            "timing": "turn",
            "context": {"discard_top": SPARROW, "can_draw": True, "can_take": True},
        }
    ]


def test_unknown_fields_are_malformed_bb_20_3():
    """BB-20.3 / BB-22.0 1: any other field is refused; commit_end_turn is not defined for end_turn."""
    st = a_game(FOUR, draw=[HUM])

    assert error(st, 0, "draw", who=0) == "malformed_action"
    assert error(st, 0, "draw", commit_end_turn="yes") == "malformed_action"
    assert error(st, 0, "fly") == "malformed_action"
    assert error(st, 0, "keep", slot="1") == "malformed_action"


def test_commit_end_turn_skips_the_end_turn_decision_bb_20_7():
    """BB-20.7: a pre-committed turn ends at step 4 without ``end_turn``; others may not commit."""
    st = a_game(FOUR, draw=[HUM])
    st = play(st, 0, "draw", commit_end_turn=True)
    st = play(st, 0, "discard")

    assert error(st, 1, "pass", commit_end_turn=True) == "commit_not_allowed"
    st = pass_all(st)
    assert ref(st)["active"] == 1 and kind(st) == "turn_action"


def test_timed_out_active_player_defaults_the_rest_of_the_turn_bb_20_8_bb_24():
    """BB-20.8 / BB-24: a turn_action timeout draws and discards; the ability and end_turn default."""
    st = a_game(FOUR, draw=[BPEL])

    st, events = E.apply(st, 0, E.timeout_action(st, 0))
    assert E.timeout_action(st, 0) is None
    assert all(e["by_timeout"] for e in events) and kind(st) == "pluck_window"
    st, events = act(st, 1, "pass")
    st, events = act(st, 2, "pass")

    assert [e["type"] for e in events if e.get("by_timeout")] == ["ability_declined"]
    assert "end_turn" not in str(E.pending(st))
    assert ref(st)["active"] == 1


def test_control_flow_uses_public_information_only_bb_20_9():
    """BB-20.9 / D-51: a window opens even when nothing can match."""
    st = a_game(FOUR, draw=[IBIS])
    st = play(st, 0, "draw")

    st = play(st, 0, "discard")

    assert kind(st) == "pluck_window" and decision(st)["seats"] == [1, 2]


def test_decision_contexts_bb_21():
    """BB-21: owner-only context items appear only in the owner's view."""
    st = a_game(FOUR, draw=[HUM])
    st = play(st, 0, "draw")

    assert decision(st)["context"] == {}
    assert E.view(st, 0)["decision"]["context"] == {"drawn": HUM}
    assert E.view(st, 1)["decision"] is None and E.view(st, 1)["drawn"] == ["?"]


def test_common_validation_order_bb_22_0():
    """BB-22.0: malformed, window_closed / stale_decision, ownership, action_not_allowed,
    already_responded, commit_not_allowed, then the specific checks."""
    st = a_game(FOUR, draw=[HUM, HUM])
    assert error(st, 1, "draw", extra=1) == "malformed_action"
    with pytest.raises(RuleError) as info:
        E.apply(st, 0, {"type": "draw", "decision_id": "nope"})
    assert info.value.code == "stale_decision"
    assert error(st, 1, "draw") == "not_your_turn"
    assert error(st, 0, "pass") == "action_not_allowed"
    st = play(st, 0, "draw")
    st = play(st, 0, "discard")
    window = decision(st)["decision_id"]
    st = play(st, 1, "pass")
    assert error(st, 0, "pass") == "not_eligible"
    assert error(st, 1, "pass", commit_end_turn=True) == "already_responded"
    assert error(st, 2, "keep", slot=0) == "action_not_allowed"
    st = play(st, 2, "pass")
    with pytest.raises(RuleError) as info:
        E.apply(st, 1, {"type": "pass", "decision_id": window})
    assert info.value.code == "window_closed"


def test_pluck_checks_in_order_bb_22_pluck():
    """BB-22 ``pluck`` checks 1–9."""
    st = a_game(FOUR, draw=[HUM])
    st = play(st, 0, "draw")

    def code(**fields: object) -> str:
        return error(st, 0, "pluck", **fields)

    assert code(kind="single", targets=[], gifts=[]) == "wrong_count"
    assert code(kind="single", targets=[{"seat": 7, "slot": 0}], gifts=[None]) == "invalid_position"
    assert code(kind="double", targets=[{"seat": 1, "slot": 0}] * 2, gifts=[0, 1]) == "duplicate_target"
    assert code(kind="single", targets=[{"seat": 0, "slot": 0}], gifts=[1]) == "gift_not_allowed"
    assert code(kind="single", targets=[{"seat": 1, "slot": 0}], gifts=[None]) == "gift_missing"
    assert code(kind="single", targets=[{"seat": 1, "slot": 0}], gifts=[8]) == "invalid_position"
    assert (
        code(kind="double", targets=[{"seat": 0, "slot": 0}, {"seat": 1, "slot": 0}], gifts=[None, 0])
        == "gift_is_target"
    )
    assert (
        code(kind="double", targets=[{"seat": 2, "slot": 0}, {"seat": 1, "slot": 0}], gifts=[1, 1])
        == "duplicate_gift"
    )


def test_defaults_per_decision_bb_24_bb_25_5_3():
    """BB-24 / BB-25.5 3: timeout actions carry ``timeout: true``; a differing one is malformed."""
    st = a_game(FOUR, draw=[HUM])
    t = E.timeout_action(st, 0)

    assert t == {"type": "draw", "decision_id": decision(st)["decision_id"], "timeout": True}
    assert E.timeout_action(st, 1) is None
    with pytest.raises(RuleError) as info:
        E.apply(st, 0, {**t, "type": "take_discard", "slot": 0})
    assert info.value.code == "malformed_action"


def test_invalid_options_bb_25_1():
    """BB-25.1: unknown keys, wrong types, deal with deals, start without a deal -> invalid_options."""
    bad = [
        {"colour": 1},
        {"threshold": 0},
        {"memory_aid": 1},
        {"start": {"active": 0}},
        {"deal": {"hands": [[HUM]] * 3, "discard": HUM}, "deals": []},
        {"deal": {"hands": [[HUM] * 4] * 3, "discard": HUM}},
        {"first_player": 3},
    ]
    for options in bad:
        with pytest.raises(RuleError) as info:
            E.setup(3, options, 1)
        assert info.value.code == "invalid_options", options
    assert E.default_options(3) == {"threshold": 80, "memory_aid": True}


def test_stacked_deal_rest_is_shuffled_from_seed_bb_25_2():
    """BB-25.2 5 / BB-25.9: unnamed cards lie beneath the named draw cards, shuffled by the rest key."""
    hands = [[HUM, SPARROW, KINGF, MAGPIE], [DUCK, IBIS, KINGF, MAGPIE]]
    st = E.setup(
        2,
        {"deal": {"hands": [h + [HUM] for h in hands], "discard": IBIS, "draw": [BPEL]}, "first_player": 1},
        "x",
    )

    r = ref(st)
    named = [c for h in hands for c in h] + [HUM, HUM, IBIS, BPEL]
    deck = [row[0] for row in DECK_TABLE for _ in range(row[5])]
    for c in named:
        deck.remove(c)
    random.Random("baobei:x:round:1:rest").shuffle(deck)
    assert r["draw"] == [BPEL] + deck


def test_start_option_sets_round_totals_caller_and_shield_bb_25_3():
    """BB-25.3: ``start`` begins at the start of a turn with the given public state."""
    st = a_game(
        FOUR, draw=[HUM], active=2, round=3, totals=[5, 6, 7], bao_caller=0, shield_active=True, recycles=1
    )

    r = ref(st)
    assert (r["round"], r["totals"], r["bao_caller"], r["shield_active"], r["recycles"], r["active"]) == (
        3,
        [5, 6, 7],
        0,
        True,
        1,
        2,
    )


def test_round_one_recomputed_from_the_seed_bb_25_10():
    """BB-25.9 / BB-25.10: round 1 recomputed exactly as the informative snippet does."""
    for players in (2, 4, 6):
        seed = f"verify-{players}"
        deck = [row[0] for row in DECK_TABLE for _ in range(row[5])]
        random.Random(f"baobei:{seed}:round:1:deal").shuffle(deck)
        per = 5 if players == 2 else 4

        r = ref(E.setup(players, {}, seed))

        assert r["displays"] == [deck[i * per : (i + 1) * per] for i in range(players)]
        assert r["discard"] == [deck[players * per]]
        assert r["draw"] == deck[players * per + 1 :]


def test_views_hide_unknown_cards_and_spectator_sees_none_bb_25_6_bb_30_3():
    """BB-25.6 / BB-30.3: a seat's view names the cards it has seen; spectators and memory_aid off
    name none; the draw pile is a count."""
    st = a_game(FOUR, draw=[HUM])
    st = play(st, 0, "take_discard", slot=0)

    assert E.view(st, 1)["displays"][0][0] == SPARROW
    assert E.view(st, None)["displays"][0][0] == "?"
    assert isinstance(E.view(st, 1)["draw"], int) and E.view(st, None)["seat"] is None
    options = {"deal": {"hands": FOUR, "discard": SPARROW}, "start": {"active": 0}, "memory_aid": False}
    st = E.setup(3, options, 1)
    st = play(st, 0, "take_discard", slot=0)
    assert E.view(st, 1)["displays"][0][0] == "?"


def test_referee_view_keys_bb_25_4():
    """BB-25.4: the referee view has the standard keys."""
    keys = {
        "round",
        "active",
        "displays",
        "drawn",
        "discard",
        "under_discard",
        "draw",
        "bao_caller",
        "shield_active",
        "recycles",
        "final_phase",
        "round_scores",
        "totals",
        "over",
        "winners",
    }

    assert keys <= set(ref(E.setup(4, {}, 2)))
    assert keys | {"seat", "decision"} <= set(E.view(E.setup(4, {}, 2), 0))


def test_private_events_visible_only_to_recipient_bb_30_2_bb_31():
    """BB-30.2 / BB-31: the drawn card only in an event for the drawer; a gift's identity never."""
    st = a_game(FOUR, draw=[KINGF])
    st, events = act(st, 0, "draw")

    private = [e for e in events if e["visible_to"] != "all"]
    assert private == [{"type": "drew", "visible_to": [0], "seat": 0, "card": KINGF, "private": True}]
    assert all("card" not in e for e in events if e["visible_to"] == "all")
    st, events = act(st, 0, "pluck", **single(1, 2, 3))
    assert MAGPIE not in str(events)


def test_text_describes_events_and_decisions():
    """text.describe_event / describe_decision use only their argument."""
    e = {
        "type": "pluck_resolved",
        "seat": 2,
        "kind": "single",
        "targets": [{"seat": 0, "slot": 1}],
        "gifts": [None],
        "success": True,
        "cards": [MAGPIE],
    }

    assert text.describe_event(e) == "Seat 2 plucked seat 0 slot 1: success, removed a Magpie."
    gave = {**e, "gifts": [3]}
    assert text.describe_event(gave) == (
        "Seat 2 plucked seat 0 slot 1: success, removed a Magpie; gave their own slot 3 face down into "
        "seat 0 slot 1."
    )
    assert text.describe_event({**gave, "success": False}) == (
        "Seat 2 plucked seat 0 slot 1: failure, showing a Magpie."  # no gift moves (BB-7.5)
    )
    assert (
        text.describe_decision(
            {"kind": "turn_action", "context": {"discard_top": MAGPIE, "can_draw": True, "can_take": True}}
        )
        == "Your turn: draw or take the Magpie."
    )


def test_a_slot_of_the_acting_seats_own_display_is_their_own_not_their_name_twice():
    pluck = {
        "type": "pluck_resolved",
        "seat": 2,
        "kind": "double",
        "targets": [{"seat": 2, "slot": 0}, {"seat": 1, "slot": 3}],
        "gifts": [None, 4],
        "success": True,
        "cards": [MAGPIE, MAGPIE],
    }
    looked = {
        "type": "macaw_looked",
        "seat": 0,
        "positions": [{"seat": 0, "slot": 1}, {"seat": 2, "slot": 2}],
    }

    assert text.describe_event(pluck) == (
        "Seat 2 double-plucked their own slot 0, seat 1 slot 3: success, removed a Magpie and a Magpie; "
        "gave their own slot 4 face down into seat 1 slot 3."
    )
    assert text.describe_event(looked) == "Seat 0 looked at their own slot 1 and seat 2 slot 2."
    assert text.describe_event({**looked, "cards": [MAGPIE, MAGPIE]}) == (
        "You looked at your slot 1 and seat 2 slot 2: a Magpie and a Magpie."
    )
    peek = {"type": "peeked", "seat": 1, "position": {"seat": 1, "slot": 2}}
    assert text.describe_event(peek) == "Seat 1 peeked at their own slot 2."
    assert text.describe_event({**peek, "card": MAGPIE}) == "You peeked at your slot 2: a Magpie."


def test_a_round_end_names_each_seats_score_and_total_and_the_bao_bb_25_7():
    e = {
        "type": "round_ended",
        "round": 5,
        "deciding": False,
        "scores": [8, 0, 14],
        "round_totals": [8, 3, 14],
        "totals": [43, 61, 31],
        "bao": {"caller": 1, "success": True},
    }

    assert text.describe_event(e) == (
        "Round 5 ended: seat 0 scored 8 (total 43); seat 1 scored 0 (total 61); seat 2 scored 14 (total 31)."
        " Seat 1's BAO succeeded."
    )


def test_a_deciding_round_end_leaves_out_the_seats_that_sat_out_and_the_unchanged_totals_bb_15():
    e = {"type": "round_ended", "round": 9, "deciding": True, "scores": [3, None, 7], "totals": [85, 82, 85]}

    assert text.describe_event(e) == "Deciding round 9 ended: seat 0 scored 3; seat 2 scored 7."


def test_played_games_describe_round_ends_and_abilities_in_words_not_codes():
    """Events as the engine emits them, from seeded games of random bots: a round's end and an
    ability's offer, refusal or no effect read as words (``blind swap``), never a list or a code."""
    eng = get_engine("baobei")
    seen: dict[str, int] = {}
    for seed in range(4):
        rng = random.Random(seed)
        state = eng.setup(3, eng.default_options(3), f"text-seed-{seed}")
        while decisions := eng.pending(state):  # to the game's end
            seat = rng.choice(decisions[0]["seats"])
            state, events = eng.apply(state, seat, BOTS["random"](eng.view(state, seat), rng))
            for e in events:
                if e["type"] in ("round_ended", "ability_offered", "ability_declined", "ability_no_effect"):
                    seen[e["type"]] = seen.get(e["type"], 0) + 1
                    sentence = text.describe_event(e)
                    assert "[" not in sentence and "_" not in sentence, sentence
                    if e["type"] == "round_ended":
                        played = [n for n, score in enumerate(e["scores"]) if score is not None]
                        assert all(f"seat {n} scored {e['scores'][n]}" in sentence for n in played)

    assert {"round_ended", "ability_offered", "ability_declined"} <= seen.keys()


def test_memory_bot_beats_random_bots():
    """Bots: the memory bot (seat 0) against three random bots wins clearly more than 25%."""
    assert DEFAULT_BOT == "memory" and set(BOTS) >= {"random", "memory"}
    games = 200
    wins = sum(
        play_game("baobei", g, 4, ["memory", "random", "random", "random"])[0]["winners"] == [0]
        for g in range(games)
    )

    print(f"memory bot win rate: {wins / games:.0%}")
    assert wins / games >= 0.6


def test_private_events_face_up_read_in_the_third_person_bb_2_3():
    """A private event is told to its own seat ("You drew …"); face up (the finished game's replay, read
    by someone who is not that seat) it names the seat instead."""
    cases = [
        (
            {"type": "setup_peek_chosen", "seat": 1, "slots": [0, 3], "cards": [MAGPIE, MAGPIE]},
            "Seat 1 looked at their slots 0 and 3: a Magpie and a Magpie.",
        ),
        ({"type": "drew", "seat": 2, "card": MAGPIE}, "Seat 2 drew a Magpie."),
        (
            {"type": "peeked", "seat": 1, "position": {"seat": 1, "slot": 2}, "card": MAGPIE},
            "Seat 1 peeked at their own slot 2: a Magpie.",
        ),
        (
            {
                "type": "macaw_looked",
                "seat": 0,
                "positions": [{"seat": 0, "slot": 1}, {"seat": 2, "slot": 2}],
                "cards": [MAGPIE, MAGPIE],
            },
            "Seat 0 looked at their own slot 1 and seat 2 slot 2: a Magpie and a Magpie.",
        ),
        ({"type": "shoebill_drawn", "seat": 0, "cards": [MAGPIE]}, "Seat 0's Shoebill drew a Magpie."),
        (
            {
                "type": "shoebill_placed",
                "seat": 0,
                "placed": [{"card": MAGPIE, "position": {"seat": 2, "slot": 1}}],
            },
            "Seat 0 placed a Magpie at seat 2 slot 1.",
        ),
    ]
    for event, face_up in cases:
        assert text.render(text.event_text(event, face_up=True)) == face_up
        assert text.describe_event(event).startswith(("You", "Your"))  # as told to its own seat
    public = {"type": "drew", "seat": 2}
    assert text.render(text.event_text(public, face_up=True)) == text.describe_event(public)
