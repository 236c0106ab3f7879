"""The choices a mail lists: each legal choice once, whatever the order of its order-free fields."""

from __future__ import annotations

from typing import Any

import pytest

from apps.notifications import commands
from apps.notifications.compose import choices
from tests.notifications.conftest import play_game

pytestmark = pytest.mark.django_db


def test_a_setup_peek_is_listed_once_not_once_per_order_of_its_slots(users: list[Any]) -> None:
    """Bao Bei's setup peek (BB-22) is a set of two slots: ``peek 0 1`` is listed, ``peek 1 0`` is not."""
    game = play_game("baobei", users[:1], 3)

    lines = choices(game, 0)

    peeks = [line for line in lines if line.startswith("peek ")]
    as_sets = [frozenset(commands.parse_command(engine="baobei", text=line)["slots"]) for line in peeks]
    assert peeks
    assert len(as_sets) == len(set(as_sets)), peeks
