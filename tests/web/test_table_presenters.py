"""What the board shows beyond the view: quick-play words, the final reveal, prompts."""

from __future__ import annotations

import json

from django.utils import translation

from apps.games.presenters import present
from apps.games.presenters.baohuang import play_label
from apps.games.presenters.common import describe_decision
from baogame.rules.registry import get_engine

NAMES = ["ann", "ben", "cy"]


def test_a_quick_play_button_says_what_it_plays_in_words_and_codes():
    assert play_label(["K", "K", "BJ"]) == "Play two kings and a black joker (K K BJ)"
    assert play_label(["6"]) == "Play a six (6)"


def test_a_quick_play_with_the_partner_card_names_it_and_warns_bh_14():
    label = play_label(["A", "BJ*"])

    assert "the marked black joker" in label and "BJ*" in label
    assert "⚠" in label and "role" in label


def test_a_quick_play_with_the_emperor_card_names_it_bh_2_5():
    label = play_label(["RJ*"])

    assert label.startswith("Play the marked red joker (RJ*)") and "⚠" in label


def test_quick_play_buttons_on_the_board_use_the_words():
    engine = get_engine("baohuang")
    hands = [["K", "BJ*"], ["6", "7"], ["8", "9"], ["10", "J"], ["Q", "RJ*"]]
    state = engine.setup(5, {"deal": {"hands": hands}}, "quick")
    # Drive the game to the first trick: keep the emperor card, nobody declares.
    for _ in range(20):
        pending = engine.pending(state)
        if not pending or pending[0]["kind"] == "turn":
            break
        d = pending[0]
        for s in d["seats"]:
            if d["kind"] == "declare":
                keep = "keep_emperor" in d["allowed"]
                action = {"type": "keep_emperor" if keep else "no_declaration"}
            else:
                action = engine.timeout_action(state, s)
                action.pop("timeout", None)
            state, _ = engine.apply(state, s, action)
    seat = engine.pending(state)[0]["seats"][0]
    view = engine.view(state, seat)

    board = present(
        engine="baohuang",
        view=view,
        seat=seat,
        names=[*NAMES, "dan", "eve"],
        legal=engine.legal_actions(state, seat),
    )

    labels = [b["label"] for b in board["decision"]["quick_plays"]]
    assert labels and all(label.startswith("Play ") for label in labels)
    for button in board["decision"]["quick_plays"]:
        cards = json.loads(button["json"])["cards"]
        if any(c.endswith("*") for c in cards):
            assert "marked" in button["label"] and "⚠" in button["label"]


def test_a_finished_bao_bei_board_shows_the_final_displays_face_up_bb_14_1():
    engine = get_engine("baobei")
    state = engine.setup(3, {}, "finished")
    view = engine.view(state, 0) | {"over": True, "winners": [1]}
    final = [["magpie", None, "peacock"], ["hummingbird"], []]
    ended = {
        "type": "round_ended",
        "round": 1,
        "displays": final,
        "round_totals": [16, 1, 0],
        "scores": [16, 1, 0],
        "totals": [16, 1, 0],
        "bao": None,
    }

    board = present(engine="baobei", view=view, seat=0, names=NAMES, events=[ended])

    shown = {s["position"]: [slot["card"] for slot in s["slots"]] for s in board["seats"]}
    assert shown == {0: ["magpie", None, "peacock"], 1: ["hummingbird"], 2: []}


def test_a_running_bao_bei_board_keeps_unknown_cards_face_down_bb_30():
    engine = get_engine("baobei")
    state = engine.setup(3, {}, "running")
    view = engine.view(state, 0)
    ended = {
        "type": "round_ended",
        "round": 0,
        "displays": [["magpie"] * 4] * 3,
        "round_totals": [0] * 3,
        "scores": [0] * 3,
        "totals": [0] * 3,
        "bao": None,
    }

    board = present(engine="baobei", view=view, seat=0, names=NAMES, events=[ended])

    assert all(slot["card"] is None for s in board["seats"] for slot in s["slots"])


