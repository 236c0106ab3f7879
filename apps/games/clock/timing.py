"""Timing presets: how long each kind of decision stays open (DESIGN.md, "Deadlines")."""

from __future__ import annotations

from datetime import timedelta

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR

#: Seconds per timing class of the engine contract.
PRESETS: dict[str, dict[str, int]] = {
    "live": {
        "setup": 5 * MINUTE,
        "turn": 5 * MINUTE,
        "reaction": 1 * MINUTE,
        "ability": 3 * MINUTE,
        "finish": 2 * MINUTE,
        "tribute": 3 * MINUTE,
        "declare": 3 * MINUTE,
    },
    "daily": {
        "setup": 24 * HOUR,
        "turn": 24 * HOUR,
        "reaction": 4 * HOUR,
        "ability": 12 * HOUR,
        "finish": 6 * HOUR,
        "tribute": 24 * HOUR,
        "declare": 12 * HOUR,
    },
    "weekly": {
        "setup": 3 * DAY,
        "turn": 7 * DAY,
        "reaction": 24 * HOUR,
        "ability": 2 * DAY,
        "finish": 24 * HOUR,
        "tribute": 3 * DAY,
        "declare": 2 * DAY,
    },
}
DEFAULT_PRESET = "daily"
TIMING_KEYS = tuple(PRESETS["daily"])


def timing_for(preset: str, overrides: dict[str, int] | None = None) -> dict[str, int]:
    """The seconds per timing class for a preset, with any custom values applied."""
    if preset not in PRESETS and preset != "custom":
        raise ValueError(f"unknown timing preset {preset!r}")
    base = dict(PRESETS.get(preset, PRESETS[DEFAULT_PRESET]))
    for key, value in (overrides or {}).items():
        if key not in TIMING_KEYS:
            raise ValueError(f"unknown timing class {key!r}")
        if int(value) <= 0:
            raise ValueError(f"timing {key} must be positive")
        base[key] = int(value)
    return base


def duration(timing: dict[str, int], klass: str) -> timedelta:
    """The time a decision of timing class ``klass`` stays open."""
    return timedelta(seconds=int(timing.get(klass) or PRESETS[DEFAULT_PRESET][klass]))
