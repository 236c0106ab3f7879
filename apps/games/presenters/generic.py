"""A plain board for engines without their own presenter (the test-only toy engine)."""

from __future__ import annotations

import json
from typing import Any

from .common import button

TEMPLATE = "games/boards/generic.html"


def present(
    *, view: dict[str, Any], seat: int | None, names: list[str], legal: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The view as JSON (it is already this seat's view) and one button per legal action of mine."""
    buttons = [
        button(" ".join(f"{k} {v}" for k, v in a.items() if k != "decision_id"), a) for a in (legal or [])
    ]
    return {
        "template": TEMPLATE,
        "decision_template": "games/boards/generic_decision.html",
        "view_json": json.dumps(view, indent=1),
        "decision": {"buttons": buttons} if buttons else None,
    }
