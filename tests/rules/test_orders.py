"""Standing orders, the pure rules (``baogame.rules.orders``): which answer a seat's orders give for its
open decision, when an order is used up or dropped, and that every answer is one the engine accepts."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from baogame.rules import orders
from baogame.rules.baohuang.bots import strategic_bot
from baogame.rules.baohuang.cards import to_list
from baogame.rules.baohuang.engine import ENGINE as BH
from baogame.rules.core import RuleError

from .baobei.helpers import FOUR, KINGF, kind, pass_all, play
from .baobei.helpers import a_game as bb_game
from .baohuang.helpers import a_game, act, keep_and_declare

#: Seat 0 (RJ*) is the emperor and leads; after its A A only seat 3 (2 2) can beat (BH-11.1).
HANDS = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]


def led_pair_of_aces() -> dict:
    state, _ = keep_and_declare(a_game(HANDS))
    state, _ = act(state, 0, {"type": "play", "cards": ["A", "A"]})
    return state


def arm(state: dict, seat: int, kind_: str, params: dict | None = None, have: list | None = None) -> list:
    return orders.arm("baohuang", state, seat, have or [], kind_, params)


def test_pass_unbeatable_passes_only_when_no_play_beats_bh_11_bh_12_5():
    """BH-11.1, BH-12.5, BH-22.1: "pass when I cannot beat" passes seat 1; seat 3, who can beat, is asked."""
    state = led_pair_of_aces()
    mine = arm(state, 1, "pass_unbeatable")

    assert orders.standing_answer("baohuang", state, 1, mine) == ({"type": "pass"}, mine)
    state, _ = act(state, 1, {"type": "pass"})
    state, _ = act(state, 2, {"type": "pass"})
    theirs = arm(state, 3, "pass_unbeatable")
    assert orders.standing_answer("baohuang", state, 3, theirs) == (None, theirs)


def test_pass_unbeatable_never_passes_a_lead_and_persists_bh_12_3():
    """BH-12.3: a lead cannot be passed, so the order asks the leader and stays for later tricks."""
    state, _ = keep_and_declare(a_game(HANDS))
    mine = arm(state, 0, "pass_unbeatable")

    assert orders.standing_answer("baohuang", state, 0, mine) == (None, mine)
    assert mine[0]["bound"] is None


def test_pass_trick_passes_even_a_seat_that_could_beat_and_ends_with_the_trick_bh_12_7():
    """BH-12.5, BH-12.7: "pass to the end of this trick" passes seat 3 (who holds 2 2) in this trick
    only; once the trick is won the order is gone."""
    state = led_pair_of_aces()
    mine = arm(state, 3, "pass_trick")
    assert orders.standing_answer("baohuang", state, 3, mine) == (None, mine)  # not seat 3's turn yet

    for seat in (1, 2):
        state, _ = act(state, seat, {"type": "pass"})
    action, left = orders.standing_answer("baohuang", state, 3, mine)
    assert action == {"type": "pass"} and left == mine
    state, _ = act(state, 3, action)
    state, _ = act(state, 4, {"type": "pass"})  # trick won by seat 0, who leads again

    assert state["top"] is None and state["turn"] == 0
    assert orders.standing_answer("baohuang", state, 3, mine) == (None, [])


def test_trick_orders_cannot_be_given_outside_play_bh_12():
    """BH-12: a trick order outside the play phase is refused with ``no_trick``."""
    state = a_game(HANDS)  # the emperor offer is open

    with pytest.raises(RuleError) as info:
        orders.make_order("baohuang", state, 1, "pass_trick")
    assert info.value.code == "no_trick"


def test_play_if_beats_plays_when_the_cards_beat_the_top_bh_11_bh_20_7():
    """BH-11.1, BH-20.7: seat 3's "play 2 2 if it beats" plays 2 2 over A A and is then used up."""
    state = led_pair_of_aces()
    mine = arm(state, 3, "play_if_beats", {"cards": ["2", "2"]})
    for seat in (1, 2):
        state, _ = act(state, seat, {"type": "pass"})

    action, left = orders.standing_answer("baohuang", state, 3, mine)

    assert action == {"type": "play", "cards": ["2", "2"]} and left == []
    act(state, 3, action)


def test_play_if_beats_asks_when_the_cards_do_not_beat_and_is_used_up_bh_11():
    """BH-11.1: Q Q does not beat A A, so seat 4 is asked, and the order is spent."""
    state = led_pair_of_aces()
    mine = arm(state, 4, "play_if_beats", {"cards": ["Q", "Q"]})
    for seat in (1, 2, 3):
        state, _ = act(state, seat, {"type": "pass"})

    assert orders.standing_answer("baohuang", state, 4, mine) == (None, [])


def test_play_if_beats_is_dropped_when_its_cards_left_the_hand_bh_20_7():
    """BH-20.7 ``card_not_in_hand``: an order whose cards the seat no longer holds is dropped."""
    state = led_pair_of_aces()
    mine = [{"kind": "play_if_beats", "params": {"cards": ["K", "K"]}, "bound": orders.trick_key(state)}]

    assert orders.standing_answer("baohuang", state, 1, mine) == (None, [])
    with pytest.raises(RuleError) as info:
        orders.make_order("baohuang", state, 1, "play_if_beats", {"cards": ["K", "K"]})
    assert info.value.code == "card_not_in_hand"


