"""The table around the board: who sits where, who is away or played by the bot, and every clock.

Everything here is public except what concerns the viewer's own seat. Of a simultaneous decision (a
plucking window, the setup peek, a tribute, a declaration) the viewer learns only whether it is still
theirs (BB-30.6): the rows come from ``selectors.public_decision_rows``, and a bot is said to be
"thinking" only about a decision that is its alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from apps.accounts.vacation import away_words
from apps.games.clock.controls import Control
from apps.games.clock.deadlines import SIMULTANEOUS_TIMINGS, decision_length

#: Simultaneous decisions are named, not their remaining owners.
SIMULTANEOUS_LABELS = {
    "pluck_window": "Plucking window",
    "setup_peek": "Setup peek",
    "tribute": "Tribute",
    "declare": "Declarations",
}
#: What a single-owner decision is about, in a word or two.
KIND_WORDS = {
    "turn_action": "turn",
    "after_draw": "turn",
    "end_turn": "end of turn",
    "ability": "ability",
    "macaw_decide": "Macaw swap",
    "shoebill_place": "Shoebill placement",
    "turn": "turn",
    "emperor_offer": "emperor offer",
    "guess": "partner guess",
}


def seat_away(seat: Any) -> bool:
    """Whether the seat's player is on vacation (their clocks stopped, their windows passed)."""
    if seat is None or not seat.user_id or seat.bot:
        return False
    profile = getattr(seat.user, "profile", None)
    return profile is not None and profile.on_vacation


def table_seats(*, seats: Sequence[Any], viewer: int | None, now: datetime) -> list[dict[str, Any]]:
    """Each seat as the page lists it: number (from 0, as everywhere), name, bot, bot takeover, away."""
    out = []
    for seat in sorted(seats, key=lambda s: s.position):
        profile = getattr(seat.user, "profile", None) if seat.user_id and not seat.bot else None
        away = away_words(profile, now) if profile is not None else None
        out.append(
            {
                "position": seat.position,
                "name": seat.label,
                "is_me": seat.position == viewer,
                "is_bot": seat.is_bot,
                "bot_takeover": seat.bot_takeover,
                "away": away,
            }
        )
    return out


def table_clocks(
    *,
    rows: list[dict[str, Any]],
    viewer: int | None,
    names: Sequence[str],
    bot_played: set[int],
    control: Control,
    paused: bool,
) -> list[dict[str, Any]]:
    """The open decisions as the page shows them, soonest first: what, whose, and its countdown.

    ``rows``: ``selectors.public_decision_rows`` for the viewer; ``bot_played``: positions the server
    plays. A simultaneous decision appears once, by its name, whoever has answered it.
    """
    seen: set[str] = set()
    out = []
    for row in rows:
        simultaneous = row["timing"] in SIMULTANEOUS_TIMINGS
        key = row["decision_id"] if simultaneous else f"{row['decision_id']}:{row['seat']}"
        if key in seen:
            continue
        seen.add(key)
        seat = row["seat"]
        if simultaneous:
            what = SIMULTANEOUS_LABELS.get(row["kind"], row["kind"].replace("_", " ").capitalize())
            who = ""
        else:
            what = KIND_WORDS.get(row["kind"], row["kind"].replace("_", " "))
            who = names[seat] if seat is not None and 0 <= seat < len(names) else ""
        out.append(
            {
                "what": what,
                "who": who,
                "seat": seat,
                "mine": seat is not None and seat == viewer,
                "thinking": not simultaneous and seat in bot_played and not paused,
                "deadline": row["deadline"],
                "length": _length(control, row["timing"]),
                "stopped": "paused" if paused else ("away" if row["deadline"] is None else ""),
            }
        )
    out.sort(key=lambda c: (c["deadline"] is None, c["deadline"].timestamp() if c["deadline"] else 0.0))
    return out


def _length(control: Control, klass: str) -> timedelta | None:
    return decision_length(control, klass)
