"""Benchmark the hot reads and writes of a move on both paths of ``GAMES_HAND_SQL``, piece by piece.

    python manage.py bench_store [--calls 200] [--rounds 5]

The load test and ``bench_deadlines`` flip every piece at once; this says what each piece costs. On
one started two-player Bao Bei game (with its people and an API token) it times, in this process:

* ``lock``: ``store.lock_game`` with an Idempotency-Key (game row lock, seats with people, decisions);
* ``read``: ``store.game_row`` as ``/legal`` asks it (overdue check, the user's seat);
* ``writes``: a move's writes (move INSERT, game UPDATE, a decision row rewritten, one inserted),
  rolled back;
* ``token``: the API token lookup with its user.

Each round runs ``--calls`` calls of a piece on the hand path, then on the ORM path (in turns, to pair
them under the same machine load), and the figures are the medians over rounds of µs per call (wall
clock, round trips to the database included, and this process's CPU time alone), and of the pairwise
wall-clock ratio ORM / hand. Uses the database ``DATABASE_URL`` names, deletes what it creates, and
prints one JSON line at the end.
"""

from __future__ import annotations

import json
import statistics
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from apps.api.authentication import token_by_digest
from apps.api.models import token_digest
from apps.api.services import token_create
from apps.games import store
from apps.games.clock.controls import NAMED_CONTROLS
from apps.games.models import Decision, Game, Move, Seat, new_seed
from baogame.rules.registry import get_engine

MARKER = "bench_store:"
PIECES = ("lock", "read", "writes", "token")


class Command(BaseCommand):
    help = "Time the hot reads and writes of a move with GAMES_HAND_SQL on and off, piece by piece."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--calls", type=int, default=200, help="calls of a piece per path and round")
        parser.add_argument("--rounds", type=int, default=5)

    def handle(self, *args: Any, **options: Any) -> None:
        run = f"{MARKER}{uuid.uuid4().hex[:8]}"
        user_model = get_user_model()
        users = [user_model.objects.create(username=f"{run}-{seat}") for seat in range(2)]
        try:
            game = _started_game(run, users)
            digest = token_digest(token_create(user=users[0], name=run)[1])
            calls: dict[str, Callable[[], Seconds]] = {
                "lock": lambda: _timed_atomic(lambda: store.lock_game(game.pk, move_key="k")),
                "read": lambda: _timed(
                    lambda: store.game_row(game.pk, overdue_at=timezone.now(), seat_of_user=users[0].pk)
                ),
                "writes": lambda: _timed_writes(game.pk),
                "token": lambda: _timed(lambda: token_by_digest(digest)),
            }
            with override_settings(DEBUG=False):  # no query log (the hand path's batches bypass it)
                figures = {p: _measure(calls[p], options["calls"], options["rounds"]) for p in PIECES}
        finally:
            Game.objects.filter(title=run).delete()
            user_model.objects.filter(username__startswith=run).delete()
        for piece, found in figures.items():
            self.stdout.write(
                f"{piece:7} hand {found['hand_us']:7.0f} µs (CPU {found['hand_cpu_us']:5.0f})   "
                f"orm {found['orm_us']:7.0f} µs (CPU {found['orm_cpu_us']:5.0f})   "
                f"orm/hand {found['ratio']:.2f} (rounds {found['ratio_min']:.2f}–{found['ratio_max']:.2f})"
            )
        self.stdout.write(json.dumps({"calls": options["calls"], "rounds": options["rounds"], **figures}))


def _started_game(run: str, users: list[Any]) -> Game:
    """A started two-player Bao Bei game with both seats taken and its open decisions."""
    engine = get_engine("baobei")
    now = timezone.now()
    game = Game(
        engine="baobei", title=run, players=2, options=engine.default_options(2), seed=new_seed(),
        status=Game.Status.ACTIVE, control="daily", control_values=NAMED_CONTROLS["daily"].values(),
        started_at=now,
    )  # fmt: skip
    game.state = engine.setup(2, game.options, game.seed)
    game.save()
    for position, user in enumerate(users):
        Seat.objects.create(game=game, position=position, user=user, joined_at=now)
    for index, pending in enumerate(engine.pending(game.state)):
        for seat in pending["seats"]:
            Decision.objects.create(
                game=game, seat=seat, decision_id=str(pending.get("decision_id") or index),
                kind=pending["kind"], timing=pending.get("timing", "turn"), opened_at=now,
                deadline=now + timedelta(days=1),
            )  # fmt: skip
    return game


Seconds = tuple[float, float]  #: (wall, this process's CPU)


def _timed(call: Callable[[], object]) -> Seconds:
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def _timed_atomic(call: Callable[[], object]) -> Seconds:
    with transaction.atomic():
        return _timed(call)


def _timed_writes(game_id: int) -> Seconds:
    """The writes of one move, timed from their making to their flush, then rolled back."""
    with transaction.atomic():
        locked = store.lock_game(game_id)
        game, now = locked.game, timezone.now()
        wall, cpu = time.perf_counter(), time.process_time()
        game.version += 1
        move = Move(game=game, seq=game.version, seat=0, action={"type": "bench"}, events=[])
        locked.writes.append(store.insert_move(move))
        locked.writes.append(store.update_game(game, ["state", "version", "public_version"]))
        fresh = [
            Decision(game=game, seat=seat, decision_id=f"b{seat}", kind="turn", timing="turn", opened_at=now)
            for seat in (0, 1)
        ]
        locked.writes.append(store.reuse_decision_row(locked.decisions[0].pk, fresh[0]))
        locked.writes += store.insert_decisions(fresh[1:])
        locked.flush()
        seconds = time.perf_counter() - wall, time.process_time() - cpu
        transaction.set_rollback(True)
    return seconds


def _measure(call: Callable[[], Seconds], calls: int, rounds: int) -> dict[str, float]:
    """Medians over rounds of µs per call on each path (wall clock and this process's CPU), and the
    median, least and greatest pairwise ORM/hand ratio of the wall clock."""
    wall: dict[bool, list[float]] = {True: [], False: []}
    cpu: dict[bool, list[float]] = {True: [], False: []}
    for hand in (True, False):  # warm up both paths (compiled SELECTs, connection)
        with override_settings(GAMES_HAND_SQL=hand):
            call()
    for index in range(rounds):
        order = (True, False) if index % 2 == 0 else (False, True)
        for hand in order:
            with override_settings(GAMES_HAND_SQL=hand):
                times = [call() for _ in range(calls)]
            wall[hand].append(sum(t[0] for t in times) / calls * 1e6)
            cpu[hand].append(sum(t[1] for t in times) / calls * 1e6)
    ratios = [orm / hand for hand, orm in zip(wall[True], wall[False], strict=True)]
    return {
        "hand_us": round(statistics.median(wall[True]), 1),
        "orm_us": round(statistics.median(wall[False]), 1),
        "hand_cpu_us": round(statistics.median(cpu[True]), 1),
        "orm_cpu_us": round(statistics.median(cpu[False]), 1),
        "ratio": round(statistics.median(ratios), 3),
        "ratio_min": round(min(ratios), 3),
        "ratio_max": round(max(ratios), 3),
    }
