"""The organiser log: ``audit`` writes an organiser's action, and ``audit_sentence`` tells it in words,
one sentence per ``AuditLog`` entry, for the public league page.

Only what the page already shows publicly goes into a sentence (who acted, the season, round, seat,
hours); private details (a declined applicant, an e-mail's subject, the changed settings' values)
stay in the organiser API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from .models import AuditLog, League

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from apps.games.models import Game


def audit(
    *,
    league: League,
    actor: User | None,
    action: str,
    game: Game | None = None,
    reason: str = "",
    **detail: Any,
) -> AuditLog:
    """Write one organiser action to the league's audit log (in the caller's transaction)."""
    return AuditLog.objects.create(
        league=league, actor=actor, action=action, game=game, reason=reason, detail=detail
    )


#: ``action`` -> a sentence with ``%(actor)s`` and the entry's public details, in the reader's language
#: (a count's plural chosen by its detail, e.g. ``tables``).
SENTENCES: dict[str, Promise] = {
    "league_created": _("%(actor)s created the league."),
    "league_updated": _("%(actor)s changed the league's settings."),
    "member_approved": _("%(actor)s approved %(user)s's request to join."),
    "member_declined": _("%(actor)s declined a request to join."),
    "member_withdrew": _("%(actor)s withdrew from the league."),
    "organiser_added": _("%(actor)s made %(user)s an organiser."),
    "organiser_stepped_down": _("%(actor)s stepped down as organiser."),
    "organiser_succeeded": _(
        "%(actor)s organises the league now: its only organiser closed their account, and %(actor)s "
        "was its longest-standing member."
    ),
    "season_created": ngettext_lazy(
        "%(actor)s scheduled season %(season)s (%(rounds)s round).",
        "%(actor)s scheduled season %(season)s (%(rounds)s rounds).",
        "rounds",
    ),
    "round_started": ngettext_lazy(
        "%(actor)s started round %(round)s of season %(season)s (%(tables)s table).",
        "%(actor)s started round %(round)s of season %(season)s (%(tables)s tables).",
        "tables",
    ),
    "deadline_extended": _("%(actor)s gave seat %(seat)s %(hours)s more hours."),
    "game_paused": _("%(actor)s paused the game."),
    "game_resumed": _("%(actor)s resumed the game."),
    "player_substituted": _("%(actor)s seated %(newcomer)s in seat %(seat)s in place of %(previous)s."),
    "seat_to_bot": _("%(actor)s handed seat %(seat)s to the bot."),
    "seat_from_bot": _("%(actor)s gave seat %(seat)s back to its player."),
    "game_adjudicated": _("%(actor)s adjudicated the game."),
    "game_aborted": _("%(actor)s aborted the game."),
    "members_emailed": _("%(actor)s e-mailed the members."),
    "division_moved": _(
        "%(actor)s moved %(name)s from division %(before)s to division %(after)s for season %(season)s."
    ),
    "divisions_confirmed": _("%(actor)s confirmed the divisions of season %(season)s."),
    "member_below_reliability": _("%(actor)s found %(user)s below the league's minimum reliability."),
    "result_confirmed": _("%(actor)s confirmed the result."),
    # the same action, when nobody objected within the confirmation period (the schedule's entry)
    "result_confirmed/period_ended": _(
        "The result became final: nobody objected within its confirmation period."
    ),
    "result_reopened": _("%(actor)s reopened the result."),
    "result_adjudicated": _("%(actor)s gave the result by adjudication."),
    "substitute_offered": _("%(actor)s offered seat %(seat)s to %(newcomer)s in place of %(previous)s."),
    "substitute_declined": _("%(actor)s declined the offer of seat %(seat)s."),
}


def _actor(entry: AuditLog) -> str:
    if entry.actor is None:
        return gettext("The schedule")
    profile = getattr(entry.actor, "profile", None)
    return str(getattr(profile, "name", "") or entry.actor.get_username())


def audit_sentence(entry: AuditLog) -> str:
    """One entry as a sentence, e.g. "ann started round 2 of season 1 (3 tables)."."""
    detail: dict[str, Any] = dict(entry.detail or {})
    # Substitutions record usernames and display names: say the names people see on the pages.
    for key in ("previous", "newcomer"):
        detail[key] = detail.get(f"{key}_name") or detail.get(key) or gettext("nobody")
    template = SENTENCES.get(f"{entry.action}/{detail.get('how')}") or SENTENCES.get(entry.action)
    if template is None:
        return f"{_actor(entry)}: {entry.action.replace('_', ' ')}."
    try:
        sentence = str(template % {**detail, "actor": _actor(entry)})  # a count picks its plural form
    except (KeyError, TypeError, ValueError):  # an older entry without some detail: say what we can
        sentence = f"{_actor(entry)}: {entry.action.replace('_', ' ')}."
    return sentence  # a name keeps its own case ("demo" is not "Demo"); the sentences start with it