def test_pass_trick_and_play_if_beats_replace_each_other():
    """A seat has one plan for its next turn in a trick: arming one of the two drops the other."""
    state = led_pair_of_aces()
    mine = arm(state, 3, "pass_trick")
    mine = arm(state, 3, "play_if_beats", {"cards": ["2", "2"]}, mine)

    assert [o["kind"] for o in mine] == ["play_if_beats"]


def test_offer_answered_ahead_keeps_or_passes_bh_6_2():
    """BH-6.2: the emperor offer answered ahead gives ``keep_emperor`` / ``pass_emperor`` once."""
    state = a_game(HANDS)
    keep = arm(state, 0, "offer", {"answer": "keep"})
    give = arm(state, 0, "offer", {"answer": "pass"})

    assert orders.standing_answer("baohuang", state, 0, keep) == ({"type": "keep_emperor"}, [])
    assert orders.standing_answer("baohuang", state, 0, give) == ({"type": "pass_emperor"}, [])
    assert orders.standing_answer("baohuang", state, 1, arm(state, 1, "offer", {"answer": "keep"}))[0] is None


def test_answers_ahead_armed_after_the_question_are_for_the_next_deal_bh_6_bh_8():
    """BH-6, BH-8: armed during play, offer and declaration orders wait for the next deal."""
    state = led_pair_of_aces()
    mine = arm(state, 2, "declare", {"answer": "pledge"})

    assert mine[0]["bound"] == str(state["deal"] + 1)
    assert orders.standing_answer("baohuang", state, 2, mine) == (None, mine)


def _refused(state: dict, seat: int, kind_: str, answer: str) -> str:
    with pytest.raises(RuleError) as info:
        orders.make_order("baohuang", state, seat, kind_, {"answer": answer})
    return info.value.code


def test_no_answer_ahead_for_a_next_deal_of_a_one_deal_game_bh_17_6():
    """BH-17.6: with ``deal_limit`` 1 a next deal comes only if the lead is shared when the deal ends
    (BH-17.3): once this deal's offer is past, an offer answered ahead has no deal to be for and is
    refused (``no_next_deal``), as is a declaration once the declarations are past. This deal's own
    questions are still answered ahead."""
    offered = a_game(HANDS, deal_limit=1)
    declaring, _ = act(offered, 0, {"type": "keep_emperor"})
    playing, _ = keep_and_declare(offered)

    assert arm(offered, 2, "offer", {"answer": "pass"})[0]["bound"] == "1"
    assert arm(declaring, 2, "declare", {"answer": "none"})[0]["bound"] == "1"
    assert _refused(declaring, 2, "offer", "keep") == "no_next_deal"
    assert _refused(playing, 2, "offer", "keep") == "no_next_deal"
    assert _refused(playing, 2, "declare", "pledge") == "no_next_deal"
    assert orders.answer_ahead_deal(playing, "offer") is None


def test_answers_ahead_for_the_next_deal_while_one_is_due_bh_17_6():
    """BH-17.6: before the deal limit is reached (or with none) the next deal is due: answered ahead in
    play, the offer and the declaration are for it."""
    for limit in (2, None):
        playing, _ = keep_and_declare(a_game(HANDS, deal_limit=limit))

        assert arm(playing, 2, "offer", {"answer": "keep"})[0]["bound"] == "2"
        assert arm(playing, 2, "declare", {"answer": "none"})[0]["bound"] == "2"


def test_declaration_answered_ahead_pledges_the_true_side_bh_8_3():
    """BH-8.3: "pledge" pledges the seat's true side (seat 1 holds BJ*: support; seat 2: oppose)."""
    state, _ = act(a_game(HANDS), 0, {"type": "keep_emperor"})

    for seat, side in ((1, "support"), (2, "oppose")):
        mine = arm(state, seat, "declare", {"answer": "pledge"})
        assert orders.standing_answer("baohuang", state, seat, mine) == ({"type": "pledge", "side": side}, [])


def test_a_declaration_the_seat_may_not_give_is_dropped_and_the_player_asked_bh_8_2():
    """BH-8.2: the emperor cannot pledge, and "alone" is legal only for an emperor alone: dropped."""
    state, _ = act(a_game(HANDS), 0, {"type": "keep_emperor"})

    for answer in ("pledge", "alone"):
        mine = arm(state, 0, "declare", {"answer": answer})
        assert orders.standing_answer("baohuang", state, 0, mine) == (None, [])
    none = arm(state, 0, "declare", {"answer": "none"})
    assert orders.standing_answer("baohuang", state, 0, none) == ({"type": "no_declaration"}, [])


