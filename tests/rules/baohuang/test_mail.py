"""mail.py: every Bao Huang mail command parses to the right action (BH-20), and back; the view lines."""

from __future__ import annotations

from typing import Any

import pytest

from baogame.rules.baohuang import mail, viewtext
from baogame.rules.mail import CommandError
from baogame.rules.registry import get_engine
from tests.rules.mail_round_trip import action_types_round_tripped

COMMANDS = [
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


@pytest.mark.parametrize(("line", "action"), COMMANDS)
def test_command_parses_to_its_action_bh_20(line: str, action: dict[str, Any]) -> None:
    assert mail.parse_command(line) == action


@pytest.mark.parametrize(
    ("line", "code"),
    [("play", "malformed_action"), ("pledge maybe", "malformed_action"), ("draw", "unknown_command")],
)
def test_bad_command_is_refused_with_its_code(line: str, code: str) -> None:
    with pytest.raises(CommandError) as exc:
        mail.parse_command(line)

    assert exc.value.code == code


def test_every_legal_action_round_trips_through_its_command() -> None:
    """Seeded bot games: each legal action met prints as a command that parses back to it."""
    seen_types = action_types_round_tripped("baohuang", 5, mail)

    assert len(seen_types) >= 4


def test_view_lines_show_the_own_hand_and_only_counts_of_the_others_bh_22() -> None:
    """The lines describe ``view(state, seat)``: the seat's own hand, the others' card counts."""
    eng = get_engine("baohuang")
    state = eng.setup(5, eng.default_options(5), "view-lines-seed")
    view = eng.view(state, 2)
    names = ["ann", "bob", "cy", "di", "ed"]

    lines = viewtext.view_lines(view, 2, names)

    assert lines[0] == f"Deal {view['deal']}; totals: ann 0, bob 0, you 0, di 0, ed 0."
    assert f"Your hand ({len(view['hand'])}): {' '.join(view['hand'])}" in lines
    held = ", ".join(f"{names[s]} (seat {s}): {n}" for s, n in enumerate(view["counts"]))
    assert f"Cards held: {held}." in lines


def _deal_ended(partner: int | None, places: list[int]) -> dict[str, Any]:
    return {
        "type": "deal_ended",
        "deal": 4,
        "emperor": 0,
        "partner": partner,
        "alone": partner is None,
        "result": "draw",
        "multiplier": 1,
        "finished": sorted(range(5), key=lambda s: places[s]),
        "scores": [0] * 5,
        "totals": [0] * 5,
    }


def test_a_partnered_draw_is_told_as_a_draw_not_as_a_second_place_bh_16_6() -> None:
    """BH-16.6: with a partner a draw is S = 0 (here 1st and 5th); only a lone emperor draws by
    finishing second."""
    names = ["ann", "bob", "cy", "di", "ed"]

    partnered = viewtext.deal_result_lines(_deal_ended(1, [1, 5, 2, 3, 4]), 2, names)[0]
    alone = viewtext.deal_result_lines(_deal_ended(None, [2, 1, 3, 4, 5]), 2, names)[0]

    assert (
        partnered
        == "Deal 4: the emperor ann (seat 0) played with bob (seat 1) as partner and drew (multiplier x1)."
    )
    assert alone == "Deal 4: the emperor ann (seat 0) played alone and drew (second place) (multiplier x1)."


def test_the_play_examples_leave_out_the_marked_jokers_where_they_can_bh_14_1() -> None:
    """BH-14.1: a play with BJ* reveals the partner; a mail's examples of plays (BH-10) use unmarked
    jokers when the same play exists without the marked one."""
    hands = (["A", "A", "BJ*"], ["A", "A", "BJ"], ["2", "2", "RJ*"], ["2", "2", "RJ"], ["A", "RJ", "RJ*"])
    plays = [{"type": "play", "cards": cards} for cards in hands]
    only_marked = [{"type": "play", "cards": cards} for cards in (["8"], ["8", "8"], ["8", "BJ*"])]

    examples = mail.play_examples(plays)

    assert examples == [plays[1], plays[3]]
    assert mail.play_examples(only_marked) == only_marked[:2]
