"""A two-node rehearsal on one machine: what production runs on several, with a web node and a worker
killed in the middle, and then a check of every game.

Started here (``manage.py rehearsal``, ``make rehearsal``), on the PostgreSQL database this process uses
and the Celery broker of ``CELERY_BROKER_URL`` (Redis or RabbitMQ: every node must reach it):

* two web nodes: two gunicorns on two ports, each in a process group of its own;
* two Celery workers serving all three queues (``deadlines``, ``people``, ``background``), and one beat;
* C API clients (threads here), each sending its requests to the two nodes in turn (round-robin, as a
  load balancer would) and sending a request again, to the other node and with the same
  ``Idempotency-Key``, when a connection fails.

Every process gets the same ``SECRET_KEY``, broker, queue prefix (``rehearsal-<run>-``, so nothing else
on the broker is consumed), database, mail settings (the file backend, into one folder) and clock
settings: a sweep every 3 s and short deadlines (``SHORT``, seconds) on the rehearsal's games, so
deadlines fall due while it runs. Each client holds two seats of its games; some games (``--bot-share``,
35%) have a third seat played by the server's bot (its moves run on the workers), and some
(``--walk-away``, 25%) are walked away from after a few moves: their deadlines settle them, and after
two timeouts in a row a seat is handed to the bot, which plays the game on.

At 20% of the run the web nodes lose the broker for ``--broker-outage`` seconds (they reach it through
a gate, ``bench.brokergate``, that is shut meanwhile; the workers and beat do not): the moves they
commit then must bring their mails and webhook events through the outbox and the sweep alone (a share
of the players, ``--webhooks``, has a webhook to a receiver here). At 40% of the run one web node (the
gunicorn master and its workers: the process group) and one worker (with its pool) get SIGKILL; both
are started again ``--down`` seconds later. After the run the clients stop, the games left to their
deadlines play on for ``--play-on`` seconds, every game still in play is paused (so that the bots stop;
``_quiesce``), the workers drain what is due (up to ``--drain``
seconds), every process is stopped, and the checks of ``bench.rehearsal_checks``
run on every game of the run. Prints the figures, then one JSON line (figures and each check's anomaly
count); the exit status is 1 when any check found an anomaly.
Everything the run created (processes, users, games, broker queues, files) is removed, even on failure.

Run it on a database of its own: the beat and workers it starts settle every game of the database,
not only the rehearsal's.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import close_old_connections, connection
from django.test import override_settings
from django.utils import timezone

from apps.games.clock.controls import fixed_per_decision
from apps.games.models import Decision, Game, Move
from baogame.celery import QUEUES

from . import rehearsal_checks as checks
from .apiclient import (
    Balancer,
    Client,
    Stats,
    clean_up,
    free_port,
    make_users,
    new_secret_key,
    percentile,
    site_env,
    start_site,
)
from .brokergate import BrokerGate, HookReceiver

#: Seconds each timing class stays open in the rehearsal's games.
SHORT = {"setup": 6, "turn": 6, "reaction": 3, "ability": 5, "finish": 5, "tribute": 5, "declare": 5}
SWEEP_INTERVAL = 3
#: The clock and recovery settings every process of the rehearsal gets (they must agree across nodes).
CLOCK_SETTINGS = {
    "GAMES_SWEEP_INTERVAL": str(SWEEP_INTERVAL),
    "GAMES_BOT_STALL": "6",
    "NOTIFY_SETTLE_SECONDS": "2",
    # Not shorter: the sweep queues a pending mail's send task again at every pass once it is this late,
    # so under load (a send task waiting behind others) a short value floods the queue with duplicates.
    "NOTIFICATIONS_PENDING_RETRY": "30",
    "NOTIFICATIONS_OUTBOX_RETRY": "10",  # the broker outage's moves: their tasks queued again soon
    "NOTIFICATIONS_CLAIM_TIMEOUT": "30",
    "CELERY_VISIBILITY_TIMEOUT": "15",  # a killed worker's messages come back after 15 s
    "CELERY_UNACKED_RESTORE_INTERVAL": "2",
    "CELERY_UNACKED_RESTORE_THROTTLE": "2",
}
ABSENT_LIMIT = 2
#: How late a deadline may be settled (or a due mail sent) before it counts as left unsettled: a deadline
#: task runs at the deadline, and the sweep catches a lost one within an interval.
GRACE = timedelta(seconds=2 * SWEEP_INTERVAL + 2)


class Process:
    """A process of the site in a process group of its own (so SIGKILL takes its children), its output
    in a log file."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.command, self.env, self.log = name, command, env, log
        self.popen: subprocess.Popen[bytes] | None = None
        self.offset = 0

    def start(self) -> None:
        """Start it (``wait_ready`` waits until it is ready)."""
        self.offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                self.command,
                env=self.env,
                cwd=settings.BASE_DIR,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, ready: str, timeout: float = 120.0) -> None:
        """Wait until ``ready`` appears in what it logged since it started."""
        deadline = time.monotonic() + timeout
        while True:
            with self.log.open("rb") as log:
                log.seek(self.offset)
                if ready.encode() in log.read():
                    return
            if self.popen is None or self.popen.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not start: see {self.log.name}")
            time.sleep(0.3)

    def kill(self) -> None:
        """SIGKILL the whole process group (no graceful shutdown, no acks)."""
        if self.popen is not None and self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(10)

    def terminate(self) -> None:
        """SIGTERM to the main process only: a worker finishes its current tasks (its pool would die at
        once from a signal of its own), gunicorn its requests (``wait`` for it)."""
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()

    def wait(self, timeout: float = 30.0) -> None:
        """Wait for it to end; SIGKILL after ``timeout`` seconds."""
        if self.popen is None:
            return
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()


