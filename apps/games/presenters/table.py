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

from django.utils.translation import gettext_lazy, pgettext_lazy

from apps.accounts.vacation import away_words
from apps.games.clock.controls import Control
from apps.games.clock.deadlines import SIMULTANEOUS_TIMINGS, decision_length

#: Simultaneous decisions are named, not their remaining owners.
SIMULTANEOUS_LABELS = {
    "pluck_window": gettext_lazy("Plucking window"),
    "setup_peek": gettext_lazy("Setup peek"),
    "tribute": pgettext_lazy("decision", "Tribute"),
    "declare": gettext_lazy("Declarations"),
}
#: What a single-owner decision is about, in a word or two.
KIND_WORDS = {
    "turn_action": pgettext_lazy("decision", "turn"),
    "after_draw": pgettext_lazy("decision", "turn"),
    "end_turn": gettext_lazy("end of turn"),
    "ability": pgettext_lazy("decision", "ability"),
    "macaw_decide": gettext_lazy("Macaw swap"),
    "shoebill_place": gettext_lazy("Shoebill placement"),
    "turn": pgettext_lazy("decision", "turn"),
    "emperor_offer": gettext_lazy("emperor offer"),
    "guess": gettext_lazy("partner guess"),
}


#: A decision kind that several phases share, named by the phase: Bao Huang's emperor offer and its
#: declarations are both of kind ``declare`` (BH-25.2), and the status line must name the right one.
PHASE_NAMES = {
    ("declare", "offer"): (gettext_lazy("Emperor offer"), gettext_lazy("emperor offer")),
}


def decision_name(kind: str, phase: str | None, *, simultaneous: bool) -> str:
    """What the status line calls an open decision: ``Emperor offer``, ``Declarations``, ``turn`` …"""
    by_phase = PHASE_NAMES.get((kind, phase or ""))
    if by_phase is not None:
        return str(by_phase[0] if simultaneous else by_phase[1])
    if simultaneous:
        return str(SIMULTANEOUS_LABELS.get(kind, kind.replace("_", " ").capitalize()))
    return str(KIND_WORDS.get(kind, kind.replace("_", " ")))


def with_banks(seats: list[dict[str, Any]], clock: dict[str, Any]) -> list[dict[str, Any]]:
    """The table's seats, each with its bank (``selectors.game_clock``): ``bank`` seconds, and
    ``runs_out_at`` while it runs (the page counts it down)."""
    by_seat = {b["seat"]: b for b in clock["seats"]}
    for seat in seats:
        bank = by_seat.get(seat["position"])
        if bank is not None:
            seat["bank"] = bank
    return seats


def seat_away(seat: Any) -> bool:
    """Whether the seat's player is on vacation (their clocks stopped, their windows passed)."""
    if seat is None or not seat.user_id or seat.bot:
        return False
    profile = getattr(seat.user, "profile", None)
    return profile is not None and profile.on_vacation


def table_seats(
    *, seats: Sequence[Any], viewer: int | None, now: datetime, over: bool = False
) -> list[dict[str, Any]]:
    """Each seat as the page lists it: number (from 0, as everywhere), name, bot, bot takeover, away.

    ``over``: the game is over, so the bot no longer plays a seat handed to it (nothing is played):
    ``bot_takeover`` is False then.
    """
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
                "bot_takeover": seat.bot_takeover and not over,
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
    phase: str | None = None,
    viewer_away: bool = False,
    answered: bool = False,
) -> list[dict[str, Any]]:
    """The open decisions as the page shows them, soonest first: what, whose, and its countdown.

    ``rows``: ``selectors.public_decision_rows`` for the viewer; ``bot_played``: positions the server
    plays; ``phase``: the game's phase in the viewer's view, which names a decision kind that several
    phases share (``decision_name``); ``viewer_away``: the viewer is on vacation; ``answered``: the viewer
    has answered the open simultaneous decision (``selectors.seat_answer_hidden``). A simultaneous decision
    appears once, by its name, whoever has answered it. A stopped clock says why: the pause, the
    owner's vacation, or, for a simultaneous decision that anybody's vacation holds (the setup peek),
    that a player is away, so that it never calls a viewer who is not away "away".
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
        what = decision_name(row["kind"], phase, simultaneous=simultaneous)
        who = "" if simultaneous else (names[seat] if seat is not None and 0 <= seat < len(names) else "")
        out.append(
            {
                "what": what,
                "who": who,
                "seat": seat,
                "mine": seat is not None and seat == viewer,
                "answered": simultaneous and answered and seat != viewer,
                "thinking": not simultaneous and seat in bot_played and not paused,
                "deadline": row["deadline"],
                "length": _length(control, row["timing"]),
                "stopped": _stopped(row, paused=paused, simultaneous=simultaneous, viewer_away=viewer_away),
            }
        )
    out.sort(key=lambda c: (c["deadline"] is None, c["deadline"].timestamp() if c["deadline"] else 0.0))
    return out


def _stopped(row: dict[str, Any], *, paused: bool, simultaneous: bool, viewer_away: bool) -> str:
    """Why the decision's clock is stopped: ``paused``, ``away`` (its owner's vacation), ``table_away``
    (a simultaneous decision held by some player's vacation, seen by someone not away), or ""."""
    if paused:
        return "paused"
    if row["deadline"] is not None:
        return ""
    return "table_away" if simultaneous and not viewer_away else "away"


def _length(control: Control, klass: str) -> timedelta | None:
    return decision_length(control, klass)
