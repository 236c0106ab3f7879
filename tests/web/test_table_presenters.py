"""What the board shows beyond the view: quick-play words, the final reveal, prompts."""

from __future__ import annotations

import json

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
