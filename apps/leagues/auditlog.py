"""The organiser log in words: one sentence per ``AuditLog`` entry, for the public league page.

Only what the page already shows publicly goes into a sentence (who acted, the season, round, seat,
hours); private details (a declined applicant, an e-mail's subject, the changed settings' values)
stay in the organiser API.
"""

from __future__ import annotations

from typing import Any

from .models import AuditLog

#: ``action`` -> a sentence with ``{actor}`` and the entry's public details.
SENTENCES: dict[str, str] = {
    "league_created": "{actor} created the league.",
    "league_updated": "{actor} changed the league's settings.",
    "member_approved": "{actor} approved {user}'s request to join.",
    "member_declined": "{actor} declined a request to join.",
    "season_created": "{actor} scheduled season {season} ({rounds} rounds).",
    "round_started": "{actor} started round {round} of season {season} ({tables} tables).",
    "deadline_extended": "{actor} gave seat {seat} {hours} more hours.",
    "game_paused": "{actor} paused the game.",
    "game_resumed": "{actor} resumed the game.",
    "player_substituted": "{actor} seated {newcomer} in seat {seat} in place of {previous}.",
    "seat_to_bot": "{actor} handed seat {seat} to the bot.",
    "seat_from_bot": "{actor} gave seat {seat} back to its player.",
    "game_adjudicated": "{actor} adjudicated the game.",
    "game_aborted": "{actor} aborted the game.",
    "members_emailed": "{actor} e-mailed the members.",
    "division_moved": "{actor} moved {name} from division {before} to division {after} for season {season}.",
    "divisions_confirmed": "{actor} confirmed the divisions of season {season}.",
}


def _actor(entry: AuditLog) -> str:
    if entry.actor is None:
        return "The schedule"
    profile = getattr(entry.actor, "profile", None)
    return str(getattr(profile, "name", "") or entry.actor.get_username())


def audit_sentence(entry: AuditLog) -> str:
    """One entry as a sentence, e.g. "ann started round 2 of season 1 (3 tables)."."""
    detail: dict[str, Any] = dict(entry.detail or {})
    # Substitutions record usernames and display names: say the names people see on the pages.
    for key in ("previous", "newcomer"):
        detail[key] = detail.get(f"{key}_name") or detail.get(key) or "nobody"
    template = SENTENCES.get(entry.action)
    if template is None:
        return f"{_actor(entry)}: {entry.action.replace('_', ' ')}."
    try:
        sentence = template.format(actor=_actor(entry), **detail)
    except (KeyError, IndexError):  # an older entry without some detail: say what we can
        sentence = f"{_actor(entry)}: {entry.action.replace('_', ' ')}."
    return sentence[0].upper() + sentence[1:]