def test_a_bao_huang_prompt_starts_with_a_capital_letter():
    for decision in (
        {"kind": "turn", "allowed": ["play"]},
        {"kind": "turn", "allowed": ["play", "pass"]},
        {"kind": "declare", "allowed": ["keep_emperor", "pass_emperor"]},
        {"kind": "tribute", "allowed": ["give_tribute"]},
    ):
        sentence = describe_decision("baohuang", decision)

        assert sentence[0].isupper(), sentence


def _after_a_lost_deal():
    """Deal 2 after a lost deal of emperor ann (seat 0) and partner ben (seat 1): they give 2 and 1
    cards, the three commoners receive 1 each (BH-5.3)."""
    start = {"deal": 2, "previous": {"emperor": 0, "partner": 1, "result": "lost"}}
    return get_engine("baohuang").setup(5, {"start": start}, "tribute")


def _give(state, seat: int):
    engine = get_engine("baohuang")
    owed = engine.view(state, seat)["tribute"]["owed_cards"]
    return engine.apply(state, seat, {"type": "give_tribute", "cards": owed})[0]


def _tribute_board(state, seat: int) -> dict:
    view = get_engine("baohuang").view(state, seat)
    return present(engine="baohuang", view=view, seat=seat, names=[*NAMES, "dan", "eve"])["tribute"]


def test_the_tribute_line_names_the_players_and_says_who_has_given_and_received_bh_23_3():
    state = _after_a_lost_deal()
    assert _tribute_board(state, 2)["text"] == (
        "Tribute: ann gives 2, ben gives 1, cy receives 1, dan receives 1, eve receives 1."
    )

    state = _give(state, 0)
    assert _tribute_board(state, 2)["text"].startswith("Tribute: ann has given 2, ben gives 1, cy receives 1")

    state = _give(state, 1)
    assert _tribute_board(state, 2)["text"] == (
        "Tribute: ann has given 2, ben has given 1, "
        "cy has received 1, dan has received 1, eve has received 1."
    )


def test_a_giver_sees_the_cards_he_gave_not_still_owed_and_a_receiver_his_own_bh_23_3():
    state = _after_a_lost_deal()
    owed = _tribute_board(state, 0)["owed_cards"]
    state = _give(_give(state, 0), 1)

    giver, receiver = _tribute_board(state, 0), _tribute_board(state, 2)

    assert (giver["owed_cards"], giver["given_cards"], giver["received_cards"]) == (None, owed, None)
    assert (receiver["owed_cards"], receiver["given_cards"]) == (None, None)
    assert receiver["received_cards"] == get_engine("baohuang").view(state, 2)["tribute"]["received_cards"]


def _board_after(last_deal: dict) -> dict:
    engine = get_engine("baohuang")
    view = engine.view(engine.setup(5, {}, "last-deal"), 0) | {"last_deal": last_deal}
    return present(engine="baohuang", view=view, seat=0, names=[*NAMES, "dan", "eve"])


def _last_deal(result: str, partner: int | None) -> dict:
    return {
        "deal": 4,
        "emperor": 0,
        "partner": partner,
        "alone": partner is None,
        "result": result,
        "multiplier": 2,
        "hands": [[], [], [], [], ["6"]],
    }


def test_the_last_deal_says_won_lost_or_drew_in_words_not_the_result_code_bh_16_6():
    """A draw with a partner is S = 0, not a second place (a lone emperor's draw is)."""
    words = {
        (result, partner): _board_after(_last_deal(result, partner))["last_deal"]["result"]
        for result, partner in [("won", 1), ("lost", None), ("draw", 1), ("draw", None)]
    }

    assert words == {
        ("won", 1): "won",
        ("lost", None): "lost",
        ("draw", 1): "drew",
        ("draw", None): "drew (second place)",
    }


def test_the_last_deal_result_is_in_the_readers_language():
    with translation.override("zh-hans"):
        won = _board_after(_last_deal("won", 1))["last_deal"]["result"]

    assert won and won != "won"
