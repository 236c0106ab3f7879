"""mail.py: every Bao Bei mail command parses to the right action (BB-22), and back; the view lines."""

from __future__ import annotations

from typing import Any

import pytest

from baogame.rules.baobei import mail, viewtext
from baogame.rules.mail import CommandError
from baogame.rules.registry import get_engine
from tests.rules.mail_round_trip import action_types_round_tripped

COMMANDS = [
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
    ("BAO", {"type": "end_turn", "bao": True}),
    ("draw commit", {"type": "draw", "commit_end_turn": True}),
]


@pytest.mark.parametrize(("line", "action"), COMMANDS)
def test_command_parses_to_its_action_bb_22(line: str, action: dict[str, Any]) -> None:
    assert mail.parse_command(line) == action


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("hello there", "unknown_command"),
        ("keep two", "malformed_action"),
        ("pluck 12", "malformed_action"),
        ("double 0.1 gift 2", "malformed_action"),
        ("swap 0.1", "malformed_action"),
        ("place mine 0", "malformed_action"),
        ("end commit", "malformed_action"),
    ],
)
def test_bad_command_is_refused_with_its_code(line: str, code: str) -> None:
    with pytest.raises(CommandError) as exc:
        mail.parse_command(line)

    assert exc.value.code == code


@pytest.mark.parametrize("line", ["keep ²", "keep ①", "keep " + "1" * 5000, "pluck 1." + "2" * 5000])
def test_numbers_int_refuses_are_malformed(line: str) -> None:
    """Input that ``str.isdigit`` accepts but ``int`` refuses is a refusal with a code, not a
    crash of the inbound mail handler."""
    with pytest.raises(CommandError) as exc:
        mail.parse_command(line)

    assert exc.value.code == "malformed_action"


def test_every_legal_action_round_trips_through_its_command() -> None:
    """Seeded bot games: each legal action met prints as a command that parses back to it."""
    seen_types = action_types_round_tripped("baobei", 3, mail)

    assert len(seen_types) >= 4


def test_view_lines_show_the_seats_own_view_and_name_the_others_bb_20_9() -> None:
    """The lines describe ``view(state, seat)``: a card the seat has not seen is ``face down``, and the
    other seats are named by the labels given."""
    eng = get_engine("baobei")
    state = eng.setup(3, eng.default_options(3), "view-lines-seed")
    view = eng.view(state, 1)

    lines = viewtext.view_lines(view, 1, ["ann", "bob", "cy"])

    assert lines[0] == f"Round {view['round']}; running totals: ann 0, you 0, cy 0."
    assert lines[1].startswith("ann (seat 0): 0: face down")
    assert lines[2].startswith("You (seat 1): ")
    assert lines[3].startswith("cy (seat 2): ")
    top = view["discard"][-1]
    assert f"Discard top: {viewtext.card_label(top)}; draw pile: {view['draw']} cards." in lines


def test_the_shoebills_two_drawn_cards_are_numbered_as_the_placement_names_them_bb_9_12() -> None:
    """``place mine C K theirs C S.K`` names a drawn card by its number (0 or 1), as the page numbers
    them: the view line numbers the two cards, in that order."""
    eng = get_engine("baobei")
    view = eng.view(eng.setup(3, eng.default_options(3), "view-lines-seed"), 1)

    lines = viewtext.view_lines(
        {**view, "drawn": ["brown_pelican", "white_pelican"]}, 1, ["ann", "bob", "cy"]
    )
    one = viewtext.view_lines({**view, "drawn": ["magpie"]}, 1, ["ann", "bob", "cy"])

    assert "You drew: 0: Brown Pelican (8)  1: White Pelican (7)." in lines
    assert "You drew: Magpie (4)." in one
