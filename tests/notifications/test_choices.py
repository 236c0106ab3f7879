"""The choices a mail lists: each legal choice once, whatever the order of its order-free fields."""

from __future__ import annotations

from typing import Any

import pytest

from apps.notifications import commands
from apps.notifications.compose import choices
from baogame.rules.baobei.cards import CARDS
from baogame.rules.registry import get_engine
from tests.notifications.conftest import play_game
from tests.rules.baobei.helpers import a_game, play

pytestmark = pytest.mark.django_db


def test_a_setup_peek_is_listed_once_not_once_per_order_of_its_slots(users: list[Any]) -> None:
    """Bao Bei's setup peek (BB-22) is a set of two slots: ``peek 0 1`` is listed, ``peek 1 0`` is not."""
    game = play_game("baobei", users[:1], 3)

    lines = choices(game, 0)

    peeks = [line for line in lines if line.startswith("peek ")]
    as_sets = [frozenset(commands.parse_command(engine="baobei", text=line)["slots"]) for line in peeks]
    assert peeks
    assert len(as_sets) == len(set(as_sets)), peeks


def _pluck_window_for_seat_0(users: list[Any]) -> Any:
    """A three-seat Bao Bei game in which seat 1 has just discarded: seat 0 may pluck or pass (BB-7)."""
    birds = ["sparrow", "magpie", "peacock", "crested_ibis"]
    state = a_game([birds, birds[::-1], birds], draw=["kingfisher", "sparrow"], active=1)
    state = play(play(state, 1, "draw"), 1, "discard")
    game = play_game("baobei", users[:1], 3)
    game.state = state
    return game


def test_a_plucking_window_mail_shows_the_pluck_pattern_with_examples_not_a_sample_bb_22(
    users: list[Any],
) -> None:
    """BB-22: the hundreds of plucks of a window are two examples, the commands' pattern with what each
    part means, and the pass; no arbitrary sample and no "more like these"."""
    game = _pluck_window_for_seat_0(users)

    lines = choices(game, 0)

    assert lines[:3] == ["pluck 1.0 gift 0", "double 0.0 1.0 gift - 1", "… and 910 more, written as:"]
    assert lines[3].startswith("pluck S.K gift G  -  pluck the card at seat S, slot K, giving your slot G")
    assert lines[4].startswith("double S.K S.K gift G G  -  pluck two cards at once")
    assert lines[5:] == ["pass"]
    assert not [line for line in lines if "more like these" in line]


def test_the_pluck_examples_are_legal_commands_that_name_no_card_bb_20_9(users: list[Any]) -> None:
    """BB-20.9: the examples are positions the reader can see, never a card, face down or not."""
    game = _pluck_window_for_seat_0(users)
    legal = get_engine("baobei").legal_actions(game.state, 0)

    examples = [
        line for line in choices(game, 0) if line.startswith(("pluck ", "double ")) and "  -  " not in line
    ]

    parsed = [commands.parse_command(engine="baobei", text=line) for line in examples]
    assert len(examples) == 2
    assert all({**action, "decision_id": "w0"} in legal for action in parsed)
    words = " ".join(choices(game, 0)).lower()
    assert not [code for code, card in CARDS.items() if code in words or card["name"].lower() in words]
