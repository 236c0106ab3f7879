"""The play-by-email command language around the games' grammars: JSON lines, punctuation, any other
engine, and each game's grammar reached by its name (the grammars themselves: tests/rules/*/test_mail.py).
"""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from apps.notifications.commands import CommandError, format_command, notation, parse_command, summary
from baogame.rules.registry import get_bots, get_engine


@pytest.mark.parametrize(
    ("engine", "line", "action"),
    [
        ("baobei", "BAO!", {"type": "end_turn", "bao": True}),
        ("baobei", "  keep 2.", {"type": "keep", "slot": 2}),
        ("baohuang", "play K K BJ", {"type": "play", "cards": ["K", "K", "BJ"]}),
        ("baohuang", "guess 3;", {"type": "guess_partner", "seat": 3}),
    ],
)
def test_each_game_parses_its_own_commands_without_trailing_punctuation(
    engine: str, line: str, action: dict
) -> None:
    assert parse_command(engine=engine, text=line) == action


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
        ("baohuang", "draw", "unknown_command"),
        ("baohuang", "{not json", "malformed_action"),
    ],
)
def test_bad_command_is_refused_with_its_code(engine: str, line: str, code: str) -> None:
    with pytest.raises(CommandError) as exc:
        parse_command(engine=engine, text=line)

    assert exc.value.code == code


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize(("engine", "players"), [("baobei", 3), ("baohuang", 5)])
def test_every_legal_action_round_trips_through_its_command(engine: str, players: int, language: str) -> None:
    """Seeded bot games: each legal action met (with its ``decision_id``) prints as a command that
    parses back to it, in English and in the Chinese words a Chinese reader's mail lists."""
    with translation.override(language):
        _round_trip(engine, players, chinese=language == "zh-hans")


def _round_trip(engine: str, players: int, *, chinese: bool) -> None:
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
            assert chinese == any("\u4e00" <= c <= "\u9fff" for c in line) or line.startswith("{"), line
            seen_types.add(action["type"])
        state, _ = eng.apply(state, seat, bots[default](eng.view(state, seat), rng))

    assert len(seen_types) >= 4


def test_json_nested_too_deep_is_malformed() -> None:
    """JSON deeper than Python's stack is a refusal with a code, not a crash of the inbound
    mail handler (numbers ``int`` refuses: tests/rules/baobei/test_mail.py)."""
    with pytest.raises(CommandError) as exc:
        parse_command(engine="baobei", text='{"a": ' + "[" * 5000 + "]" * 5000 + "}")

    assert exc.value.code == "malformed_action"


def test_a_generic_value_int_refuses_stays_a_string() -> None:
    """``key=<5,000 digits>`` is not turned into a number (``int`` refuses it): the engine then
    refuses the action with its own code instead of the mail handler crashing."""
    action = parse_command(engine="toy", text="play card=" + "3" * 5000)

    assert action == {"type": "play", "card": "3" * 5000}


def test_the_summary_and_notation_are_the_games_own_and_any_other_engines_generic() -> None:
    """Each game's footer help comes from its own grammar; every game also takes a JSON action."""
    engines = ("baobei", "baohuang", "toy")

    examples = {engine: [example for example, _ in summary(engine)] for engine in engines}

    assert examples["baobei"][:2] == ["peek 2 3", "draw"]
    assert examples["baohuang"][0] == "play K K BJ"
    assert examples["toy"][0] == "<type> key=value …"
    assert all(lines[-1] == '{"type": …}' for lines in examples.values())
    assert notation("baobei").startswith("Positions are seat.slot")
    assert notation("toy") == "Commands are the game's actions in its wire format."
