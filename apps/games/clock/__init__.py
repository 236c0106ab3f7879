"""The game clock: time controls (``controls``), deadlines and timeouts (``deadlines``), settling what
is due (``settlement``), pausing and extending (``pause``), vacation (``vacation``), the beat sweep
(``sweep``). The services are importable from here: ``clock.settle_game``, ``clock.sweep`` ...

What a page shows of time (``time left`` words, countdowns) lives with the pages
(``apps.games.presenters.timeleft``).
"""

from __future__ import annotations

from .pause import decision_extend, game_pause, game_resume
from .settlement import settle_batch, settle_game, settle_overdue
from .sweep import sweep
from .vacation import vacation_end, vacation_end_exhausted, vacation_start

__all__ = [
    "decision_extend",
    "game_pause",
    "game_resume",
    "settle_batch",
    "settle_game",
    "settle_overdue",
    "sweep",
    "vacation_end",
    "vacation_end_exhausted",
    "vacation_start",
]