class WebNode:
    """One gunicorn (a web node) on its own port."""

    def __init__(self, port: int, env: dict[str, str], workers: int, log: Path) -> None:
        self.port, self.env, self.workers, self.log = port, env, workers, log
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.popen = start_site(self.port, self.env, workers=self.workers, new_session=True, log=self.log)

    def kill(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)  # the master and its workers
            self.popen.wait(10)

    def terminate(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()  # the master stops its workers gracefully

    def wait(self, timeout: float = 30.0) -> None:
        if self.popen is None:
            return
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()


@dataclass
class Table:
    """One game a client plays: its id, the moves the client made, when it walks away (None: never)."""

    game_id: int
    moves: int = 0
    walk_away_after: int | None = None


class RehearsalClient(Client):
    """A client holding seats 0 and 1 of its games (and the bot seat 2 of some), playing through the API
    on both web nodes; it waits (polls) while only the bot or nobody can act."""

    def __init__(
        self, *args: Any, games: list[int], bot_share: float, walk_away_share: float, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.games = games  # every game this client created, for the checks
        self.bot_share, self.walk_away_share = bot_share, walk_away_share
        self.walked_away = 0

    def new_table(self) -> Table:
        bots = 1 if self.rng.random() < self.bot_share else 0
        status, game = self.call(
            "POST", "/api/v1/games/", self.tokens[0], {"engine": "baobei", "players": 2 + bots, "bots": bots}
        )
        if status != 201:
            raise RuntimeError(f"create answered {status}: {game}")
        self.games.append(game["id"])
        # Short deadlines (seconds, below what the API offers): set before the second player joins,
        # which starts the game and opens its first decisions with these clocks.
        Game.objects.filter(pk=game["id"]).update(
            control_values=fixed_per_decision(SHORT["turn"], SHORT["reaction"]),
            control="custom",
            absent_limit=ABSENT_LIMIT,
        )
        status, joined = self.call(
            "POST", "/api/v1/games/join/", self.tokens[1], {"invite_token": game["invite_token"]}
        )
        # A join is not idempotent: when the node was killed after the join committed but before it
        # answered, the client's retry is refused (the table is full and the game started). Only this
        # client holds the invitation, so a started game means its first attempt took the seat.
        if status != 200 and not Game.objects.filter(pk=game["id"], status=Game.Status.ACTIVE).exists():
            raise RuntimeError(f"join answered {status}: {joined}")
        self.stats.games += 1
        walk = self.rng.randint(1, 12) if self.rng.random() < self.walk_away_share else None
        return Table(game["id"], walk_away_after=walk)

    def _actor(
        self, table: Table, known: tuple[int, list[dict[str, Any]]] | None
    ) -> tuple[int, list[dict[str, Any]]] | None:
        """A seat of this client that can act now, with its legal actions; None when neither can."""
        if known is not None and known[1]:
            return known
        for seat in self.rng.sample(range(len(self.tokens)), len(self.tokens)):
            actions = self._legal(table.game_id, seat)
            if actions:
                return seat, actions
        return None

    def run(self, until: float) -> None:
        table = self.new_table()
        known: tuple[int, list[dict[str, Any]]] | None = None
        waited_since: float | None = None
        while time.monotonic() < until:
            if table.walk_away_after is not None and table.moves >= table.walk_away_after:
                self.walked_away += 1
                table, known = self.new_table(), None
                continue
            actor = self._actor(table, known)
            known = None
            if actor is None:
                _, detail = self.call("GET", f"/api/v1/games/{table.game_id}/", self.tokens[0])
                if detail["status"] != Game.Status.ACTIVE:
                    table, waited_since = self.new_table(), None
                    continue
                waited_since = waited_since or time.monotonic()
                if time.monotonic() - waited_since > 60:  # the bot never answered: counted, left
                    self.stats.errors += 1
                    table, waited_since = self.new_table(), None
                time.sleep(0.2)  # the bot's turn (or a window still open for it)
                continue
            waited_since = None
            seat, actions = actor
            if self.rate:
                time.sleep(self.rng.expovariate(self.rate))  # a player thinks
            started = time.perf_counter()
            status, answer = self.call(
                "POST",
                f"/api/v1/games/{table.game_id}/actions/?legal=30",
                self.tokens[seat],
                {"action": self.rng.choice(actions)},
                key=secrets.token_hex(8),
            )
            self.stats.move_ms.append((time.perf_counter() - started) * 1000)
            if status in (200, 201):
                table.moves += 1
                self.stats.replayed += status == 200  # a retry found its move applied
                legal = (answer.get("legal") or {}).get("actions")
                known = (seat, legal) if legal else None
                if answer["status"] != Game.Status.ACTIVE:
                    table = self.new_table()
            elif status in (400, 409):
                self.stats.refused += 1  # a window another seat (or a timeout) closed: ask again
            else:
                self.stats.errors += 1
                table = self.new_table()


class DeadlineWatch:
    """Samples the open decisions' deadlines of the run's games every half second (for the checks)."""

    def __init__(self, games: list[int]) -> None:
        self.games = games
        self.deadlines: dict[tuple[int, int, str], datetime] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            while not self.stop.wait(0.5):
                rows = Decision.objects.filter(game_id__in=list(self.games), deadline__isnull=False)
                for game_id, seat, decision_id, deadline in rows.values_list(
                    "game_id", "seat", "decision_id", "deadline"
                ):
                    if deadline is not None:
                        self.deadlines[(game_id, seat, decision_id)] = deadline
        finally:
            connection.close()


class Command(BaseCommand):
    help = (
        "Two web nodes, two workers and beat on this machine; play across both nodes, kill a node and a "
        "worker mid-run, then check every game. Prints one JSON line."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=float, default=60.0)
        parser.add_argument("--clients", type=int, default=16)
        parser.add_argument(
            "--rate",
            type=float,
            default=2.0,
            help="moves per second of each client (random gaps); 0: flat out",
        )
        parser.add_argument("--web-workers", type=int, default=2, help="gunicorn workers per web node")
        parser.add_argument("--worker-concurrency", type=int, default=2, help="pool size per Celery worker")
        parser.add_argument("--down", type=float, default=5.0, help="seconds the killed processes stay down")
        parser.add_argument(
            "--play-on",
            type=float,
            default=10.0,
            help="seconds the games left to their deadlines play on (timeouts, bots) once the clients stop, "
            "before every game in play is paused for the drain",
        )
        parser.add_argument(
            "--drain",
            type=float,
            default=300.0,
            help="most seconds to wait for the workers (the wait ends as soon as they are done)",
        )
        parser.add_argument(
            "--bot-share", type=float, default=0.35, help="share of games with a bot in a third seat"
        )
        parser.add_argument(
            "--walk-away",
            type=float,
            default=0.25,
            help="share of games the clients leave to their deadlines after 1-12 moves",
        )
        parser.add_argument(
            "--broker-outage", type=float, default=5.0, help="seconds the web nodes lose the broker (0: none)"
        )
        parser.add_argument(
            "--webhooks", type=float, default=0.5, help="share of the players with a webhook to the receiver"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--broker", default="", help="Celery broker (default: CELERY_BROKER_URL)")
        parser.add_argument("--logs", default="", help="copy the processes' logs into this folder at the end")

    def handle(self, *args: Any, **opts: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("The rehearsal runs on PostgreSQL: set DATABASE_URL=postgres://…")
        broker = opts["broker"] or settings.CELERY_BROKER_URL
        if not broker.startswith(("redis://", "rediss://", "amqp://", "amqps://")):
            raise CommandError(
                "The rehearsal needs a broker every node shares: set CELERY_BROKER_URL=redis://…"
            )
        self.began = time.monotonic()
        run = secrets.token_hex(3)
        prefix = f"rehearsal-{run}"
        self.stdout.write(
            f"rehearsal {run}: 2 web nodes, 2 workers and beat, {opts['clients']} clients, "
            f"{opts['seconds']:g} s, database {connection.settings_dict['NAME']}"
        )
        tmp = tempfile.TemporaryDirectory(prefix="baogame-rehearsal-")
        root = Path(tmp.name)
        (root / "mail").mkdir()
        # What this process sends lands in the nodes' mailbox, which the checks read: pausing the games
        # (``_quiesce``) settles their overdue decisions here, and the mails that follow are sent here
        # when Celery runs eagerly (under the tests). Elsewhere they would be marked sent and not counted.
        mailbox = override_settings(
            EMAIL_BACKEND="baogame.mailfiles.EmailBackend", EMAIL_FILE_PATH=str(root / "mail")
        )
        mailbox.enable()
        games: list[int] = []
        processes: list[Process | WebNode] = []
        self.gate = BrokerGate(broker)
        self.receiver = HookReceiver()
        try:
            users = make_users(prefix, opts["clients"])
            self._webhooks(prefix, opts["webhooks"])
            self.gate.open()
            webs, workers, beat = self._processes(root, broker, f"{prefix}-", opts)
            processes += [*webs, *workers, beat]
            for celery in [*workers, beat]:
                celery.start()
            for web in webs:
                web.start()
            for worker in workers:
                worker.wait_ready(" ready.")
            self._say("started 2 web nodes, 2 workers and beat")
            result = self._play(users, games, webs, workers, opts)
            time.sleep(opts["play_on"])  # the clients have stopped; deadlines and bots go on
            self.unsettled_at_play_end = self._quiesce(games, prefix)
            result.update(self._drain(games, prefix, opts["drain"]))
            stopped = timezone.now()
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait()
            self._say("stopped every process")
            result.update(self._check(games, prefix, root / "mail", stopped))
            self._say("checked every game")
        finally:
            for process in processes:
                process.kill()
            self.gate.shut()
            self.receiver.close()
            if opts["logs"]:
                Path(opts["logs"]).mkdir(parents=True, exist_ok=True)
                for log in root.glob("*.log"):
                    shutil.copy(log, Path(opts["logs"]) / log.name)
            self._purge(broker, f"{prefix}-")
            deleted = clean_up(prefix)
            mailbox.disable()
            tmp.cleanup()
            self.stdout.write(f"cleaned up: {deleted} rows of games, the run's users, queues and processes")
        self._report(result)

    def _processes(
        self, root: Path, broker: str, queue_prefix: str, opts: dict[str, Any]
    ) -> tuple[list[WebNode], list[Process], Process]:
        """Two web nodes, two workers and a beat, sharing every setting that must agree."""
        shared = {
            **CLOCK_SETTINGS,
            "CELERY_QUEUE_PREFIX": queue_prefix,
            "EMAIL_URL": f"file://{root / 'mail'}",
            "PYTHONUNBUFFERED": "1",
            "WEBHOOKS_ALLOW_PRIVATE": "1",  # the receiver is on 127.0.0.1
            "WEBHOOKS_ALLOW_HTTP": "1",
            "WEBHOOKS_RETRY_SECONDS": "1",
        }
        key = new_secret_key()

        def env(node: str) -> dict[str, str]:
            (root / node).mkdir(exist_ok=True)  # each node's own var folder: nothing in it is shared
            # the web nodes reach the broker through the gate (shut for the outage); the rest directly
            via = self.gate.url if node.startswith("web") else broker
            return site_env(var_dir=root / node, broker=via, secret_key=key, extra=shared)

        webs = [
            WebNode(free_port(), env(f"web{i}"), opts["web_workers"], root / f"web{i}.log") for i in (1, 2)
        ]
        queues = ",".join(f"{queue_prefix}{q}" for q in QUEUES)
        celery = [sys.executable, "-m", "celery", "-A", "baogame"]
        workers = [
            Process(
                f"worker{i}",
                [
                    *celery, "worker", "-Q", queues, "-n", f"{queue_prefix}worker{i}@%h",
                    f"--concurrency={opts['worker_concurrency']}", "--without-gossip", "--without-mingle",
                    "--loglevel=INFO",
                ],
                env(f"worker{i}"),
                root / f"worker{i}.log",
            )
            for i in (1, 2)
        ]  # fmt: skip
        beat = Process(
            "beat",
            [*celery, "beat", "--loglevel=INFO", "--schedule", str(root / "beat" / "celerybeat-schedule")],
            env("beat"),
            root / "beat.log",
        )
        return webs, workers, beat

    def _play(
        self,
        users: list[list[str]],
        games: list[int],
        webs: list[WebNode],
        workers: list[Process],
        opts: dict[str, Any],
    ) -> dict[str, Any]:
        """Run the clients across both nodes; kill node 2 and worker 2 at 40% and restart them."""
        balancer = Balancer([web.port for web in webs])
        stats = [Stats() for _ in users]
        clients = [
            RehearsalClient(
                webs[0].port,
                users[i],
                random.Random(f"{opts['seed']}:{i}"),
                stats[i],
                opts["rate"],
                balancer=balancer,
                retry_for=60.0,
                games=games,
                bot_share=opts["bot_share"],
                walk_away_share=opts["walk_away"],
            )
            for i in range(len(users))
        ]
        failures: list[BaseException] = []
        ended: list[float] = []

        def play(client: RehearsalClient, until: float) -> None:
            try:
                client.run(until)
            except BaseException as exc:  # noqa: BLE001 - reported below
                failures.append(exc)
            finally:
                ended.append(time.monotonic())
                close_old_connections()
                connection.close()

        watch = DeadlineWatch(games)
        watch.thread.start()
        started = time.monotonic()
        until = started + opts["seconds"]
        threads = [threading.Thread(target=play, args=(c, until)) for c in clients]
        for t in threads:
            t.start()
        outage_moves = 0
        try:
            if opts["broker_outage"] > 0:
                time.sleep(max(0.0, started + 0.2 * opts["seconds"] - time.monotonic()))
                outage_from = timezone.now()
                self.gate.shut()
                self._say(f"the web nodes lost the broker for {opts['broker_outage']:g} s")
                time.sleep(opts["broker_outage"])
                self.gate.open()
                outage_moves = Move.objects.filter(
                    game_id__in=list(games), created_at__gte=outage_from, by_timeout=False, by_bot=False
                ).count()
                self._say(f"the broker is back: {outage_moves} moves were committed without it")
            time.sleep(max(0.0, started + 0.4 * opts["seconds"] - time.monotonic()))
            webs[1].kill()
            workers[1].kill()
            killed = time.monotonic()
            self._say("killed web node 2 and worker 2 (SIGKILL)")
            time.sleep(opts["down"])
            workers[1].start()
            webs[1].start()
            balancer.up(webs[1].port)  # it answers: back in the rotation
            workers[1].wait_ready(" ready.")
            back = time.monotonic() - killed
            self._say(f"restarted them: back {back:.1f} s after the kill")
        finally:
            for t in threads:  # even when a restart failed: nothing is cleaned up under a running client
                t.join()
        elapsed = max(ended) - started  # the last client's end (the restart may have taken longer)
        self._say("the clients stopped")
        self.deadlines = watch
        if failures:
            self.stderr.write(f"{len(failures)} clients failed, first: {failures[0]!r}")
        moves = [ms for s in stats for ms in s.move_ms]
        accepted = len(moves) - sum(s.refused + s.errors for s in stats)
        return {
            "clients": len(users),
            "seconds": round(elapsed, 1),
            "client_moves": accepted,
            "moves_per_s": round(accepted / elapsed, 1),
            "p50_ms": round(percentile(moves, 50), 1),
            "p99_ms": round(percentile(moves, 99), 1),
            "kills": 2,
            "restarts": 2,
            "broker_outage_s": opts["broker_outage"],
            "moves_in_broker_outage": outage_moves,
            "down_s": round(back, 1),
            "retries": sum(s.retries for s in stats),
            "replayed": sum(s.replayed for s in stats),
            "refused": sum(s.refused for s in stats),
            "client_errors": sum(s.errors for s in stats) + len(failures),
            "walked_away": sum(c.walked_away for c in clients),
            "load_avg_1m": round(os.getloadavg()[0], 1),  # of the whole machine, at the end of play
        }

    def _run_games(self, games: list[int], prefix: str) -> list[int]:
        """Every game of the run: those its clients made, and any other where its players sit."""
        seated = Game.objects.filter(seats__user__username__startswith=f"{prefix}-")
        return sorted(set(games) | set(seated.values_list("pk", flat=True)))

    def _quiesce(self, games: list[int], prefix: str) -> int:
        """``--play-on`` seconds after the clients stop (the games left to their deadlines go on meanwhile:
        timeouts, then the bots): count the decisions overdue by more than ``GRACE`` at that moment (the
        check ``deadlines_unsettled``: the workers should have settled them), then pause every game
        still in play, as an organiser may (its overdue decisions settled first), so that the bots of
        the games left to their deadlines stop making moves. Left to play on, those bots made webhook
        events faster than the two workers of a loaded machine delivered them, and no drain was long
        enough. What the run made is then drained and checked, the pause notices included."""
        from apps.games.clock.pause import game_pause
        from apps.games.errors import ServiceError

        ids = self._run_games(games, prefix)
        unsettled = checks.deadlines_unsettled(ids, stopped=timezone.now(), grace=GRACE)
        in_play = Game.objects.filter(pk__in=ids, status=Game.Status.ACTIVE).values_list("pk", flat=True)
        pause_log = logging.getLogger("apps.games.clock.pause")  # a line a game: the summary below says it
        level = pause_log.level
        pause_log.setLevel(logging.WARNING)
        paused = 0
        try:
            for game_id in in_play:
                with contextlib.suppress(ServiceError):  # ended meanwhile
                    game_pause(game_id=game_id, by=None, reason="rehearsal: play is over")
                    paused += 1
        finally:
            pause_log.setLevel(level)
        self._say(f"paused the {paused} games in play ({unsettled} decisions overdue when play stopped)")
        return unsettled

    def _drain(self, games: list[int], prefix: str, limit: float) -> dict[str, Any]:
        """Wait (at most ``limit`` seconds) until nothing is overdue by more than ``GRACE``: no decision
        past its deadline, no mail due and unsent, no outbox row or webhook event left. The games are
        paused by then (``_quiesce``), so nothing new is made meanwhile but the pause notices."""
        from apps.notifications.models import Notification

        started = time.monotonic()
        while True:
            now = timezone.now() - GRACE
            overdue = Decision.objects.filter(game_id__in=games, deadline__lte=now).count()
            unsent = Notification.objects.filter(
                user__username__startswith=f"{prefix}-",
                status__in=[Notification.Status.PENDING, Notification.Status.SENDING],
                due_at__lte=now,
            )
            undone = self._outbox_undone(games)
            if not overdue and not unsent.exists() and not undone:
                break
            if time.monotonic() - started > limit:
                mails = dict(Counter(unsent.values_list("status", flat=True)))
                self._say(
                    f"still overdue after {limit:g} s: {overdue} decisions, mails {mails}, "
                    f"{undone} outbox rows and webhook events"
                )
                break
            time.sleep(0.5)
        mails_overdue = unsent.count()
        self.deadlines.stop.set()
        self.deadlines.thread.join(10)
        self._say("drained")
        return {"drain_s": round(time.monotonic() - started, 1), "mails_overdue": mails_overdue}

    def _check(self, games: list[int], prefix: str, mail_dir: Path, stopped: datetime) -> dict[str, Any]:
        """Every check on every game of the run, once every process has stopped."""
        ids = self._run_games(games, prefix)
        replay, discrepancies = checks.replay_anomalies(ids)
        timeouts = checks.timeout_checks(ids, self.deadlines.deadlines)
        mail = checks.notification_checks(prefix, mail_dir)
        effects = checks.outbox_checks(ids, self.receiver.ids, stopped=stopped, grace=GRACE)
        anomalies = {
            "outbox_left": effects.pop("outbox_left"),
            "webhooks_undelivered": effects.pop("webhooks_undelivered"),
            "webhooks_unreceived": effects.pop("webhooks_unreceived"),
            "seq_anomalies": checks.seq_anomalies(ids),
            "replay_anomalies": replay,
            "timeouts_twice": timeouts.pop("timeouts_twice"),
            "timeouts_early": timeouts.pop("timeouts_early"),
            # when play stopped (the games were paused then), and when every process stopped
            "deadlines_unsettled": self.unsettled_at_play_end
            + checks.deadlines_unsettled(ids, stopped=stopped, grace=GRACE),
            "notifications_twice": mail.pop("notifications_twice"),
            "notifications_lost": mail.pop("notifications_lost"),
        }
        for discrepancy in discrepancies[:5]:
            self.stdout.write(f"differs: {json.dumps(discrepancy)}")
        if anomalies["notifications_lost"]:
            for line in checks.notifications_lost_detail(prefix, mail_dir):
                self.stdout.write(f"lost: {line}")
        moves = Move.objects.filter(game_id__in=ids)
        return {
            "games": len(ids),
            "moves": moves.count(),
            "bot_moves": moves.filter(by_bot=True).count(),
            "finished": Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED).count(),
            **timeouts,
            **mail,
            **effects,
            "checks": anomalies,
        }

    def _webhooks(self, prefix: str, share: float) -> None:
        """A webhook to the receiver for ``share`` of the run's players (the first seat of each client)."""
        from django.contrib.auth import get_user_model

        from apps.webhooks.services import endpoint_create

        players = list(get_user_model().objects.filter(username__startswith=f"{prefix}-").order_by("pk"))
        with override_settings(WEBHOOKS_ALLOW_PRIVATE=True, WEBHOOKS_ALLOW_HTTP=True):
            for user in players[: round(len(players) * share)]:
                endpoint_create(user=user, url=self.receiver.url, secret=secrets.token_urlsafe(24))

    def _outbox_undone(self, games: list[int]) -> int:
        """Outbox rows of the run's games not yet fanned out, and webhook events still pending."""
        from apps.notifications.models import MoveMailOutbox
        from apps.webhooks.models import WebhookDelivery

        ids = list(games)
        return (
            MoveMailOutbox.objects.filter(game_id__in=ids).count()
            + WebhookDelivery.objects.filter(game_id__in=ids, status="pending").count()
        )

    def _say(self, what: str) -> None:
        self.stdout.write(f"{time.monotonic() - self.began:6.1f} s  {what}")

    def _report(self, result: dict[str, Any]) -> None:
        anomalies = result["checks"]
        failed = {k: v for k, v in anomalies.items() if v} | (
            {"client_errors": result["client_errors"]} if result["client_errors"] else {}
        )
        result["ok"] = not failed
        self.stdout.write(
            f"{result['client_moves']} client moves in {result['seconds']} s: "
            f"{result['moves_per_s']} moves/s, "
            f"p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, {result['retries']} retried requests; "
            f"{result['games']} games, {result['moves']} moves ({result['timeouts']} timeouts, "
            f"{result['bot_moves']} by bots), {result['mails']} mails"
        )
        summary = "all checks passed" if not failed else f"ANOMALIES: {failed}"
        self.stdout.write(self.style.SUCCESS(summary) if not failed else self.style.ERROR(summary))
        self.stdout.write(json.dumps(result))
        if failed:
            sys.exit(1)

    def _purge(self, broker: str, queue_prefix: str) -> None:
        """Empty the run's queues on the broker (a Redis list that is empty no longer exists), and on
        Redis drop the messages the killed worker held (kombu's ``unacked`` hash), which a worker of
        another site on the same Redis database would otherwise put back into the run's queues."""
        from kombu import Connection

        try:
            with Connection(broker) as conn:
                channel: Any = conn.default_channel
                for queue in QUEUES:
                    channel.queue_purge(f"{queue_prefix}{queue}")
            if broker.startswith(("redis://", "rediss://")):
                import redis

                client = redis.Redis.from_url(broker)
                for tag, raw in client.hscan_iter("unacked"):
                    _, _, routing_key = json.loads(raw)
                    if str(routing_key).startswith(queue_prefix):
                        client.hdel("unacked", tag)
                        client.zrem("unacked_index", tag)
        except Exception as exc:  # noqa: BLE001 - clean-up is best effort; say so
            self.stderr.write(f"could not empty the run's queues: {exc!r}")
