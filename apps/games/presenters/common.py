"""Helpers shared by the presenters: action buttons, history sentences."""

from __future__ import annotations

import json
from importlib import import_module
from typing import Any


def button(label: str, action: dict[str, Any], *, style: str = "") -> dict[str, str]:
    """A submit button that posts a complete wire-format action."""
    return {"label": label, "json": json.dumps(action, separators=(",", ":")), "style": style}


def _text_module(engine: str) -> Any:
    try:
        return import_module(f"baogame.rules.{engine}.text")
    except ImportError:
        return None


def describe_event(engine: str, event: dict[str, Any]) -> str:
    """One sentence for an event the viewer may see (the game's ``text.describe_event``)."""
    module = _text_module(engine)
    if module is not None:
        try:
            return str(module.describe_event(event))
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    fields = ", ".join(
        f"{k} {v}" for k, v in event.items() if k not in {"type", "visible_to", "private"} and v is not None
    )
    return (
        f"{str(event.get('type', 'event')).replace('_', ' ').capitalize()}{': ' + fields if fields else ''}."
    )


def describe_decision(engine: str, decision: dict[str, Any]) -> str:
    """One sentence for an open decision (the game's ``text.describe_decision``)."""
    module = _text_module(engine)
    if module is not None and hasattr(module, "describe_decision"):
        try:
            return str(module.describe_decision(decision))
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    return f"Decide: {str(decision.get('kind', '')).replace('_', ' ')}."
