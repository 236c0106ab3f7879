"""The mail reply commands of sittings: ``sitting yes``, ``sitting no``, and ``sitting yes 2`` for one
time of a proposal; in Chinese ``约局 是``, ``约局 否``, ``约局 是 2``. They answer the latest open
proposal of the game the mail was about."""

from __future__ import annotations

import re

from baogame.rules.mail import normalize

_YES = "yes|y|是|好|同意"
_NO = "no|n|否|不|不同意"
_COMMAND = re.compile(rf"(?:sittings?\s+|约局\s*)({_YES}|{_NO})(?:\s*([0-9]{{1,2}}))?", re.IGNORECASE)


def parse_sitting_command(line: str) -> tuple[bool, int | None] | None:
    """``(accept, index or None)`` for a sitting command, None for any other line."""
    found = _COMMAND.fullmatch(normalize(line).strip().rstrip(".!;,").strip())
    if found is None:
        return None
    index = found.group(2)
    return re.fullmatch(_YES, found.group(1), re.IGNORECASE) is not None, int(index) if index else None
