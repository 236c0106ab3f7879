"""Vacation: a player's clocks stop in every game while away, within a yearly budget."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Profile, VacationSpell
from baogame.rules.registry import get_engine

from .. import pipeline, scheduling
from ..errors import ServiceError
from ..models import Game
from ..store import lock_game
from . import deadlines
from .pause import restart_clocks, stop_clocks

# --- vacation -------------------------------------------------------------------------------------------


def _seated_games(user: User) -> list[int]:
    """Ids of the user's games that are in play or paused, in lock order (by id: no deadlocks)."""
    return list(
        Game.objects.filter(seats__user=user, status__in=[Game.Status.ACTIVE, Game.Status.PAUSED])
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )


def vacation_start(*, user: User) -> Profile:
    """Go on vacation: the user's clocks stop in every game, and they pass every plucking window.

    Others see the seat as away (``deadlines.seats_away``). Refused when this year's budget is spent.
    """
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        now = timezone.now()
        if profile.on_vacation:
            raise ServiceError("already_on_vacation", "you are already on vacation", status=409)
        if profile.vacation_year != now.year:
            profile.vacation_year, profile.vacation_seconds_used = now.year, 0
        if deadlines.vacation_left(profile, now) <= timedelta(0):
            raise ServiceError("vacation_budget_exhausted", "no vacation days left this year", status=409)
        profile.vacation_started_at = now
        profile.save(update_fields=["vacation_started_at", "vacation_year", "vacation_seconds_used"])
        VacationSpell.objects.create(user=user, started_at=now)  # the reliability record's days away
        for game_id in _seated_games(user):
            locked = lock_game(game_id)
            pipeline.settle(locked, now)  # what is already due is not saved by leaving
            stop_clocks(locked, now, away=locked.away())
            if locked.game.status == Game.Status.ACTIVE:
                pipeline.auto_pass_windows(locked, get_engine(locked.game.engine).pending(locked.state))
                scheduling.queue_game_tasks(locked)
    return profile


def vacation_end(*, user: User) -> Profile:
    """Come back: the days away are charged to the yearly budget and the user's clocks restart."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        now = timezone.now()
        if profile.vacation_started_at is None:
            raise ServiceError("not_on_vacation", "you are not on vacation", status=409)
        _vacation_over(profile, now)
        for game_id in _seated_games(user):
            locked = lock_game(game_id)
            restart_clocks(locked, now)
            scheduling.queue_game_tasks(locked)
    return profile


def vacation_end_in_profile(*, user: User) -> bool:
    """End the user's vacation in their profile only, as ``vacation_end`` does (its days are charged, its
    spell closed), without locking their games: for a closing account, whose games are let go of one
    transaction each (``closing.game_let_go`` restarts the clocks the vacation stopped). False if they
    were not on vacation."""
    profile = Profile.objects.select_for_update().filter(user=user).first()
    if profile is None or profile.vacation_started_at is None:
        return False
    _vacation_over(profile, timezone.now())
    return True


def _vacation_over(profile: Profile, now: datetime) -> None:
    """Charge the days away to the yearly budget and close the vacation (the profile locked)."""
    started = profile.vacation_started_at
    assert started is not None
    if profile.vacation_year == now.year:
        profile.vacation_seconds_used += int((now - started).total_seconds())
    else:  # a vacation across New Year: only this year's part counts against this year's budget
        year_start = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
        profile.vacation_year = now.year
        profile.vacation_seconds_used = int((now - max(started, year_start)).total_seconds())
    profile.vacation_started_at = None
    profile.save(update_fields=["vacation_started_at", "vacation_year", "vacation_seconds_used"])
    VacationSpell.objects.filter(user_id=profile.user_id, ended_at=None).update(ended_at=now)


def vacation_end_exhausted(*, now: datetime | None = None) -> int:
    """End every vacation whose yearly budget has run out; returns how many ended."""
    now = now or timezone.now()
    ended = 0
    for profile in Profile.objects.filter(vacation_started_at__isnull=False).select_related("user"):
        if deadlines.vacation_left(profile, now) <= timedelta(0):
            try:
                vacation_end(user=profile.user)
            except ServiceError:  # ended meanwhile by the player
                continue
            ended += 1
    return ended
