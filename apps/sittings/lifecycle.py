"""A sitting's life: it starts at its time, ends at its time or early when everyone present agrees.

``advance`` moves every sitting whose time has come (the beat every minute, and each panel poll for its
own game, so the table never waits for the beat). Starting and ending tell the higher apps and the
game's clock through ``sitting_started`` / ``sitting_ended`` (sent after commit).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.games.clock import live
from apps.games.errors import ServiceError
from apps.games.models import Game
from baogame.celery import publish

from . import selectors
from .models import Sitting
from .signals import sitting_ended, sitting_started


def _finish(sitting: Sitting, *, now: datetime, early: bool) -> None:
    if sitting.saved_clock is not None:
        live.live_end(game_id=sitting.game_id, saved=sitting.saved_clock, now=now)
    sitting.status = Sitting.Status.ENDED
    sitting.ended_at = now
    if early:
        sitting.ends_at = now
    sitting.save(update_fields=["status", "ended_at", "ends_at"])
    transaction.on_commit(partial(sitting_ended.send, Sitting, sitting=sitting))


@transaction.atomic
def advance(*, now: datetime | None = None, game: Game | None = None) -> int:
    """Start the sittings whose time has come and end those whose time is up; the sittings changed."""
    now = now or timezone.now()
    rows = Sitting.objects.select_for_update(skip_locked=True).filter(
        Q(status=Sitting.Status.SCHEDULED, starts_at__lte=now)
        | Q(status=Sitting.Status.LIVE, ends_at__lte=now)
    )
    if game is not None:
        rows = rows.filter(game=game)
    changed = 0
    for sitting in rows.select_related("game").order_by("starts_at"):
        if sitting.ends_at <= now or sitting.game.is_over:
            _finish(sitting, now=now, early=False)
        else:
            sitting.status = Sitting.Status.LIVE
            present = selectors.present_seats(game=sitting.game, now=now)
            sitting.saved_clock = live.live_begin(game_id=sitting.game_id, present=present, now=now)
            sitting.save(update_fields=["status", "saved_clock"])
            transaction.on_commit(partial(sitting_started.send, Sitting, sitting=sitting))
            transaction.on_commit(partial(publish, "apps.sittings.tasks.send_starting", (sitting.pk,)))
        changed += 1
    return changed


@transaction.atomic
def arrive(*, game: Game, position: int, now: datetime | None = None) -> bool:
    """A player arrives during a live sitting: their seat joins the live play (their bank saved, a
    live bank given). True if the seat joined now."""
    now = now or timezone.now()
    current = selectors.current_sitting(game=game, now=now)
    if current is None or current.status != Sitting.Status.LIVE or current.saved_clock is None:
        return False
    if str(position) in current.saved_clock["banks"]:
        return False  # joined already (checked again under the lock below)
    sitting = Sitting.objects.select_for_update().get(pk=current.pk)
    if sitting.saved_clock is None or str(position) in sitting.saved_clock["banks"]:
        return False
    sitting.saved_clock = live.live_begin(
        game_id=game.pk, present={position}, now=now, saved=sitting.saved_clock
    )
    sitting.save(update_fields=["saved_clock"])
    return True


@transaction.atomic
def end_vote(*, game: Game, user: User, now: datetime | None = None) -> Sitting:
    """The user's seat asks to end the sitting under way; it ends once every present seat has asked."""
    now = now or timezone.now()
    seat = selectors.human_seat_of(game=game, user=user)
    if seat is None:
        raise ServiceError("not_at_table", "only the game's players end a sitting", 403)
    current = selectors.current_sitting(game=game, now=now)
    if current is None:
        raise ServiceError("no_sitting", "no sitting is under way", 409)
    sitting = Sitting.objects.select_for_update().get(pk=current.pk)
    votes = sorted({*sitting.end_votes, seat})
    sitting.end_votes = votes
    sitting.save(update_fields=["end_votes"])
    if set(votes) >= selectors.present_seats(game=game, now=now):
        _finish(sitting, now=now, early=True)
    return sitting
