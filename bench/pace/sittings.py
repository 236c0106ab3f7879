"""The sittings model of the pace benchmark: a group that meets twice a week to play live.

Two agreed one-hour sittings a week, each at a week hour drawn once per game from its seed (two
different hours, the same every week). Each person attends each sitting with probability 90 %, drawn
once per person and sitting. Inside a sitting a person who is there answers every decision they are
asked in 20 s, on the live control (their correspondence bank stops at the sitting's start and is given
back at its end, as ``apps.games.clock.live`` does); a person who is not there has the bot play their
seat after the grace period (everyone opted in to the standing order "if I miss a sitting, the bot plays
my seat until I arrive"), on their own correspondence bank. A plucking window opened inside a sitting
lasts the live control's reaction. Outside sittings, the correspondence model (``model``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .model import HOUR

WEEK = 7 * 24 * HOUR
#: Length of each sitting.
LENGTH = HOUR
#: Sittings a week.
PER_WEEK = 2
#: Seconds a person at the table takes per decision.
PER_DECISION = 20.0
#: The chance that a person comes to a sitting.
ATTENDANCE = 0.9
#: After this long an absent seat is played by the bot (``apps.sittings.lifecycle.ABSENCE_GRACE``).
GRACE = 120.0


@dataclass(frozen=True)
class Sitting:
    """One sitting: its number (0, 1, … in time order), start and end in simulated seconds."""

    index: int
    start: float
    end: float


@dataclass(frozen=True)
class Sittings:
    """A group's weekly sittings and who comes to which."""

    game: str
    seed: int
    #: The sittings' starts, seconds into each simulated week, in order.
    hours: tuple[float, ...]

    def at_or_after(self, t: float) -> Sitting:
        """The sitting under way at ``t``, or else the next one."""
        week = int(t // WEEK)
        while True:
            for i, offset in enumerate(self.hours):
                start = week * WEEK + offset
                if start + LENGTH > t:
                    return Sitting(week * len(self.hours) + i, start, start + LENGTH)
            week += 1

    def present(self, sitting: Sitting, seat: int) -> bool:
        """Whether the seat's person comes to the sitting (90 %, drawn once per person and sitting)."""
        rng = random.Random(f"pace:attend:{self.game}:{self.seed}:{sitting.index}:{seat}")
        return rng.random() < ATTENDANCE


def weekly(game: str, seed: int) -> Sittings:
    """The group's two sittings a week: two different week hours drawn from the game's seed."""
    rng = random.Random(f"pace:sittings:{game}:{seed}")
    hours = sorted(rng.sample(range(7 * 24), PER_WEEK))
    return Sittings(game=game, seed=seed, hours=tuple(h * HOUR for h in hours))
