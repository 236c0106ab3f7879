"""Clocks outside a move: settling a game's deadlines, pausing a game, extending a decision, vacation,
the beat sweep.

A stopped decision keeps the time it had left in ``Decision.remaining`` (``deadline`` is null) and
gets ``deadline = now + remaining`` when its clock restarts. A decision's clock runs only while its
game is active and its seat's player is not on vacation. Callers authorise (the leagues app lets an
organiser act); these services check the game's state and refuse (``own_game``) an actor who holds a
seat in the game: nobody pauses, resumes or extends a game they play in.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, connections, transaction
from django.db.models import F
from django.utils import timezone

from apps.accounts.models import Profile, VacationSpell
from baogame.rules.registry import get_engine

from .. import deadlines, heartbeats, people, pipeline, scheduling, signals, store
from ..deadlines import SIMULTANEOUS_TIMINGS
from ..errors import ServiceError
from ..models import Decision, Game, Move, Seat
from ..store import LockedGame, lock_game

log = logging.getLogger(__name__)


# --- settling deadlines ---------------------------------------------------------------------------------


def settle_game(game_id: int) -> int:
    """Settle everything overdue in one game (its deadline task); safe to run twice, concurrently or
    late. Returns the timeouts applied."""
    with transaction.atomic():
        try:
            locked = lock_game(game_id)
        except Game.DoesNotExist:
            return 0
        return pipeline.settle(locked, timezone.now())


def settle_batch(*, now: datetime, after: int = 0, limit: int | None = None) -> tuple[int | None, int]:
    """Claim up to ``limit`` (``GAMES_SETTLE_BATCH``) games with a decision due by ``now`` and an id
    above ``after``, and settle them in one transaction. Returns (the last id claimed, or None when
    there was none; the timeouts applied).

    Games another transaction holds are skipped (``store.claim_due_games``), so several sweeps or
    workers share the due games without waiting for each other; the row lock makes each timeout apply
    once whoever settles. The batch is settled together (``_settle_together``: every game's writes in
    one round trip, the same statement of all games merged into one) inside a savepoint; if anything
    of that fails, the savepoint is rolled back and the batch is settled again game by game, each game
    in a savepoint of its own (``_settle_one_by_one``), so one broken game is rolled back and logged
    and the others commit.
    """
    with signals.move_batch() as batch, transaction.atomic():
        ids = store.claim_due_games(now=now, after=after, limit=limit or settings.GAMES_SETTLE_BATCH)
        if not ids:
            return None, 0
        batch.game_ids = frozenset(ids)
        try:
            with transaction.atomic():
                settled = _settle_together(ids)
        except Exception as exc:  # the savepoint undid the batch: settle its games one by one
            log.warning(
                "settling games %s-%s together failed (%s); settling them one by one",
                ids[0], ids[-1], type(exc).__name__,
            )  # fmt: skip
            settled = _settle_one_by_one(ids)
    return ids[-1], settled


def _settle_together(ids: list[int]) -> int:
    """Settle the locked games in memory, game after game, then write them all at once."""
    games = store.lock_games(ids)
    settled = 0
    for locked in games:
        settled += pipeline.settle(locked, timezone.now(), flush=False)
    store.flush_together(games)
    return settled


def _settle_one_by_one(ids: list[int]) -> int:
    """Settle the games each in a savepoint of its own: one that fails is rolled back and logged."""
    settled = 0
    for locked in store.lock_games(ids):
        try:
            with transaction.atomic():
                settled += pipeline.settle(locked, timezone.now())
        except Exception:  # one broken game must not stop every other game's clock
            log.exception("settling game %s failed", locked.pk)
    return settled


def settle_overdue(*, now: datetime | None = None) -> int:
    """Settle every active game with an overdue decision (the beat sweep); returns the timeouts applied.

    Games are claimed in batches, in id order (``settle_batch``); a game that fails is logged and the
    sweep goes on. On PostgreSQL, outside a transaction, ``GAMES_SETTLE_THREADS`` threads sweep at once
    (``_sweep_in_threads``).
    """
    now = now or timezone.now()
    threads = settings.GAMES_SETTLE_THREADS
    if threads > 1 and connection.vendor == "postgresql" and not connection.in_atomic_block:
        return _sweep_in_threads(now, threads)
    return _sweep(now)


def _sweep(now: datetime) -> int:
    """Claim and settle batch after batch until no due game is left that nobody else holds."""
    settled, after = 0, 0
    while True:
        last, applied = settle_batch(now=now, after=after)
        if last is None:
            return settled
        settled, after = settled + applied, last


def _sweep_in_threads(now: datetime, threads: int) -> int:
    """``threads`` sweeps at once in this process, each on a database connection of its own.

    While one sweep waits for PostgreSQL to run its writes and commit, another computes its own batch
    (psycopg lets other threads run while it waits). That pays only when the database is slow to answer
    (README: on vacuumed local tables three threads settled no faster than one, at about 10% more CPU),
    hence the default of one. The sweeps share the due games as separate
    workers do: each claims what the others have not locked (``store.claim_due_games``), and the row
    lock makes each timeout apply once. The first error of a sweep is raised once all have ended.
    """
    results: list[int] = []
    errors: list[BaseException] = []

    def one_sweep() -> None:
        try:
            results.append(_sweep(now))
        except BaseException as exc:  # noqa: BLE001 - raised below, in the calling thread
            errors.append(exc)
        finally:
            connections.close_all()  # this thread's own connections

    workers = [threading.Thread(target=one_sweep, name=f"settle-{i}") for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        raise errors[0]
    return sum(results)


# --- stopping and restarting clocks ----------------------------------------------------------------------


def _stop_clocks(locked: LockedGame, now: datetime, *, away: set[int] | None = None) -> int:
    """Stop the running clocks of ``game``; returns how many.

    ``away`` None: every clock (a pause). Otherwise the clocks that vacations stop, ``away`` being the
    seats whose player is on vacation (``deadlines.stopped_by_absence``): a setup peek's one clock for
    all its owners, and any other decision of an away seat but a plucking window.
    """
    stopped = 0
    for row in locked.decisions:
        if row.deadline is None:
            continue
        if away is not None and not deadlines.stopped_by_absence(row.timing, row.seat, away):
            continue
        row.remaining, row.deadline = max(row.deadline - now, timedelta(0)), None
        row.save(update_fields=["remaining", "deadline"])
        stopped += 1
    return stopped


def _restart_clocks(locked: LockedGame, now: datetime) -> int:
    """Restart every stopped clock of the game that nothing stops any more; a paused game restarts none.

    A setup peek's clock restarts for all its owners at once, when no seat of the game is away.
    """
    if locked.game.status != Game.Status.ACTIVE:
        return 0
    away = locked.away()
    restarted = 0
    for row in locked.decisions:
        if row.deadline is not None or deadlines.stopped_by_absence(row.timing, row.seat, away):
            continue
        row.deadline, row.remaining = now + (row.remaining or timedelta(0)), None
        row.save(update_fields=["deadline", "remaining"])
        restarted += 1
    return restarted


# --- a whole game -------------------------------------------------------------------------------------


def game_pause(*, game_id: int, by: User | None, reason: str = "") -> Game:
    """Stop every clock of an active game; nothing can be played until ``game_resume``.

    What was already overdue is settled first. ``by`` is recorded in the log; the caller authorises.
    """
    with transaction.atomic():
        locked = lock_game(game_id)
        game = locked.game
        people.refuse_own_game(game=game, user=by)
        now = timezone.now()
        pipeline.settle(locked, now)
        if game.status != Game.Status.ACTIVE:
            raise ServiceError("game_not_active", "only a game in play can be paused", status=409)
        game.status, game.paused_at, game.status_reason = Game.Status.PAUSED, now, reason
        game.save(update_fields=["status", "paused_at", "status_reason"])
        _stop_clocks(locked, now)
        log.info("game %s paused by %s: %s", game.pk, getattr(by, "pk", None), reason)
        transaction.on_commit(partial(signals.game_paused.send, sender=Game, game_id=game.pk))
    return game


def game_resume(*, game_id: int, by: User | None) -> Game:
    """Restart a paused game's clocks with the time each decision had left."""
    with transaction.atomic():
        locked = lock_game(game_id)
        game = locked.game
        people.refuse_own_game(game=game, user=by)
        if game.status != Game.Status.PAUSED:
            raise ServiceError("game_not_paused", "this game is not paused", status=409)
        game.status, game.paused_at, game.status_reason = Game.Status.ACTIVE, None, ""
        game.save(update_fields=["status", "paused_at", "status_reason"])
        _restart_clocks(locked, timezone.now())
        scheduling.queue_game_tasks(locked)
        log.info("game %s resumed by %s", game.pk, getattr(by, "pk", None))
        transaction.on_commit(partial(signals.game_resumed.send, sender=Game, game_id=game.pk))
    return game


