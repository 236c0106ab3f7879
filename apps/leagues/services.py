"""Everything that changes a league: leagues, memberships, seasons and rounds, results, organiser tools.

Organiser actions check ``league_may_manage`` (an organiser, or a site admin) and write an ``AuditLog``
row in the same transaction. Game-level tools (substitute, bot takeover, adjudicate, abort) lock the
game row first, like every change to a game, and are refused (``own_game``) to anyone who holds a seat
in that game; pausing, resuming and extending deadlines go through ``apps.games.clock``.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.mail import send_mail, send_mass_mail
from django.db import transaction
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext

from apps.accounts.language import mail_language
from apps.accounts.models import display_name
from apps.games import clock as game_clock
from apps.games import lifecycle as game_lifecycle
from apps.games import people, reliability
from apps.games import scheduling as game_scheduling
from apps.games.clock.controls import DEFAULT_CONTROL, NAMED_CONTROLS
from apps.games.errors import ServiceError
from apps.games.models import Game, Seat
from apps.games.store import LockedGame, lock_game
from apps.notifications.notify import notify_invitation
from apps.notifications.preferences import mode_for
from baogame.rules.registry import ENGINES, get_engine, get_game_type

from . import division_members, eligibility, ratings, roundplan, season_length, separation, standings
from .models import (
    AuditLog,
    Fixture,
    League,
    Membership,
    RatingHistory,
    Round,
    Season,
    Standing,
    SubstituteOffer,
)
from .permissions import league_is_admin as league_is_admin
from .permissions import league_is_organiser as league_is_organiser
from .permissions import league_may_manage as league_may_manage

log = logging.getLogger(__name__)

#: A new league's table size when its game allows several (Bao Bei: 2-6).
DEFAULT_TABLE = 4


# --- permissions and the audit log --------------------------------------------------------------------


def require_organiser(league: League, user: User | AnonymousUser | None) -> None:
    if not league_may_manage(league=league, user=user):
        raise ServiceError("forbidden", "only the league's organisers can do that", status=403)


def league_sole_organiser_plays(*, league: League) -> bool:
    """Whether the league's only organiser is also an active member: in their own games, nobody but a
    site admin can use the organiser tools (said on the manage page)."""
    organisers = list(league.organisers.values_list("pk", flat=True))
    return (
        len(organisers) == 1
        and league.memberships.filter(user_id=organisers[0], status=Membership.Status.ACTIVE).exists()
    )


def audit(
    *,
    league: League,
    actor: User | None,
    action: str,
    game: Game | None = None,
    reason: str = "",
    **detail: Any,
) -> AuditLog:
    """Write one organiser action to the league's audit log."""
    return AuditLog.objects.create(
        league=league, actor=actor, action=action, game=game, reason=reason, detail=detail
    )


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
        membership.save(update_fields=["status", "joined_at"])
    return membership


def membership_request(*, league: League, user: User) -> Membership:
    """Ask to join a public league; an organiser approves."""
    if not league.is_public:
        raise ServiceError("forbidden", "a private league is joined by its invite link", status=403)
    eligibility.require_reliable(league=league, user=user)
    membership, created = Membership.objects.get_or_create(league=league, user=user)
    if not created and membership.status == Membership.Status.WITHDRAWN:
        membership.status = Membership.Status.PENDING
        membership.save(update_fields=["status"])
    return membership


def membership_approve(*, league: League, membership_id: int, by: User, approve: bool = True) -> Membership:
    """An organiser approves (or declines) a request to join."""
    require_organiser(league, by)
    with transaction.atomic():
        membership = Membership.objects.select_for_update().get(pk=membership_id, league=league)
        if membership.status != Membership.Status.PENDING:
            raise ServiceError("not_pending", "that request is not pending", status=409)
        if approve:
            membership.status, membership.joined_at = Membership.Status.ACTIVE, timezone.now()
            membership.save(update_fields=["status", "joined_at"])
        else:
            membership.delete()
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
    membership.status = Membership.Status.WITHDRAWN
    membership.save(update_fields=["status"])
    return membership


