"""What changes a league itself: a new league, its settings, its members, and mail to them.

Organiser actions check ``league_may_manage`` (an organiser, or a site admin; ``require_organiser``)
and write an ``AuditLog`` row in the same transaction (``audit``). A league's seasons and rounds are in
``seasons``, a game's result entering the standings in ``results``, the organiser's tools on a league
game in ``game_tools``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mass_mail
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from apps.games import lifecycle as game_lifecycle
from apps.games.clock.controls import DEFAULT_CONTROL, NAMED_CONTROLS
from apps.games.errors import ServiceError
from apps.notifications.preferences import mode_for
from baogame.rules.registry import ENGINES, get_engine, get_game_type

from . import eligibility, joinmail
from .auditlog import audit
from .models import (
    DeclinedRequest,
    League,
    Membership,
    Season,
)
from .permissions import league_is_admin as league_is_admin
from .permissions import league_is_organiser as league_is_organiser
from .permissions import league_may_manage as league_may_manage
from .permissions import require_organiser

log = logging.getLogger(__name__)

#: A new league's table size when its game allows several (Bao Bei: 2-6).
DEFAULT_TABLE = 4


# --- leagues and memberships ----------------------------------------------------------------------------


def league_create(
    *,
    creator: User,
    name: str,
    game: str,
    description: str = "",
    is_public: bool = True,
    players_per_table: int | None = None,
    allow_smaller_tables: bool = True,
    engine_options: dict[str, Any] | None = None,
    timing_preset: str = DEFAULT_CONTROL,
    points_table: list[int] | None = None,
    join: bool = False,
    confirmation_hours: int | None = 0,
    min_reliability: int | None = 0,
    divisions: int = 1,
    promotion: int = 1,
    pairing_format: str = "spread",
) -> League:
    """Create a league organised by ``creator`` (who also plays when ``join``).

    ``players_per_table`` None: the game's one table size (Bao Huang's 5), else 4.
    """
    if players_per_table is None:
        fixed = get_game_type(game).fixed_players if game in ENGINES else None
        players_per_table = fixed or DEFAULT_TABLE
    _structure_check(divisions=divisions, promotion=promotion, pairing_format=pairing_format)
    _preset_check(
        game=game,
        players_per_table=players_per_table,
        allow_smaller_tables=allow_smaller_tables,
        engine_options=engine_options or {},
        timing_preset=timing_preset,
        points_table=points_table or [],
    )
    _check_rec_settings(confirmation_hours=confirmation_hours, min_reliability=min_reliability)
    base = slugify(name)[:80] or "league"
    slug, n = base, 1
    while League.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    with transaction.atomic():
        league = League.objects.create(
            name=name,
            slug=slug,
            game=game,
            description=description,
            is_public=is_public,
            players_per_table=players_per_table,
            allow_smaller_tables=allow_smaller_tables,
            engine_options=engine_options or {},
            timing_preset=timing_preset,
            points_table=[int(p) for p in points_table or []],
            confirmation_hours=confirmation_hours or 0,
            min_reliability=min_reliability or 0,
            divisions=divisions,
            promotion=promotion,
            pairing_format=pairing_format,
        )
        league.organisers.add(creator)
        if join:
            Membership.objects.create(
                league=league, user=creator, status=Membership.Status.ACTIVE, joined_at=timezone.now()
            )
        audit(league=league, actor=creator, action="league_created", game_name=game)
    return league


def _check_rec_settings(*, confirmation_hours: int | None, min_reliability: int | None) -> None:
    """The confirmation period is 0-720 hours (30 days), the minimum reliability 0-100 percent."""
    if confirmation_hours is not None and not 0 <= confirmation_hours <= 720:
        raise ServiceError("invalid_options", "the confirmation period is 0-720 hours")
    if min_reliability is not None and not 0 <= min_reliability <= 100:
        raise ServiceError("invalid_options", "the minimum reliability is a percentage, 0-100")


def _preset_check(
    *,
    game: str,
    players_per_table: int,
    allow_smaller_tables: bool,
    engine_options: dict[str, Any],
    timing_preset: str,
    points_table: list[int],
) -> None:
    """Refuse a game preset the league could not create its games with (``invalid_options``).

    The engine options are tried with the engine's ``setup`` at every table size a round can seat, as
    ``game_create`` would, so a bad option is refused now and not when a round starts.
    """
    try:
        engine = get_engine(game)
    except KeyError:
        raise ServiceError("invalid_options", f"unknown game {game!r}") from None
    if not engine.min_players <= players_per_table <= engine.max_players:
        kind = engine.game_type
        raise ServiceError("invalid_options", f"{kind.display_name} tables seat {kind.seats_text()}")
    if timing_preset not in NAMED_CONTROLS:
        raise ServiceError("invalid_options", f"unknown time control {timing_preset!r}")
    if points_table and any(int(p) < 0 for p in points_table):
        raise ServiceError("invalid_options", "league points cannot be negative")
    if not isinstance(engine_options, dict):
        raise ServiceError("invalid_options", "engine options must be an object")
    game_lifecycle.refuse_stacking_options(engine_options)
    smallest = engine.min_players if allow_smaller_tables else players_per_table
    for players in range(smallest, players_per_table + 1):
        engine.setup(players, {**engine.default_options(players), **engine_options}, "options-check")


def _structure_check(*, divisions: int, promotion: int, pairing_format: str) -> None:
    """Refuse a number of divisions, a promotion count or a pairing format the league cannot use."""
    from .formats import FORMATS

    if not 1 <= divisions <= 20:
        raise ServiceError("invalid_options", "a league has 1-20 divisions")
    if not 0 <= promotion <= 50:
        raise ServiceError("invalid_options", "promotion moves 0-50 players")
    if pairing_format not in FORMATS:
        raise ServiceError("invalid_options", f"unknown pairing format {pairing_format!r}")


#: The league fields ``league_update`` may change (the game and the slug stay).
LEAGUE_EDITABLE = (
    "name",
    "description",
    "is_public",
    "players_per_table",
    "allow_smaller_tables",
    "engine_options",
    "timing_preset",
    "points_table",
    "confirmation_hours",
    "min_reliability",
    "divisions",
    "promotion",
    "pairing_format",
)
_TABLE_FIELDS = {"players_per_table", "allow_smaller_tables", "pairing_format"}


def league_update(
    *,
    league: League,
    by: User,
    name: str | None = None,
    description: str | None = None,
    is_public: bool | None = None,
    players_per_table: int | None = None,
    allow_smaller_tables: bool | None = None,
    engine_options: dict[str, Any] | None = None,
    timing_preset: str | None = None,
    points_table: list[int] | None = None,
    confirmation_hours: int | None = None,
    min_reliability: int | None = None,
    divisions: int | None = None,
    promotion: int | None = None,
    pairing_format: str | None = None,
) -> League:
    """An organiser changes the league's name, description, visibility or game preset (None: unchanged).

    The preset (table size, engine options, timing) applies to the games created from then on: games
    already created keep their options and clocks. A new table size also re-plans the pairings of the
    rounds not yet started. A new points table counts for the results recorded from then on (results
    already in the standings keep their points). A new pairing format re-plans the rounds not yet
    started too; a new number of divisions or promotion count applies to the next season's proposal
    (``divisions.season_propose``). The game and the slug (the league's address) stay.
    Writes a ``league_updated`` audit entry listing the changed fields; nothing when nothing changed.
    """
    require_organiser(league, by)
    given: dict[str, Any] = {
        "name": name,
        "description": description,
        "is_public": is_public,
        "players_per_table": players_per_table,
        "allow_smaller_tables": allow_smaller_tables,
        "engine_options": engine_options,
        "timing_preset": timing_preset,
        "points_table": [int(p) for p in points_table] if points_table is not None else None,
        "confirmation_hours": confirmation_hours,
        "min_reliability": min_reliability,
        "divisions": divisions,
        "promotion": promotion,
        "pairing_format": pairing_format,
    }
    if name is not None and not name.strip():
        raise ServiceError("invalid_options", "a league needs a name")
    _check_rec_settings(confirmation_hours=confirmation_hours, min_reliability=min_reliability)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        wanted = {field: getattr(league, field) if value is None else value for field, value in given.items()}
        _preset_check(
            game=league.game,
            players_per_table=wanted["players_per_table"],
            allow_smaller_tables=wanted["allow_smaller_tables"],
            engine_options=wanted["engine_options"],
            timing_preset=wanted["timing_preset"],
            points_table=wanted["points_table"],
        )
        _structure_check(
            divisions=wanted["divisions"],
            promotion=wanted["promotion"],
            pairing_format=wanted["pairing_format"],
        )
        changed = [field for field in LEAGUE_EDITABLE if wanted[field] != getattr(league, field)]
        if not changed:
            return league
        for field in changed:
            setattr(league, field, wanted[field])
        league.save(update_fields=changed)
        if _TABLE_FIELDS & set(changed):
            league.seasons.exclude(status=Season.Status.FINISHED).update(plan={})
        audit(
            league=league,
            actor=by,
            action="league_updated",
            changed={f: "(changed)" if f == "description" else wanted[f] for f in changed},
        )
    return league


def membership_join_by_link(*, league: League, user: User, token: str) -> Membership:
    """Join with the league's invite link: an active member at once."""
    if token != league.invite_token:
        raise ServiceError("invalid_invite", "this invite link is not valid", status=404)
    if not Membership.objects.filter(league=league, user=user, status=Membership.Status.ACTIVE).exists():
        eligibility.require_reliable(league=league, user=user)
    membership, _ = Membership.objects.get_or_create(league=league, user=user)
    if membership.status != Membership.Status.ACTIVE:
        membership.status, membership.joined_at = Membership.Status.ACTIVE, timezone.now()
        membership.member_told_at = membership.joined_at  # they joined themselves: nothing to tell
        membership.save(update_fields=["status", "joined_at", "member_told_at"])
    return membership


def membership_request(*, league: League, user: User) -> Membership:
    """Ask to join a public league; an organiser approves."""
    if not league.is_public:
        raise ServiceError("forbidden", "a private league is joined by its invite link", status=403)
    eligibility.require_reliable(league=league, user=user)
    with transaction.atomic():
        membership, created = Membership.objects.select_for_update().get_or_create(league=league, user=user)
        if created or membership.status == Membership.Status.WITHDRAWN:  # a new request: mail the organisers
            membership.status, membership.requested_at = Membership.Status.PENDING, timezone.now()
            membership.organisers_told_at = None
            membership.save(update_fields=["status", "requested_at", "organisers_told_at"])
            joinmail.join_request_queue(membership)
    return membership


def membership_approve(*, league: League, membership_id: int, by: User, approve: bool = True) -> Membership:
    """An organiser approves (or declines) a request to join; either way the one who asked is mailed
    after the commit (``joinmail``). A declined request's row is deleted, so asking again is a new
    request."""
    require_organiser(league, by)
    with transaction.atomic():
        membership = Membership.objects.select_for_update().get(pk=membership_id, league=league)
        if membership.status != Membership.Status.PENDING:
            raise ServiceError("not_pending", "that request is not pending", status=409)
        if approve:
            membership.status, membership.joined_at = Membership.Status.ACTIVE, timezone.now()
            membership.member_told_at = None
            membership.save(update_fields=["status", "joined_at", "member_told_at"])
            joinmail.approval_queue(membership)
        else:  # the request goes; a record of its decline stays until its mail is out (joinmail)
            declined = DeclinedRequest.objects.create(
                league=league, user=membership.user, requested_at=membership.requested_at
            )
            membership.delete()
            joinmail.decline_queue(declined)
        audit(
            league=league,
            actor=by,
            action="member_approved" if approve else "member_declined",
            user=membership.user.get_username(),
        )
    return membership


def membership_withdraw(*, league: League, user: User) -> Membership:
    """Leave the league: no more tables from the next round on (games in play go on)."""
    membership = Membership.objects.filter(league=league, user=user).first()
    if membership is None or membership.status == Membership.Status.WITHDRAWN:
        raise ServiceError("not_a_member", "you are not a member of this league", status=409)
    with transaction.atomic():
        membership.status = Membership.Status.WITHDRAWN
        membership.save(update_fields=["status"])
        audit(league=league, actor=user, action="member_withdrew")  # the organisers see who left
    return membership


# --- mail to members ----------------------------------------------------------------------------------


def league_email_members(*, league: League, subject: str, body: str, by: User) -> int:
    """Email every active member; returns the number of messages sent."""
    require_organiser(league, by)
    if not subject.strip() or not body.strip():
        raise ServiceError("invalid_message", "a message needs a subject and a text")
    if any(ord(c) < 32 or ord(c) == 127 for c in subject):  # a line break would end the mail header
        raise ServiceError("invalid_message", "the subject is one line without control characters")
    members = (
        Membership.objects.filter(league=league, status=Membership.Status.ACTIVE)
        .exclude(user__email="")
        .select_related("user")
    )  # a member who switched league news off on their Notifications page is not mailed
    recipients = [m.user.email for m in members if mode_for(m.user, "league_news", "mail") != "off"]
    prefix = f"[{league.name}] "
    messages = [(prefix + subject, body, settings.DEFAULT_FROM_EMAIL, [email]) for email in recipients]
    with transaction.atomic():
        audit(league=league, actor=by, action="members_emailed", subject=subject, recipients=len(messages))
    return send_mass_mail(messages, fail_silently=False) if messages else 0
