"""Reading one posted form field of an action form; a missing or malformed one is ``malformed_action``.

The game presenters build their wire-format actions from these (``action_params``).
"""

from __future__ import annotations

from django.http import QueryDict

from baogame.rules.core import RuleError


def int_field(data: QueryDict, name: str) -> int:
    """A whole number."""
    try:
        return int(data.get(name, ""))
    except ValueError:
        raise RuleError("malformed_action", f"choose a value for {name.replace('_', ' ')}") from None


def optional_int_field(data: QueryDict, name: str) -> int | None:
    """A whole number, or None when left empty (or ``none``)."""
    return None if data.get(name, "") in {"", "none"} else int_field(data, name)


def position_field(data: QueryDict, name: str) -> dict[str, int]:
    """A position posted as ``"seat.slot"``."""
    try:
        seat, slot = str(data[name]).split(".")
        return {"seat": int(seat), "slot": int(slot)}
    except (KeyError, ValueError):
        raise RuleError("malformed_action", f"choose a card for {name.replace('_', ' ')}") from None


def flag_field(data: QueryDict, name: str) -> bool:
    """A ticked box."""
    return data.get(name, "") in {"1", "true", "on", "yes"}
