"""A sitting's life: it starts at its time, ends at its time or early when everyone present agrees.

``advance`` moves every sitting whose time has come (the beat every minute, and each panel poll for its
own game, so the table never waits for the beat). Starting and ending tell the higher apps and the
game's clock through ``sitting_started`` / ``sitting_ended`` (sent after commit).

Absence: the players at the table when a sitting starts play on the live control; one who comes later
joins the moment their page asks the server (``arrive``). A player not there ``ABSENCE_GRACE`` after the
start is absent: their seat goes on as in correspondence (their standing orders, then their own bank at
the correspondence rate), and nobody waits for them beyond that bank. A player who gave the standing
order "if I miss a sitting, the bot plays my seat until I arrive" (``Seat.sitting_bot``) has their seat
played by the bot from then on, shown to the table like any take-over, and handed back the moment they
arrive or the sitting ends (``Sitting.stand_ins``). Missing a sitting costs nothing else: no timeout is
counted, no other bank changes.

Leaving: a player who was at the table and goes (closes the page) keeps their live bank while it lasts;
if it runs out while their page is closed, their seat is not timed out but goes the absent player's way
from that moment (``apps.games.clock.leaving``): it is back on its own bank from the live deadline (the
bank it had when it joined), the live timeout counts towards nothing, they are mailed their turn as in
correspondence, and the "bot plays my seat" order applies at the next ``advance``. Their page's next
request (``arrive``) brings them back into the live play. A player still at the table whose live bank
runs out times out as in any live game. Who plays live is the game's copy (``Game.live_clock``).

A game that ends closes its sittings (``game_over``, queued when the end commits, and ``advance`` for
any it missed): those still to come are cancelled, and the calendar entries their invitation made are
cancelled too (``reminders``); the one under way ends.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.games import lifecycle as game_lifecycle
from apps.games import selectors as game_selectors
from apps.games.clock import live
from apps.games.errors import ServiceError
from apps.games.models import Game
from baogame.celery import publish

from . import selectors
from .models import Sitting
from .signals import sitting_ended, sitting_started

#: How long after a sitting's start a player who has not arrived counts as absent (two polls of a page
#: opened a little late, and a minute to spare; short enough that nobody waits long).
ABSENCE_GRACE = timedelta(minutes=2)


def _hand_back(sitting: Sitting, positions: list[int]) -> None:
    for position in positions:
        game_lifecycle.seat_stand_in(game_id=sitting.game_id, position=position, on=False)
    sitting.stand_ins = [p for p in sitting.stand_ins if p not in positions]


def _live_seats(game: Game) -> set[int]:
    """The seats playing live, from the game row as read (``sitting.game``, read with the sitting)."""
    return {int(p) for p in (game.live_clock or {}).get("banks", {})}


def _stand_in_absent(sitting: Sitting, *, now: datetime) -> bool:
    """After the grace period, the bot plays the absent seats whose player asked for it (those who never
    came, and those who left: ``apps.games.clock.leaving``); True if any."""
    if sitting.saved_clock is None or sitting.starts_at + ABSENCE_GRACE > now:
        return False
    joined = _live_seats(sitting.game) | set(sitting.stand_ins)
    present = selectors.present_seats(game=sitting.game, now=now)
    humans = selectors.human_seats(sitting.game)
    added = [
        position
        for position in game_selectors.seats_asking_sitting_bot(sitting.game_id)
        if position in humans
        and position not in joined | present
        and game_lifecycle.seat_stand_in(game_id=sitting.game_id, position=position, on=True)
    ]
    sitting.stand_ins = sorted({*sitting.stand_ins, *added})
    return bool(added)


def _finish(sitting: Sitting, *, now: datetime, early: bool) -> None:
    _hand_back(sitting, list(sitting.stand_ins))
    if sitting.saved_clock is not None:
        live.live_end(game_id=sitting.game_id, saved=sitting.saved_clock, now=now)
    sitting.status = Sitting.Status.ENDED
    sitting.ended_at = now
    if early:
        sitting.ends_at, sitting.ended_early = now, True
    sitting.save(update_fields=["status", "ended_at", "ends_at", "ended_early", "stand_ins"])
    transaction.on_commit(partial(sitting_ended.send, Sitting, sitting=sitting))
    if early:  # the calendar entry the invitation added still shows the old end: send its update
        # (the reminders' sweep sends it if this task is lost: ``reminders.calendar_changes_send_due``)
        transaction.on_commit(partial(publish, "apps.sittings.tasks.send_calendar_updates", (sitting.pk,)))


def _cancel(sittings: list[Sitting], *, now: datetime) -> None:
    """Sittings that will never take place (their game ended first): cancelled, and the calendar entries
    their invitations made cancelled after commit (or by the reminders' sweep if that task is lost)."""
    for sitting in sittings:
        sitting.status, sitting.ended_at = Sitting.Status.CANCELLED, now
        sitting.save(update_fields=["status", "ended_at"])
    if sittings:
        ids = [s.pk for s in sittings]
        transaction.on_commit(partial(publish, "apps.sittings.tasks.send_calendar_cancellations", (ids,)))


#: The games whose sittings are closed: over, finished or aborted.
_OVER = [Game.Status.FINISHED, Game.Status.ABORTED]


def advance(*, now: datetime | None = None, game: Game | None = None) -> int:
    """Start the sittings whose time has come, end those whose time is up, and close those of games that
    ended (cancelled if still to come); the sittings changed."""
    return _advance(now=now or timezone.now(), game_id=None if game is None else game.pk)


def game_over(*, game_id: int, now: datetime | None = None) -> int:
    """The game ended: its sittings still to come are cancelled and the one under way ends (``advance``
    for one game, queued when the end commits); the sittings changed."""
    return _advance(now=now or timezone.now(), game_id=game_id)


@transaction.atomic
def _advance(*, now: datetime, game_id: int | None) -> int:
    rows = Sitting.objects.select_for_update(skip_locked=True).filter(
        Q(status=Sitting.Status.SCHEDULED, starts_at__lte=now)
        | Q(status=Sitting.Status.LIVE, ends_at__lte=now)
        | Q(status__in=[Sitting.Status.SCHEDULED, Sitting.Status.LIVE], game__status__in=_OVER)
    )
    if game_id is not None:
        rows = rows.filter(game_id=game_id)
    changed = 0
    cancelled = []
    for sitting in rows.select_related("game").order_by("starts_at"):
        changed += 1
        if sitting.status == Sitting.Status.SCHEDULED and sitting.game.is_over:
            cancelled.append(sitting)
        elif sitting.ends_at <= now or sitting.game.is_over:
            _finish(sitting, now=now, early=False)
        else:
            sitting.status = Sitting.Status.LIVE
            present = selectors.present_seats(game=sitting.game, now=now)
            sitting.saved_clock = live.live_begin(game_id=sitting.game_id, present=present, now=now)
            sitting.save(update_fields=["status", "saved_clock"])
            transaction.on_commit(partial(sitting_started.send, Sitting, sitting=sitting))
            transaction.on_commit(partial(publish, "apps.sittings.tasks.send_starting", (sitting.pk,)))
    _cancel(cancelled, now=now)
    return changed + _absences(now=now, game_id=game_id)


def _absences(*, now: datetime, game_id: int | None) -> int:
    """Sittings under way past their grace period in which the bot took an absent seat now."""
    rows = Sitting.objects.select_for_update(skip_locked=True).filter(
        status=Sitting.Status.LIVE, starts_at__lte=now - ABSENCE_GRACE, ends_at__gt=now
    )
    if game_id is not None:
        rows = rows.filter(game_id=game_id)
    changed = 0
    for sitting in rows.select_related("game").order_by("starts_at"):
        if _stand_in_absent(sitting, now=now):
            sitting.save(update_fields=["stand_ins"])
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
    if position in game_selectors.seats_playing_live(game.pk):
        return False  # joined already (checked again under the lock below)
    sitting = Sitting.objects.select_for_update().get(pk=current.pk)
    if sitting.status != Sitting.Status.LIVE or sitting.saved_clock is None:
        return False
    if position in game_selectors.seats_playing_live(game.pk):
        return False
    if position in sitting.stand_ins:  # the bot played the seat while its player was away: handed back
        _hand_back(sitting, [position])
    sitting.saved_clock = live.live_begin(
        game_id=game.pk, present={position}, now=now, saved=sitting.saved_clock
    )
    sitting.save(update_fields=["saved_clock", "stand_ins"])
    return str(position) in (sitting.saved_clock or {}).get("banks", {})


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