# --- seasons and rounds -----------------------------------------------------------------------------------


def season_create(
    *,
    league: League,
    by: User,
    starts_at: Any = None,
    rounds: int = 5,
    round_interval_days: int = 7,
    length: str | None = None,
    length_options: dict[str, Any] | None = None,
) -> Season:
    """Schedule a new season; round 1 starts at ``starts_at`` (beat) or when an organiser starts it.

    ``length`` is the match length of all the season's games (``season_length``; ``custom`` with its
    values in ``length_options``); None: the league's game options decide.
    """
    require_organiser(league, by)
    if not 1 <= rounds <= 100:
        raise ServiceError("invalid_options", "a season has 1-100 rounds")
    length, length_options = season_length.season_length_check(
        league=league, length=length, length_options=length_options
    )
    with transaction.atomic():
        number = (league.seasons.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        season = Season.objects.create(
            league=league,
            number=number,
            starts_at=starts_at or timezone.now(),
            rounds=rounds,
            round_interval_days=round_interval_days,
            length=length,
            length_options=length_options,
        )
        audit(
            league=league,
            actor=by,
            action="season_created",
            season=number,
            rounds=rounds,
            length=season_length.season_length_text(season),
        )
        eligibility.withdraw_below_minimum(league=league, by=by, audit=audit)
    return season


def table_limits(league: League) -> tuple[int, int]:
    """(preferred size, smallest table) for the league's game."""
    engine = get_engine(league.game)
    smallest = engine.min_players if league.allow_smaller_tables else league.players_per_table
    return league.players_per_table, max(smallest, engine.min_players)


def round_start(*, season_id: int, by: User | None = None) -> Round:
    """Start the season's next round: seat the active members at tables and create their games.

    ``by`` is the organiser, or None when the beat schedule starts it.
    """
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("league").get(pk=season_id)
        league = season.league
        if by is not None:
            require_organiser(league, by)
        if season.status == Season.Status.FINISHED:
            raise ServiceError("season_finished", "this season is over", status=409)
        number = season.round_set.count() + 1
        if number > season.rounds:
            raise ServiceError("no_rounds_left", "every round of this season has started", status=409)
        members = sorted(
            Membership.objects.filter(league=league, status=Membership.Status.ACTIVE).values_list(
                "user_id", flat=True
            )
        )
        size, smallest = table_limits(league)
        if len(members) < smallest:
            raise ServiceError(
                "too_few_members", f"a round needs at least {smallest} active members", status=409
            )
        by_division = division_members.members_by_division(season=season, members=members)
        plans = roundplan.plan_divisions(
            season=season, divisions=by_division, number=number, size=size, smallest=smallest
        )
        separation.check_tables(
            [t for _, plan in plans for t in plan.tables], separation.forbidden_pairs(members)
        )
        season.save(update_fields=["plan"])
        byes = sorted(m for _, plan in plans for m in plan.byes)
        rnd = Round.objects.create(
            season=season, number=number, started_at=timezone.now(), started_by=by, byes=byes
        )
        table = 0
        for division, plan in plans:
            for user_ids in plan.tables:
                table += 1
                game = _table_game_create(
                    league=league, season=season, rnd=rnd, table=table, user_ids=user_ids
                )
                Fixture.objects.create(round=rnd, table=table, game=game, players=user_ids, division=division)
        division_of = {m: d for d, ms in by_division.items() for m in ms}
        for user_id in members:
            Standing.objects.get_or_create(
                season=season, user_id=user_id, defaults={"division": division_of.get(user_id, 1)}
            )
        if season.status == Season.Status.SCHEDULED:
            season.status = Season.Status.RUNNING
            season.save(update_fields=["status"])
        audit(
            league=league,
            actor=by,
            action="round_started",
            season=season.number,
            round=number,
            tables=table,
            byes=len(byes),
        )
    return rnd


def _table_game_create(
    *, league: League, season: Season, rnd: Round, table: int, user_ids: list[int]
) -> Game:
    """Create one table's game and seat its members in a seeded random order.

    The pairing never seats one person's accounts (a member and their bot account) at one table
    (``separation``; ``round_start`` refuses a round it cannot seat so), and the game is never a
    bot-test game: ``game_join`` refuses a second seat of one person.
    """
    options, length = season_length.table_options(
        league=league, length=season.length, length_options=season.length_options
    )
    game = game_lifecycle.game_create(
        creator=None,
        engine=league.game,
        players=len(user_ids),
        options=options,
        length=length,
        control=league.timing_preset,
        title=f"{league.name} · season {season.number} · round {rnd.number} · table {table}",
        creator_seat=False,
    )
    order = list(user_ids)
    random.Random(f"leagues:seats:{season.seed}:{rnd.number}:{table}").shuffle(order)
    users = {u.pk: u for u in _users(order)}
    for position, user_id in enumerate(order):
        game_lifecycle.game_join(game_id=game.pk, user=users[user_id], position=position)
    game_id = game.pk
    for user_id in order:
        transaction.on_commit(partial(notify_invitation, game_id=game_id, user=users[user_id]))
    return game


def _users(ids: list[int]) -> list[User]:
    from django.contrib.auth import get_user_model

    return list(get_user_model().objects.filter(pk__in=ids))


def rounds_start_due(*, now: Any = None) -> int:
    """Beat: start every round whose scheduled time has come. Returns the number started."""
    now = now or timezone.now()
    started = 0
    for season in Season.objects.exclude(status=Season.Status.FINISHED).filter(starts_at__lte=now):
        number = season.round_set.count() + 1
        if number > season.rounds:
            continue
        due = season.starts_at + timedelta(days=season.round_interval_days * (number - 1))
        if due > now:
            continue
        try:
            round_start(season_id=season.pk)
        except ServiceError as exc:
            log.warning("round %s of season %s not started: %s", number, season.pk, exc.code)
            continue
        started += 1
    return started


# --- results: standings and ratings --------------------------------------------------------------------


def fixture_record_result(*, game_id: int) -> bool:
    """Count a league game's result once it ended; aborted games don't count. Idempotent.

    Returns True when standings changed.
    """
    with transaction.atomic():
        fixture = (
            Fixture.objects.select_for_update()
            .select_related("round__season__league", "game")
            .filter(game_id=game_id)
            .first()
        )
        if fixture is None or fixture.counted_at is not None:
            return False
        game = fixture.game
        if not game.is_over:
            return False
        fixture.counted_at = timezone.now()
        fixture.save(update_fields=["counted_at"])
        season = fixture.round.season
        changed = False
        if game.status == Game.Status.FINISHED and game.result:
            count_result(season=season, game=game)
            _on_counted(fixture, now=fixture.counted_at)
            changed = True
        _season_finish_if_done(season)
    return changed


def _on_counted(fixture: Fixture, *, now: datetime) -> None:
    """A result just counted: provisional for the league's confirmation period (``confirmation``), or
    confirmed at once (no period)."""
    hours = fixture.round.season.league.confirmation_hours
    if hours:
        fixture.confirm_by = now + timedelta(hours=hours)
    else:
        fixture.confirmed_at = now
    fixture.save(update_fields=["confirm_by", "confirmed_at"])


def count_result(*, season: Season, game: Game) -> None:
    league = season.league
    assert game.result is not None  # the caller counts only finished games with a result
    places = standings.placements(result=game.result, engine=game.engine, players=game.players)
    seats = {s.position: s for s in game.seats.all()}
    rows: dict[int, Standing] = {}
    for position, seat in seats.items():
        if seat.user_id is not None:
            rows[position] = Standing.objects.select_for_update().get_or_create(
                season=season, user_id=seat.user_id
            )[0]
    order = sorted(places)
    current = [
        (rows[p].mu, rows[p].sigma) if p in rows else (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
        for p in order
    ]
    rated = ratings.rate(ratings=current, places=[places[p][0] for p in order])
    for position, (mu, sigma) in zip(order, rated, strict=True):
        row = rows.get(position)
        if row is None:
            continue
        place, total = places[position]
        row.games_played += 1
        row.wins += place == 1
        row.points += standings.league_points(
            place=place, table_size=game.players, points_table=league.points_table
        )
        row.score_total += total
        row.mu, row.sigma = mu, sigma
        row.save()
        RatingHistory.objects.create(season=season, user_id=row.user_id, game=game, mu=mu, sigma=sigma)


def _season_finish_if_done(season: Season) -> None:
    if season.round_set.count() < season.rounds:
        return
    if Fixture.objects.filter(round__season=season, counted_at__isnull=True).exists():
        return
    Season.objects.filter(pk=season.pk).update(status=Season.Status.FINISHED)


# --- organiser tools on a league game ---------------------------------------------------------------------


def _league_game(league: League, game_id: int, by: User) -> LockedGame:
    """The game, locked, when it is one of the league's and ``by`` does not play in it; refused when it
    is over. An organiser who holds a seat (or whose bot account does) has no power over the game."""
    if not Game.objects.filter(pk=game_id, league_fixture__round__season__league=league).exists():
        raise ServiceError("not_found", "no such game in this league", status=404)
    locked = lock_game(game_id)
    people.refuse_own_game(game=locked.game, user=by)
    if locked.game.is_over:
        raise ServiceError("game_over", "this game has ended", status=409)
    return locked


def _league_seat(league: League, game_id: int, by: User, position: int) -> tuple[LockedGame, Seat]:
    """``_league_game`` and its player seat at ``position`` (a bot's seat or none: ``no_such_seat``)."""
    locked = _league_game(league, game_id, by)
    seat = locked.seats.get(position)
    if seat is None or seat.is_bot:
        raise ServiceError("no_such_seat", "no player seat at that position", status=404)
    return locked, seat


def game_deadline_extend(
    *, league: League, game_id: int, seat: int, hours: int, by: User, reason: str = ""
) -> None:
    """Give a seat's open decision ``hours`` more time."""
    require_organiser(league, by)
    with transaction.atomic():
        game = _league_game(league, game_id, by).game
        game_clock.decision_extend(game_id=game.pk, seat=seat, by=timedelta(hours=hours), actor=by)
        audit(
            league=league,
            actor=by,
            action="deadline_extended",
            game=game,
            reason=reason,
            seat=seat,
            hours=hours,
        )


def game_pause(*, league: League, game_id: int, by: User, reason: str = "") -> None:
    """Stop every clock of a league game."""
    require_organiser(league, by)
    with transaction.atomic():
        game = _league_game(league, game_id, by).game
        game_clock.game_pause(game_id=game.pk, by=by, reason=reason)
        audit(league=league, actor=by, action="game_paused", game=game, reason=reason)


def game_resume(*, league: League, game_id: int, by: User, reason: str = "") -> None:
    """Restart a paused league game's clocks."""
    require_organiser(league, by)
    with transaction.atomic():
        game = _league_game(league, game_id, by).game
        game_clock.game_resume(game_id=game.pk, by=by)
        audit(league=league, actor=by, action="game_resumed", game=game, reason=reason)


def seat_substitute(
    *,
    league: League,
    game_id: int,
    position: int,
    user: User,
    by: User,
    reason: str = "",
) -> SubstituteOffer:
    """Offer a seat to ``user``, an active member not seated in the game; they take it when they accept.

    Until then the seat is played as before (its player, or the bot). A pending offer for the same seat
    is withdrawn. The audit log names the newcomer for every member.
    """
    require_organiser(league, by)
    with transaction.atomic():
        locked, seat = _league_seat(league, game_id, by, position)
        game = locked.game
        _check_newcomer(league=league, game=game, user=user)
        SubstituteOffer.objects.filter(
            game=game, position=position, status=SubstituteOffer.Status.PENDING
        ).update(status=SubstituteOffer.Status.WITHDRAWN, answered_at=timezone.now())
        offer = SubstituteOffer.objects.create(
            league=league,
            game=game,
            position=position,
            newcomer=user,
            previous=seat.user,
            offered_by=by,
            reason=reason,
        )
        audit(
            league=league,
            actor=by,
            action="substitute_offered",
            game=game,
            reason=reason,
            **_offer_detail(offer),
        )
        transaction.on_commit(partial(_mail_offer, offer_id=offer.pk))
    return offer


def _check_newcomer(*, league: League, game: Game, user: User) -> None:
    """A substitute is an active member of the league who holds no seat in the game (nor their bots)."""
    if not league.memberships.filter(user=user, status=Membership.Status.ACTIVE).exists():
        raise ServiceError("not_a_member", "a substitute must be an active member of the league", status=409)
    if people.holds_seat(game=game, user=user):
        raise ServiceError("already_seated", "that player already has a seat in this game", status=409)


def _offer_detail(offer: SubstituteOffer) -> dict[str, Any]:
    """The audit detail of an offer: the seat and, by name, who leaves it and who takes it."""
    return {
        "seat": offer.position,
        "previous": offer.previous.get_username() if offer.previous else "",
        "previous_name": display_name(offer.previous) if offer.previous else "",
        "newcomer": offer.newcomer.get_username(),
        "newcomer_name": display_name(offer.newcomer),
        "offer": offer.pk,
    }


def _mail_offer(*, offer_id: int) -> None:
    """Tell the newcomer about the offer, with the link to accept or decline it."""
    offer = SubstituteOffer.objects.select_related("league", "newcomer__profile").get(pk=offer_id)
    if not offer.newcomer.email:
        return
    link = f"{settings.SITE_URL.rstrip('/')}{offer.get_absolute_url()}"
    fields = {"league": offer.league.name, "seat": offer.position, "game": offer.game, "link": link}
    with translation.override(mail_language(offer.newcomer)):  # the newcomer's language, not the organiser's
        subject = gettext("[%(league)s] A seat for you") % fields
        body = (
            gettext(
                "An organiser of %(league)s offers you seat %(seat)s of %(game)s.\n"
                "You play it (and see what it knows) only once you accept: %(link)s\n"
            )
            % fields
        )
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [offer.newcomer.email])
    except OSError:
        log.warning("substitute offer %s: mail not sent", offer_id)


def substitute_answer(*, offer_id: int, user: User, accept: bool) -> SubstituteOffer:
    """The newcomer accepts (takes the seat now) or declines a pending offer.

    Accepting is refused when the offer lapsed: the seat changed hands since, the game ended, the
    newcomer is no longer an active member or has a seat in the game by now.
    """
    game_id = (
        SubstituteOffer.objects.filter(pk=offer_id, newcomer=user).values_list("game_id", flat=True).first()
    )
    if game_id is None:
        raise ServiceError("no_such_offer", "no such seat offer for you", status=404)
    lapsed = False
    with transaction.atomic():
        # The game row first, then the offer: the order every organiser tool takes (no deadlock).
        locked = lock_game(game_id)
        game = locked.game
        offer = (
            SubstituteOffer.objects.select_for_update(of=("self",))
            .select_related("league", "newcomer__profile", "previous__profile")
            .get(pk=offer_id)
        )
        if offer.status != SubstituteOffer.Status.PENDING:
            raise ServiceError(
                "offer_closed", f"this offer is {offer.get_status_display().lower()}", status=409
            )
        league = offer.league
        offer.answered_at = timezone.now()
        if not accept:
            offer.status = SubstituteOffer.Status.DECLINED
            offer.save(update_fields=["status", "answered_at"])
            audit(league=league, actor=user, action="substitute_declined", game=game, **_offer_detail(offer))
            return offer
        seat = locked.seats.get(offer.position)
        lapsed = game.is_over or seat is None or seat.user_id != offer.previous_id
        if lapsed:  # withdrawn for good (committed), then refused below
            offer.status = SubstituteOffer.Status.WITHDRAWN
            offer.save(update_fields=["status", "answered_at"])
        else:
            _take_offered_seat(offer=offer, locked=locked, seat=seat, user=user)
    if lapsed:
        raise ServiceError("offer_lapsed", "the seat is no longer the one offered", status=409)
    return offer


def _take_offered_seat(*, offer: SubstituteOffer, locked: LockedGame, seat: Seat | None, user: User) -> None:
    """The newcomer takes the offered seat (inside the caller's transaction, game and offer locked)."""
    assert seat is not None  # the caller checked that the seat is still the one offered
    game = locked.game
    league = offer.league
    _check_newcomer(league=league, game=game, user=user)
    reliability.seat_changed(seat=seat, previous_id=seat.user_id, newcomer_id=user.pk)
    seat.user, seat.bot_takeover, seat.bot_hold, seat.consecutive_timeouts = user, False, False, 0
    seat.sitting_bot = False  # the order was the previous player's: a newcomer starts without orders
    seat.save(update_fields=["user", "bot_takeover", "bot_hold", "consecutive_timeouts", "sitting_bot"])
    offer.status = SubstituteOffer.Status.ACCEPTED
    offer.save(update_fields=["status", "answered_at"])
    audit(
        league=league,
        actor=offer.offered_by,
        action="player_substituted",
        game=game,
        reason=offer.reason,
        **_offer_detail(offer),
    )
    if game.status == Game.Status.ACTIVE:
        game_scheduling.queue_game_tasks(locked)
    transaction.on_commit(partial(notify_invitation, game_id=game.pk, user=user))


def seat_bot_takeover(
    *, league: League, game_id: int, position: int, on: bool, by: User, reason: str = ""
) -> Seat:
    """Hand a seat to the server's bot (``on``) or give it back to its player.

    Handing it over sets the organiser's hold: the player cannot take the seat back themselves until
    an organiser who does not play in the game (or a site admin) gives it back.
    """
    require_organiser(league, by)
    with transaction.atomic():
        locked, seat = _league_seat(league, game_id, by, position)
        game = locked.game
        seat.bot_takeover, seat.bot_hold, seat.consecutive_timeouts = on, on, 0
        seat.save(update_fields=["bot_takeover", "bot_hold", "consecutive_timeouts"])
        if on:
            reliability.handed_to_bot(seat)
        audit(
            league=league,
            actor=by,
            action="seat_to_bot" if on else "seat_from_bot",
            game=game,
            reason=reason,
            seat=position,
        )
        if on and game.status == Game.Status.ACTIVE:
            game_scheduling.queue_game_tasks(locked)
    return seat


def game_adjudicate(*, league: League, game_id: int, places: dict[int, int], by: User, reason: str) -> Game:
    """End a game with a result the organiser records: ``places`` maps every seat to its place (1 = best).

    The result counts in the standings like a played one.
    """
    require_organiser(league, by)
    if not reason.strip():
        raise ServiceError("reason_required", "say why the game is adjudicated")
    with transaction.atomic():
        locked = _league_game(league, game_id, by)
        game_lifecycle.game_adjudicate(locked, places=places, reason=reason)
        game = locked.game
        audit(league=league, actor=by, action="game_adjudicated", game=game, reason=reason, places=places)
    return game


def game_abort(*, league: League, game_id: int, by: User, reason: str) -> Game:
    """End a game without a result; it does not count in the standings."""
    require_organiser(league, by)
    if not reason.strip():
        raise ServiceError("reason_required", "say why the game is aborted")
    with transaction.atomic():
        locked = _league_game(league, game_id, by)
        game_lifecycle.game_abort(locked, reason=reason)
        game = locked.game
        audit(league=league, actor=by, action="game_aborted", game=game, reason=reason)
    return game


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
