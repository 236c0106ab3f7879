"""The game clock: time controls (``controls``, pure), seats' banks (``banks``), deadlines and
timeouts (``deadlines``), settling what is due (``settlement``), pausing and extending (``pause``),
vacation (``vacation``), the beat sweep (``sweep``). The services are importable from here
(``clock.settle_game``, ``clock.sweep`` …); they load on first use, so that ``clock.controls`` stays
importable without Django (the pace benchmark's model).

What a page shows of time ("time left" words, countdowns) lives with the pages
(``apps.games.presenters.timeleft``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .pause import decision_extend, game_pause, game_resume
    from .settlement import settle_batch, settle_game, settle_overdue
    from .sweep import sweep
    from .vacation import vacation_end, vacation_end_exhausted, vacation_start

#: Each service's module.
_HOMES = {
    "decision_extend": "pause",
    "game_pause": "pause",
    "game_resume": "pause",
    "settle_batch": "settlement",
    "settle_game": "settlement",
    "settle_overdue": "settlement",
    "sweep": "sweep",
    "vacation_end": "vacation",
    "vacation_end_exhausted": "vacation",
    "vacation_start": "vacation",
}

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
