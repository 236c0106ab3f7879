"""A league's seasons and rounds: a new season, and a round's start, which pairs the active members
into tables and creates their games (by an organiser, or by the schedule when a round is due)."""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from apps.games import lifecycle as game_lifecycle
from apps.games.errors import ServiceError
from apps.games.models import Game
from apps.notifications.notify import notify_invitation
from baogame.rules.registry import get_engine

from . import confirmation, division_members, eligibility, roundplan, season_length, separation, titles
from .auditlog import audit
from .models import Fixture, League, Membership, Round, Season, Standing
from .permissions import require_organiser

log = logging.getLogger(__name__)


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

    One season at a time: refused while the previous one is scheduled or being played
    (``previous_season_running``), or while some of its results may still change (provisional or
    reopened: ``previous_results_open``). Two at once would both start rounds on the schedule, seat
    the members in both, and leave the pages (which show the newest) silent about the older one; and a
    league with divisions builds the next season's from the previous one's final standings.
    """
    require_organiser(league, by)
    if not 1 <= rounds <= 100:
        raise ServiceError("invalid_options", "a season has 1-100 rounds")
    length, length_options = season_length.season_length_check(
        league=league, length=length, length_options=length_options
    )
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).first()  # one creation at a time
        previous = league.seasons.order_by("-number").values_list("number", "status").first()
        if previous is not None and previous[1] != Season.Status.FINISHED:
            raise ServiceError(
                "previous_season_running", "the previous season has not finished yet", status=409
            )
        if previous is not None and confirmation.results_open(league.seasons.get(number=previous[0])):
            raise ServiceError(
                "previous_results_open",
                "some results of the previous season are not confirmed yet: confirm them, or wait "
                "until their confirmation period ends",
                status=409,
            )
        number = (previous[0] if previous else 0) + 1
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
        title=titles.stored(league=league.name, season=season.number, round_number=rnd.number, table=table),
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
