"""Benchmark deadline settlement: N games with an overdue decision each, settled by the beat sweep.

    python manage.py bench_deadlines --games 10000 [--engine baobei] [--players 2] [--processes N]
        [--threads T] [--keep]

Uses the database ``DATABASE_URL`` names. Games are real (``engine.setup`` with each game's own seed,
real Seat and Decision rows) and every timeout goes through the real pipeline
(``clock.sweep`` → ``clock.settle_overdue`` → batches of ``GAMES_SETTLE_BATCH`` games, each game settled
in memory by ``pipeline.settle`` → ``pipeline.apply`` and the batch's writes sent together by
``store.flush_together``), signals and follow-up task publishing included. With ``--processes N``
the N processes settle the same due games at once, as N workers' sweeps would: each claims the games
the others have not locked. Each process sweeps in ``GAMES_SETTLE_THREADS`` threads (``--threads``),
as a worker's sweep does. Before settling, the tables are vacuumed and analysed (``_vacuum``). The
database CPU is the whole PostgreSQL server's, every backend included.
Afterwards it checks that every overdue decision got exactly one timeout move (per game and seat)
and fails otherwise.
The follow-up tasks (next deadlines, notifications) are published to Celery's in-process
``memory://`` broker and dropped at exit, so no worker ever picks up a benchmark game. The games are
titled ``bench_deadlines:<run id>`` and are deleted at the end, even on failure
(``--keep`` keeps them). Prints the rate, then one JSON line.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import connections, transaction
from django.utils import timezone

from apps.games import clock
from apps.games.clock.controls import NAMED_CONTROLS
from apps.games.models import Decision, Game, Move, Seat, new_seed
from baogame.rules.registry import get_engine

MARKER = "bench_deadlines:"
BATCH = 1000


class Command(BaseCommand):
    help = "Create N games with an overdue decision each, settle them, print decisions settled per second."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=2000)
        parser.add_argument("--engine", default="baobei")
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument(
            "--processes",
            type=int,
            default=os.cpu_count() or 1,
            help="settle in this many processes, like that many Celery workers (1: the beat sweep itself)",
        )
        parser.add_argument(
            "--threads",
            type=int,
            default=None,
            help="sweeps each process runs at once in threads (default: GAMES_SETTLE_THREADS)",
        )
        parser.add_argument("--keep", action="store_true", help="keep the benchmark games afterwards")

    def handle(self, *args: Any, **options: Any) -> None:
        run = f"{MARKER}{uuid.uuid4().hex[:8]}"
        if options["threads"] is not None:
            settings.GAMES_SETTLE_THREADS = options["threads"]
        try:
            created, due = self._create(run, options["engine"], options["players"], options["games"])
            _vacuum()
            with _memory_broker():
                started = time.perf_counter()
                decisions, cpu, db_cpu = _settle(options["processes"])
                seconds = time.perf_counter() - started
            timeouts = _check_exactly_once(run, due, decisions)
        finally:
            if not options["keep"]:
                self._delete(run)
        rate = decisions / seconds if seconds else 0.0
        per_decision = 1000 / decisions if decisions else 0.0
        self.stdout.write(f"{decisions} decisions settled in {seconds:.2f} s: {rate:.0f} decisions/s")
        self.stdout.write(
            json.dumps(
                {
                    "games": created,
                    "engine": options["engine"],
                    "decisions": decisions,
                    "seconds": round(seconds, 3),
                    "decisions_per_s": round(rate, 1),
                    "processes": options["processes"],
                    "threads": settings.GAMES_SETTLE_THREADS,
                    "batch": settings.GAMES_SETTLE_BATCH,
                    "timeouts": timeouts,
                    "exactly_once": True,  # checked per game and seat: else it raised above
                    "cpu_ms_per_decision": round(cpu * per_decision, 3),
                    "db_cpu_ms_per_decision": None if db_cpu is None else round(db_cpu * per_decision, 3),
                }
            )
        )

    def _create(self, run: str, engine_name: str, players: int, games: int) -> tuple[int, Counter[Any]]:
        """Bulk-create started games whose open decisions are all overdue; returns how many, and the
        overdue decisions as a count per (game id, seat)."""
        engine = get_engine(engine_name)
        options = engine.default_options(players)
        control_values = NAMED_CONTROLS["daily"].values()
        past = timezone.now() - timedelta(minutes=1)
        created = 0
        due: Counter[Any] = Counter()
        while created < games:
            size = min(BATCH, games - created)
            with transaction.atomic():
                rows = []
                states: list[dict[str, Any]] = []
                for _ in range(size):
                    game = Game(
                        engine=engine_name,
                        title=run,
                        players=players,
                        options=options,
                        seed=new_seed(),
                        status=Game.Status.ACTIVE,
                        control="daily",
                        control_values=control_values,
                        started_at=past,
                    )
                    game.state = engine.setup(players, options, game.seed)
                    game.seed_hash = _sha(game.seed)
                    rows.append(game)
                    states.append(game.state)
                Game.objects.bulk_create(rows)
                Seat.objects.bulk_create(
                    Seat(game=g, position=p, joined_at=past) for g in rows for p in range(players)
                )
                Decision.objects.bulk_create(
                    Decision(
                        game=g,
                        seat=seat,
                        decision_id=str(d["decision_id"]),
                        kind=d["kind"],
                        timing=d.get("timing", "turn"),
                        opened_at=past,
                        deadline=past,
                    )
                    for g, state in zip(rows, states, strict=True)
                    for d in engine.pending(state)
                    for seat in d["seats"]
                )
            created += size
            due.update((d.game_id, d.seat) for d in Decision.objects.filter(game__in=rows))
        return created, due

    def _delete(self, run: str) -> None:
        """Delete the run's games: the big tables directly, then the games with Django's cascade."""
        ids = Game.objects.filter(title=run).values_list("pk", flat=True)
        for model in (Move, Decision, Seat):
            model.objects.filter(game_id__in=ids)._raw_delete(model.objects.db)
        Game.objects.filter(title=run).delete()


Settled = tuple[int, float, float | None]


def _settle(processes: int) -> Settled:
    """Settle every overdue game: the beat sweep itself, or ``processes`` sweeps at once. Returns the
    timeouts applied, the CPU seconds the settling processes used, and those of the database server
    (None when the server does not run on this host)."""
    if processes <= 1:
        return _measured(clock.sweep)
    now = timezone.now()
    server = _postmaster_pid()
    connections.close_all()  # children must not share the parent's database connection
    db_cpu = _server_cpu(server)
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        results = pool.map(_settle_overdue, [now] * processes)
    after = _server_cpu(server)
    return (
        sum(r[0] for r in results),
        sum(r[1] for r in results),
        None if db_cpu is None or after is None else after - db_cpu,
    )


def _settle_overdue(now: datetime) -> tuple[int, float]:
    """One process: ``clock.settle_overdue``, claiming the games no other process has locked. Returns
    the timeouts applied and this process's CPU seconds."""
    connections.close_all()
    try:
        cpu = time.process_time()
        return clock.settle_overdue(now=now), time.process_time() - cpu
    finally:
        connections.close_all()


