"""The play-by-email command language: every command parses to the right action (BB-22, BH-20)."""

from __future__ import annotations

import random

import pytest

from apps.notifications.commands import CommandError, format_command, parse_command
from baogame.rules.registry import get_bots, get_engine

BAOBEI = [
    ("peek 2 3", {"type": "choose_peek", "slots": [2, 3]}),
    ("draw", {"type": "draw"}),
    ("Keep 2", {"type": "keep", "slot": 2}),
    ("discard", {"type": "discard"}),
    ("take 3", {"type": "take_discard", "slot": 3}),
    (
        "pluck 1.2 gift 4",
        {"type": "pluck", "kind": "single", "targets": [{"seat": 1, "slot": 2}], "gifts": [4]},
    ),
    ("pluck 0.1", {"type": "pluck", "kind": "single", "targets": [{"seat": 0, "slot": 1}], "gifts": [None]}),
    (
        "double 0.1 2.3 gift - 4",
        {
            "type": "pluck",
            "kind": "double",
            "targets": [{"seat": 0, "slot": 1}, {"seat": 2, "slot": 3}],
            "gifts": [None, 4],
        },
    ),
    ("pass", {"type": "pass"}),
    ("peek 2.0", {"type": "use_ability", "ability": "peek", "target": {"seat": 2, "slot": 0}}),
    ("reveal 2/0", {"type": "use_ability", "ability": "reveal", "target": {"seat": 2, "slot": 0}}),
    (
        "swap 0.1 2.0",
        {
            "type": "use_ability",
            "ability": "blind_swap",
            "targets": [{"seat": 0, "slot": 1}, {"seat": 2, "slot": 0}],
        },
    ),
    (
        "macaw 1.2 3.0",
        {
            "type": "use_ability",
            "ability": "macaw",
            "targets": [{"seat": 1, "slot": 2}, {"seat": 3, "slot": 0}],
        },
    ),
    ("toco 2", {"type": "use_ability", "ability": "toco", "target_seat": 2}),
    ("shoebill", {"type": "use_ability", "ability": "shoebill"}),
    ("decline", {"type": "decline_ability"}),
    ("swap yes", {"type": "macaw_decide", "swap": True}),
    ("swap no", {"type": "macaw_decide", "swap": False}),
    (
        "place mine 0 2 theirs 1 0.1",
        {
            "type": "shoebill_place",
            "mine": {"card": 0, "slot": 2},
            "theirs": {"card": 1, "target": {"seat": 0, "slot": 1}},
        },
    ),
    (
        "place theirs 0 1.2",
        {"type": "shoebill_place", "mine": None, "theirs": {"card": 0, "target": {"seat": 1, "slot": 2}}},
    ),
    ("end", {"type": "end_turn", "bao": False}),
    ("BAO!", {"type": "end_turn", "bao": True}),
    ("draw commit", {"type": "draw", "commit_end_turn": True}),
]

BAOHUANG = [
    ("play K K BJ", {"type": "play", "cards": ["K", "K", "BJ"]}),
    ("play k k nobeat", {"type": "play", "cards": ["K", "K"], "no_beat_request": True}),
    ("play bj* 10", {"type": "play", "cards": ["BJ*", "10"]}),
    ("pass", {"type": "pass"}),
    ("tribute 2 A", {"type": "give_tribute", "cards": ["2", "A"]}),
    ("keep", {"type": "keep_emperor"}),
    ("pass emperor", {"type": "pass_emperor"}),
    ("alone", {"type": "declare_alone"}),
    ("pledge support", {"type": "pledge", "side": "support"}),
    ("pledge oppose", {"type": "pledge", "side": "oppose"}),
    ("nodeclare", {"type": "no_declaration"}),
    ("guess 3", {"type": "guess_partner", "seat": 3}),
]


@pytest.mark.parametrize(("line", "action"), BAOBEI)
def test_baobei_command_parses_to_its_action_bb_22(line: str, action: dict) -> None:
    assert parse_command(engine="baobei", text=line) == action


@pytest.mark.parametrize(("line", "action"), BAOHUANG)
def test_baohuang_command_parses_to_its_action_bh_20(line: str, action: dict) -> None:
    assert parse_command(engine="baohuang", text=line) == action


def test_a_json_line_is_taken_as_the_action_itself() -> None:
    assert parse_command(engine="baobei", text='{"type": "keep", "slot": 1}') == {"type": "keep", "slot": 1}


def test_other_engines_take_type_and_key_values() -> None:
    assert parse_command(engine="toy", text="play card=3") == {"type": "play", "card": 3}


@pytest.mark.parametrize(
    ("engine", "line", "code"),
    [
        ("baobei", "", "no_command"),
        ("baobei", "hello there", "unknown_command"),
        ("baobei", "keep two", "malformed_action"),
        ("baobei", "pluck 12", "malformed_action"),
        ("baobei", "double 0.1 gift 2", "malformed_action"),
        ("baobei", "swap 0.1", "malformed_action"),
        ("baobei", "place mine 0", "malformed_action"),
        ("baobei", "end commit", "malformed_action"),
        ("baohuang", "play", "malformed_action"),
        ("baohuang", "pledge maybe", "malformed_action"),
        ("baohuang", "draw", "unknown_command"),
        ("baohuang", "{not json", "malformed_action"),
    ],
)
def test_bad_command_is_refused_with_its_code(engine: str, line: str, code: str) -> None:
    with pytest.raises(CommandError) as exc:
        parse_command(engine=engine, text=line)

    assert exc.value.code == code


@pytest.mark.parametrize(("engine", "players"), [("baobei", 3), ("baohuang", 5)])
def test_every_legal_action_round_trips_through_its_command(engine: str, players: int) -> None:
    """Seeded bot games: each legal action met prints as a command that parses back to it."""
    eng = get_engine(engine)
    bots, default = get_bots(engine)
    rng = random.Random(7)
    state = eng.setup(players, eng.default_options(players), "commands-seed")
    seen_types: set[str] = set()
    for _ in range(150):
        pending = eng.pending(state)
        if not pending:
            break
        seat = pending[0]["seats"][0]
        for action in eng.legal_actions(state, seat)[:400]:
            bare = {k: v for k, v in action.items() if k != "decision_id"}
            line = format_command(engine=engine, action=action)

            assert parse_command(engine=engine, text=line) == bare, line
            seen_types.add(action["type"])
        state, _ = eng.apply(state, seat, bots[default](eng.view(state, seat), rng))

    assert len(seen_types) >= 4


@pytest.mark.parametrize(
    ("engine", "line"),
    [
        ("baobei", "keep ²"),
        ("baobei", "keep ①"),
        ("baobei", "keep " + "1" * 5000),
        ("baobei", "pluck 1." + "2" * 5000),
        ("baobei", '{"a": ' + "[" * 5000 + "]" * 5000 + "}"),
    ],
)
def test_numbers_int_refuses_and_json_nested_too_deep_are_malformed(engine: str, line: str) -> None:
    """Issue 14: input that ``str.isdigit`` accepts but ``int`` refuses, and JSON deeper than Python's
    stack, is a refusal with a code, not a crash of the inbound mail handler."""
    with pytest.raises(CommandError) as exc:
        parse_command(engine=engine, text=line)

    assert exc.value.code == "malformed_action"


def test_a_generic_value_int_refuses_stays_a_string() -> None:
    """Issue 14: ``key=<5,000 digits>`` is not turned into a number (``int`` refuses it): the engine then
    refuses the action with its own code instead of the mail handler crashing."""
    action = parse_command(engine="toy", text="play card=" + "3" * 5000)

    assert action == {"type": "play", "card": "3" * 5000}
