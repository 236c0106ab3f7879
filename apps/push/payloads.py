"""The Web Push payload: which game, which kind of decision, its deadline. Nothing else.

No card, no view, no event: a push service (and anyone who sees the lock screen) learns only that
a decision of that kind waits in that game until that time.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.conf import settings

from apps.games.models import Game


def push_payload(*, game: Game, decisions: list[tuple[str, datetime | None]]) -> dict[str, Any]:
    """The payload for a person's open ``decisions`` (kind, deadline) in ``game``."""
    return {
        "game": game.public_id,
        "url": settings.SITE_URL + game.get_absolute_url(),
        "title": f"{game.get_engine_display()}: your move",
        "decisions": [
            {"kind": kind, "deadline": deadline.isoformat() if deadline else None}
            for kind, deadline in decisions
        ],
    }


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