@pytest.mark.parametrize(
    ("game", "kind_", "params", "code"),
    [
        ("baohuang", "end_turn_when_done", None, "unknown_order"),
        ("baobei", "pass_trick", None, "unknown_order"),
        ("baohuang", "offer", {"answer": "maybe"}, "invalid_order"),
        ("baohuang", "pass_trick", {"cards": ["2"]}, "invalid_order"),
        ("baohuang", "play_if_beats", {"cards": ["7", "8"]}, "not_a_combination"),
        ("baohuang", "play_if_beats", {"cards": ["X"]}, "invalid_card"),
        ("baohuang", "play_if_beats", {}, "invalid_order"),
    ],
)
def test_bad_orders_are_refused_with_stable_codes(game, kind_, params, code):
    """Bad input gets a stable code (the codes of ``make_order``; BH-10, BH-20.7 for the cards)."""
    state = led_pair_of_aces() if game == "baohuang" else bb_game(FOUR)
    with pytest.raises(RuleError) as info:
        orders.make_order(game, state, 3, kind_, params)
    assert info.value.code == code


def test_bao_bei_end_turn_when_done_ends_the_turn_without_bao_bb_20_7():
    """BB-20.7, BB-24: the ``end_turn`` decision is answered ``bao: false``; other decisions are asked."""
    st = bb_game(FOUR, draw=[KINGF])
    mine = orders.arm("baobei", st, 0, [], "end_turn_when_done")
    assert orders.standing_answer("baobei", st, 0, mine) == (None, mine)  # turn_action: ask

    st = pass_all(play(play(st, 0, "draw"), 0, "discard"))
    assert kind(st) == "end_turn"
    action, left = orders.standing_answer("baobei", st, 0, mine)

    assert action == {"type": "end_turn", "decision_id": st["decision"]["id"], "bao": False} and left == mine
    play(st, 0, "end_turn", bao=False)


def test_bao_bei_skip_windows_passes_a_plucking_window_bb_24():
    """BB-24: "don't wait for me in windows" passes an open plucking window of the seat."""
    st = play(play(bb_game(FOUR, draw=[KINGF]), 0, "draw"), 0, "discard")
    assert kind(st) == "pluck_window"
    seat = st["decision"]["owners"][0]
    mine = orders.arm("baobei", st, seat, [], "skip_windows")

    action, _ = orders.standing_answer("baobei", st, seat, mine)

    assert action == {"type": "pass", "decision_id": st["decision"]["id"]}


@pytest.mark.parametrize("seed", range(6))
def test_every_answer_of_an_order_is_accepted_by_the_engine_bh_22(seed):
    """BH-22, BH-25.2: in bot-played games with random orders armed, every answer the orders give is
    a legal action that ``apply`` accepts, and an answer is only ever given to the decision's owner."""
    rng = random.Random(seed)
    state = BH.setup(5, {}, f"orders-{seed}")
    held: list[list[dict]] = [[] for _ in range(5)]
    answered = 0
    for _ in range(400):
        if state["over"]:
            break
        for seat in range(5):
            kind_ = rng.choice([*orders.KINDS["baohuang"], None])
            params = {
                "offer": {"answer": rng.choice(["keep", "pass"])},
                "declare": {"answer": rng.choice(["none", "pledge", "alone"])},
            }.get(kind_ or "", {})
            if kind_ == "play_if_beats":
                hand = to_list(state["hands"][seat])
                params = {"cards": [rng.choice(hand)]} if hand else {"cards": ["6"]}
            if kind_ is not None:
                with contextlib.suppress(RuleError):
                    held[seat] = orders.arm("baohuang", state, seat, held[seat], kind_, params)
        seat = BH.pending(state)[0]["seats"][0]
        action, held[seat] = orders.standing_answer("baohuang", state, seat, held[seat])
        for other in range(5):
            if other not in BH.pending(state)[0]["seats"]:
                assert orders.standing_answer("baohuang", state, other, held[other])[0] is None
        if action is None:
            action = strategic_bot(BH.view(state, seat), rng)
        else:
            answered += 1
            assert "timeout" not in action
        state, _ = BH.apply(state, seat, action)
    assert answered > 0


@pytest.mark.parametrize(
    ("game", "line", "parsed"),
    [
        ("baohuang", "autopass on", ("arm", "pass_unbeatable", {})),
        ("baohuang", "autopass off", ("revoke", "pass_unbeatable")),
        ("baohuang", "pass trick", ("arm", "pass_trick", {})),
        ("baohuang", "play 9 9 if it beats", ("arm", "play_if_beats", {"cards": ["9", "9"]})),
        ("baohuang", "offer keep", ("arm", "offer", {"answer": "keep"})),
        ("baohuang", "declare pledge", ("arm", "declare", {"answer": "pledge"})),
        ("baobei", "end turn auto on", ("arm", "end_turn_when_done", {})),
        ("baobei", "skip windows off", ("revoke", "skip_windows")),
        ("baohuang", "orders", ("list",)),
        ("baobei", "orders clear", ("clear",)),
        ("baohuang", "pass", None),
        ("baobei", "pass trick", None),
    ],
)
def test_every_mail_command_of_the_orders_reads_as_its_order(game: str, line: str, parsed: Any) -> None:
    """The mail commands docs/playing.md lists set, withdraw, list and clear the orders they name; a
    plain action (``pass``) and another game's order are not order commands."""
    assert orders.parse_mail_command(game, line) == parsed