def _vacuum() -> None:
    """On PostgreSQL, VACUUM ANALYZE the tables the settling reads and writes, so that every run starts
    alike: without it the dead rows of earlier runs' deleted games and stale statistics slow the claim,
    and a run's figure depends on how many ran before it and when autovacuum last passed. Not inside a
    transaction (a test's), where PostgreSQL refuses VACUUM."""
    connection = connections["default"]
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return
    tables = [model._meta.db_table for model in (Game, Seat, Decision, Move)]
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {', '.join(connection.ops.quote_name(t) for t in tables)}")


def _postmaster_pid() -> str | None:
    """The PostgreSQL server's main process (the parent of this connection's backend), found before the
    connection closes; None on another database or when the server does not run on this host."""
    connection = connections["default"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()" if connection.vendor == "postgresql" else "SELECT 0")
        backend = int(cursor.fetchone()[0])
    fields = _stat(backend) if backend else None
    return None if fields is None else fields[1]


def _measured(settle: Callable[[], int]) -> Settled:
    """Run ``settle`` and measure the CPU time of this process (all its threads) and of the database
    server (every PostgreSQL process, ``_server_cpu``: a sweep in threads has a backend per thread)."""
    server = _postmaster_pid()
    cpu, db_cpu = time.process_time(), _server_cpu(server)
    settled = settle()
    after = _server_cpu(server)
    return settled, time.process_time() - cpu, None if db_cpu is None or after is None else after - db_cpu


def _stat(pid: int | str) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state, ppid, ...); None if unreadable."""
    try:
        with open(f"/proc/{pid}/stat") as stat:  # noqa: PTH123
            return stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _server_cpu(postmaster: str | None) -> float | None:
    """CPU seconds (user + system) the PostgreSQL server has used so far: its ``postmaster`` and every
    live child, plus the children it has reaped (backends that closed count too). None when the server
    does not run on this host."""
    own = _stat(postmaster) if postmaster else None
    if own is None:
        return None
    ticks = sum(int(own[i]) for i in (11, 12, 13, 14))  # utime, stime, cutime, cstime
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            child = _stat(entry)
            if child is not None and child[1] == postmaster:
                ticks += int(child[11]) + int(child[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _check_exactly_once(run: str, due: Counter[Any], decisions: int) -> int:
    """Raise unless every overdue decision got exactly one timeout move (per game and seat) and the
    settling reported as many; returns the timeout moves."""
    moves = Counter(Move.objects.filter(game__title=run, by_timeout=True).values_list("game_id", "seat"))
    timeouts = sum(moves.values())
    if moves != due or timeouts != decisions:
        wrong = sorted(k for k in due.keys() | moves.keys() if due[k] != moves[k])
        raise RuntimeError(
            f"settled {decisions}; {timeouts} timeout moves for {sum(due.values())} overdue decisions; "
            f"(game, seat) pairs not timed out exactly once: {len(wrong)}, e.g. {wrong[:5]}"
        )
    return timeouts


@contextmanager
def _memory_broker() -> Iterator[None]:
    """Publish Celery tasks to the in-process memory broker (never to the real one) meanwhile."""
    from baogame.celery import app

    saved = {key: app.conf.get(key) for key in ("broker_url", "task_always_eager")}

    def reset_pool() -> None:
        # Private attributes, not in celery-types: the pools hold connections to the old broker.
        if app._pool is not None:  # type: ignore[attr-defined]
            app._pool.force_close_all()  # type: ignore[attr-defined]
            app._pool = None  # type: ignore[attr-defined]
        app.amqp._producer_pool = None  # type: ignore[attr-defined]

    reset_pool()
    app.conf.update(broker_url="memory://", task_always_eager=False)
    try:
        yield
    finally:
        reset_pool()
        app.conf.update(saved)


def _sha(seed: str) -> str:
    import hashlib

    return hashlib.sha256(seed.encode("utf-8")).hexdigest()
