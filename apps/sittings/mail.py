"""The mail reply commands of sittings: ``sitting yes``, ``sitting no``, and ``sitting yes 2`` for one
time of a proposal. They answer the latest open proposal of the game the mail was about."""

from __future__ import annotations

import re

_COMMAND = re.compile(r"sittings?\s+(yes|no|y|n)(?:\s+([0-9]{1,2}))?", re.IGNORECASE)


def parse_sitting_command(line: str) -> tuple[bool, int | None] | None:
    """``(accept, index or None)`` for a sitting command, None for any other line."""
    found = _COMMAND.fullmatch(line.strip().rstrip(".!;,").strip())
    if found is None:
        return None
    index = found.group(2)
    return found.group(1).lower().startswith("y"), int(index) if index else None