def decision_extend(
    *, game_id: int, seat: int | Seat, by: timedelta, actor: User | None = None
) -> list[Decision]:
    """Give ``seat``'s open decision ``by`` more time; returns the decision rows changed.

    A multi-owner decision (a plucking window) has one deadline for all its owners, so every owner's
    clock moves: the countdown others see then never tells who has answered. A stopped clock gets the
    time added to what it has left.
    """
    position = seat.position if isinstance(seat, Seat) else int(seat)
    if by <= timedelta(0):
        raise ServiceError("invalid_extension", "an extension must be positive")
    with transaction.atomic():
        locked = lock_game(game_id)
        game = locked.game
        people.refuse_own_game(game=game, user=actor)
        pipeline.settle(locked, timezone.now())
        ids = list(Decision.objects.filter(game=game, seat=position).values_list("decision_id", flat=True))
        if not ids and _answered_an_open_decision(game, position):
            # Refusing would tell the organiser, who may be playing, that this seat has answered a
            # window still open for others (BB-30.6): extend that decision as for any owner.
            ids = list(
                Decision.objects.filter(game=game, timing__in=SIMULTANEOUS_TIMINGS)
                .values_list("decision_id", flat=True)
                .distinct()
            )
        if not ids:
            raise ServiceError("no_open_decision", f"seat {position} has no open decision", status=409)
        rows = Decision.objects.filter(game=game, decision_id__in=ids)
        rows.filter(deadline__isnull=False).update(deadline=F("deadline") + by)
        for row in rows.filter(deadline__isnull=True):
            row.remaining = (row.remaining or timedelta(0)) + by
            row.save(update_fields=["remaining"])
        locked.reload_decisions()
        scheduling.queue_game_tasks(locked)
        log.info("game %s seat %s extended by %s (%s)", game.pk, position, by, getattr(actor, "pk", None))
        return list(rows)


