"""The timing model of the pace benchmark, as the project fixes it.

Every seat is a person who answers each decision they are asked after a delay drawn log-normally with
a median of 2 hours and a 90th percentile of 12 hours (someone who looks a few times a day). An answer
that would come after the seat's clock runs out never comes: the decision times out. With standing
orders on, people use them as follows: Bao Huang seats pass automatically when they cannot beat, arm
"pass to the end of this trick" after half of their voluntary passes, and answer the emperor offer and
their declaration ahead once they have looked at a deal; Bao Bei seats end their turn automatically
when nothing is left to do and pass plucking windows at once when they have nothing to pluck.
"""

from __future__ import annotations

import math
import random

HOUR = 3600.0
DAY = 24 * HOUR

MEDIAN_DELAY = 2 * HOUR
P90_DELAY = 12 * HOUR
#: The 90th percentile of the standard normal distribution.
_Z90 = 1.2815515655446004
MU = math.log(MEDIAN_DELAY)
SIGMA = math.log(P90_DELAY / MEDIAN_DELAY) / _Z90

#: The share of voluntary passes after which a seat arms "pass to the end of this trick".
PASS_TRICK_SHARE = 0.5


def delay(rng: random.Random) -> float:
    """Seconds until a person answers a decision they are asked (log-normal, median 2 h, p90 12 h)."""
    return rng.lognormvariate(MU, SIGMA)
