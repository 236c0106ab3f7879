"""Bounds on JSON that comes from outside (API bodies, page forms, mail commands).

Python's ``json`` recurses once per nesting level, so a body nested a few thousand deep raises
``RecursionError`` instead of ``ValueError``; and a value nested hundreds deep still parses, only to
fail later (stored as JSONB, copied, rendered). No action, option or setting needs more than a few
levels, so anything deeper than ``MAX_DEPTH`` is refused as input.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32


class JsonTooDeep(ValueError):
    """JSON nested deeper than ``MAX_DEPTH``; a ``ValueError`` like any other unparsable JSON."""

    def __init__(self) -> None:
        super().__init__(f"JSON nested deeper than {MAX_DEPTH} levels")


def nesting_depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (a scalar: 0, ``[]``: 1, ``[[1]]``: 2)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in item)
    return deepest


def check_depth(value: Any, text: str | None = None) -> Any:
    """``value``, or ``JsonTooDeep`` if it nests deeper than ``MAX_DEPTH``. ``text``: the JSON ``value``
    was parsed from; each level of nesting opens with a ``[`` or ``{`` of it, so a text with no more
    of them than ``MAX_DEPTH`` (a move's body has two) is not walked."""
    if text is not None and text.count("[") + text.count("{") <= MAX_DEPTH:
        return value
    if nesting_depth(value) > MAX_DEPTH:
        raise JsonTooDeep()
    return value


def loads(text: str | bytes) -> Any:
    """``json.loads`` for outside input: ``ValueError`` for anything unparsable or nested too deep."""
    try:
        return check_depth(json.loads(text))
    except RecursionError:
        raise JsonTooDeep() from None
