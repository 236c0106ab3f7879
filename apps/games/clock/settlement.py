"""Settling deadlines: a game's (its deadline task), a batch of games, every overdue game (the sweep)."""

from __future__ import annotations

import logging
import threading
from datetime import datetime

from django.conf import settings
from django.db import connection, connections, transaction
from django.utils import timezone

from .. import pipeline, signals, store
from ..models import Game
from ..store import lock_game

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