def _answered_an_open_decision(game: Game, position: int) -> bool:
    """Whether the seat's answer to a simultaneous decision is still unknown to the others: a hidden
    move of that seat since the last public move (the move that closes a decision is public)."""
    return Move.objects.filter(game=game, seat=position, hidden=True, public_seq=game.public_version).exists()


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
            _stop_clocks(locked, now, away=locked.away())
            if locked.game.status == Game.Status.ACTIVE:
                pipeline.auto_pass_windows(locked, get_engine(locked.game.engine).pending(locked.state))
                scheduling.queue_game_tasks(locked)
    return profile


def vacation_end(*, user: User) -> Profile:
    """Come back: the days away are charged to the yearly budget and the user's clocks restart."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        now = timezone.now()
        started = profile.vacation_started_at
        if started is None:
            raise ServiceError("not_on_vacation", "you are not on vacation", status=409)
        if profile.vacation_year == now.year:
            profile.vacation_seconds_used += int((now - started).total_seconds())
        else:  # a vacation across New Year: only this year's part counts against this year's budget
            year_start = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
            profile.vacation_year = now.year
            profile.vacation_seconds_used = int((now - max(started, year_start)).total_seconds())
        profile.vacation_started_at = None
        profile.save(update_fields=["vacation_started_at", "vacation_year", "vacation_seconds_used"])
        VacationSpell.objects.filter(user=user, ended_at=None).update(ended_at=now)
        for game_id in _seated_games(user):
            locked = lock_game(game_id)
            _restart_clocks(locked, now)
            scheduling.queue_game_tasks(locked)
    return profile


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


def sweep(*, now: datetime | None = None) -> int:
    """The beat sweep, every ``GAMES_SWEEP_INTERVAL``: end spent vacations, settle every overdue game,
    queue near deadlines and the bot tasks that were lost, then record its heartbeat (/healthz).

    Returns the number of timeouts applied. Safe to run twice or concurrently with deadline tasks.
    """
    started = timezone.now()
    vacation_end_exhausted(now=now)
    settled = settle_overdue(now=now)
    scheduling.queue_upcoming_deadlines(now=now)  # a task at each deadline of the coming minutes
    scheduling.queue_stalled_bots(now=now)
    heartbeats.record(name=heartbeats.SWEEP, now=started)  # what was overdue when it began is settled
    return settled
