"""Each control's worst case in words, for the forms and docs: how long a game can last at most if
every seat always lets its bank run out (``controls.worst_case``).

The decisions per seat are the measured ones (the games' bots, seeded games): a Bao Huang deal asks
each of its 5 seats about 30 decisions; a Bao Bei game of 3 players asks about 240-400 sequential
decisions, so at most about 134 per seat.
"""

from __future__ import annotations

from datetime import timedelta

from .controls import Control, worst_case

#: (what, decisions per seat, seats) of the games the sentence names.
SHAPES = (
    ("a one-deal Bao Huang game", 30, 5),
    ("a Bao Bei game of 3", 134, 3),
)


def days(span: timedelta) -> str:
    """``160 days``, ``5 hours``: a worst case at a glance."""
    hours = span.total_seconds() / 3600
    if hours < 48:
        return f"{round(hours)} hours"
    return f"{round(hours / 24)} days"


def worst_case_sentence(control: Control) -> str:
    """``"Daily: a one-deal Bao Huang game can last at most 160 days, a Bao Bei game of 3 at most
    408 days."``"""
    parts = [
        f"{what} can last at most {days(worst_case(control, n, seats))}" for what, n, seats in SHAPES[:1]
    ]
    parts += [f"{what} at most {days(worst_case(control, n, seats))}" for what, n, seats in SHAPES[1:]]
    return f"{control.name.title()}: " + ", ".join(parts) + "."
