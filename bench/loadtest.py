"""Load benchmark: the site under gunicorn on PostgreSQL, C concurrent API clients playing their own games.

Each client is a bot program holding both seats of its own 2-player Bao Bei games through two personal
tokens. It submits a random legal action for the seat that must act (with an ``Idempotency-Key`` and
``?legal=30``, so the reply lists the mover's next legal actions), asks ``/legal`` only when the next
decision is the other seat's, and starts a new game through the API when one ends. No seat is a server
bot, so no bot task runs inside a request.

Two ways to drive the clients:

* ``--rate R`` (the default, R = 160 moves/s in all): each client is paced to R / C moves per second
  with random (exponential) gaps, like independent players or bots that think between moves. This is
  the latency measurement: moves/s achieved at that offered load and the p50/p95/p99 of the move
  requests. Each client plans its moves on its own schedule, and a move that could not start on time
  (the previous one was still waiting) counts in ``late_p99_ms``, so a server that falls behind shows.
* ``--rate 0``: closed loop, every client sends its next request as soon as the last one is answered.
  This measures the saturation throughput; latency is then just clients / throughput (Little's law).

The site runs under gunicorn's default **sync** workers (4 processes): each takes one connection at a
time and answers ``Connection: close``, so the clients reconnect for every request and whichever worker
is idle takes the next one. This is how gunicorn is deployed behind a reverse proxy (the proxy keeps
the clients' keep-alive connections). With keep-alive workers (``--worker-class gthread``) each
connection stays with the worker that accepted it, and with 32 clients one worker was measured holding
15-23 of them while others held 2-4: that worker's queue, not the CPU, then set the latency.

The site runs with production settings (``DEBUG=False``) and a Celery broker of its own in a temporary
folder (the deadline and notification tasks moves enqueue are written there and thrown away; no worker
runs). Everything the run creates is deleted at the end.

Prints moves per second and p50/p95/p99 latency of the move requests, then one JSON line.

**gunicorn's CPU per kind of request.** The workers always run with the CPU-time hooks
(``bench/profiles/gunicorn_cputime.py``), and the run takes the requests that ended in its measured
seconds: ``cpu_ms_per_post`` is the CPU a move POST took inside the worker plus its share of what the
workers and the master spent outside requests in those seconds (accepting and reading connections,
writing answers: shared equally among all the requests answered), ``cpu_ms_per_legal`` the same for a
``/legal`` read. That is how ``../shared/floor/measure`` counts the floor (gunicorn's CPU over its
requests), so the two compare directly: ``--floor '<the floor's JSON line>'`` (``make bench`` passes it)
adds each one's ratio to the floor's CPU per request, and the moves/s as a share of the floor's
requests/s.

``--reads``: the ceiling of this machine for the cheapest request a move needs. The clients play their
warm-up as above (which measures how many ``/legal`` reads a move takes, ``legal_per_move``), then for
the measured seconds only ask ``/legal`` of a game for the seat that must act, the read that goes with
nearly every move (auth, the game's row, the engine's legal actions, JSON). A move is one POST and that
many reads, and a POST does all a read does and more (the lock, the engine's apply, the writes, the
commit), so ``reads_per_s / (1 + legal_per_move)`` is more than the site could play even if a POST cost
no more than a read: the JSON line gives it as ``move_ceiling_per_s``.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from .apiclient import (
    Client,
    Stats,
    client_cpu_seconds,
    database_cpu_seconds,
    free_port,
    make_users,
    new_secret_key,
    percentile,
    server_cpu_seconds,
    site_env,
    start_site,
)
from .apiclient import clean_up as clean_up_run
from .profiles import gunicorn_cputime

#: The kinds of request (``gunicorn_cputime.kind_of``) whose CPU the run reports on their own.
POST_KIND = "POST /api/vN/games/N/actions/"
LEGAL_KIND = "GET /api/vN/games/N/legal/"

#: The shortest warm-up of ``--reads`` (seconds): the games are created, then enough moves played to
#: count the reads a move takes.
READS_WARMUP = 6.0


class Command(BaseCommand):
    help = "Drive C concurrent API clients against the site under gunicorn for S seconds; report moves/s."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--clients", type=int, default=32)
        parser.add_argument("--seconds", type=float, default=20.0)
        parser.add_argument(
            "--rate",
            type=float,
            default=160.0,
            help="moves per second offered by all clients together (paced); 0: closed loop, flat out",
        )
        parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
        parser.add_argument(
            "--worker-class", default="sync", help="gunicorn worker class (sync, or gthread for keep-alive)"
        )
        parser.add_argument("--threads", type=int, default=1, help="threads per gthread worker")
        parser.add_argument("--warmup", type=float, default=2.0, help="seconds of play not measured")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--gunicorn-config", default="", help="an extra gunicorn config file (e.g. hooks that profile)"
        )
        parser.add_argument(
            "--reads",
            action="store_true",
            help="measure only the /legal read a move needs (after a warm-up of moves): the ceiling",
        )
        parser.add_argument(
            "--floor",
            default="",
            help="the JSON line of ../shared/floor/measure, run just before: report the ratios to it",
        )
        parser.add_argument(
            "--broker",
            default="filesystem://",
            help="Celery broker for the site (default: a temporary folder)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("The load test runs on PostgreSQL: set DATABASE_URL=postgres://…")
        clients = opts["clients"]
        run = secrets.token_hex(3)
        self.stdout.write(
            f"loadtest {run}: {clients} clients, {opts['seconds']} s, gunicorn {opts['workers']} "
            f"{opts['worker_class']} workers, database {connection.settings_dict['NAME']}"
        )
        floor = json.loads(opts["floor"]) if opts["floor"] else None
        users = self._make_users(run, clients)
        tmp = tempfile.TemporaryDirectory(prefix="baogame-loadtest-")
        port = free_port()
        hooks = Path(os.environ.get("BAOGAME_PROFILE_DIR") or Path(tmp.name) / "cputime")
        server = self._start_server(port, Path(tmp.name), hooks, opts)
        try:
            result = self._drive(port, users, opts, server.pid)
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            self._clean_up(run)
        try:
            result.update(self._per_kind(result, hooks, floor))
        finally:
            tmp.cleanup()
        offered = f"{opts['rate']:g} moves/s offered" if opts["rate"] else "closed loop"
        if opts["reads"]:
            self._report_reads(result, offered)
            return
        self.stdout.write(
            f"{result['moves']} moves in {result['seconds']:.1f} s ({offered}): "
            f"{result['moves_per_s']:.1f} moves/s; "
            f"move latency p50 {result['p50_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms, "
            f"p99 {result['p99_ms']:.1f} ms; "
            f"/legal p50 {result['legal_p50_ms']:.1f} ms, p99 {result['legal_p99_ms']:.1f} ms "
            f"({result['legal_per_move']:.2f} per move); "
            f"{result['games']} games, {result['refused']} refused, {result['errors']} errors"
        )
        self.stdout.write(
            f"CPU per move while measuring: gunicorn {result['server_cpu_ms_per_move']:.1f} ms, "
            f"PostgreSQL {result['db_cpu_ms_per_move']:.1f} ms, "
            f"clients {result['client_cpu_ms_per_move']:.1f} ms"
            + (f"; moves started late: p99 {result['late_p99_ms']:.1f} ms" if opts["rate"] else "")
        )
        self.stdout.write(
            f"gunicorn CPU per request: move POST {result['cpu_ms_per_post']:.2f} ms, "
            f"/legal {result['cpu_ms_per_legal']:.2f} ms "
            f"(of which {result['cpu_ms_outside_per_request']:.2f} ms outside requests, shared equally)"
        )
        if floor is not None:
            self.stdout.write(
                f"against the floor measured just before ({floor['floor_cpu_ms_per_request']} ms, "
                f"{floor['floor_requests_per_s']} requests/s): POST {result['post_to_floor']:.2f} x, "
                f"/legal {result['legal_to_floor']:.2f} x its CPU per request; moves/s "
                f"{result['moves_to_floor_requests'] * 100:.1f}% of its requests/s"
            )
        self.stdout.write(json.dumps(result))

    def _make_users(self, run: str, clients: int) -> list[list[str]]:
        """Two players (one per seat) and their tokens for every client."""
        return make_users(f"loadtest-{run}", clients)

    def _start_server(
        self, port: int, var_dir: Path, hooks: Path, opts: dict[str, Any]
    ) -> subprocess.Popen[bytes]:
        """gunicorn with the CPU-time hooks writing to ``hooks`` (and any ``--gunicorn-config`` too)."""
        extra = {"BAOGAME_PROFILE_DIR": str(hooks)}
        if opts["gunicorn_config"]:
            extra["BAOGAME_GUNICORN_CONFIG"] = str(Path(opts["gunicorn_config"]).resolve())
        env = site_env(var_dir=var_dir, broker=opts["broker"], secret_key=new_secret_key(), extra=extra)
        try:
            return start_site(
                port,
                env,
                workers=opts["workers"],
                worker_class=opts["worker_class"],
                threads=opts["threads"],
                config=str(Path(gunicorn_cputime.__file__)),
            )
        except RuntimeError as exc:
            raise CommandError(str(exc)) from None

    def _drive(
        self, port: int, users: list[list[str]], opts: dict[str, Any], server_pid: int
    ) -> dict[str, Any]:
        rate = opts["rate"] / len(users) if opts["rate"] > 0 else 0.0
        failures: list[BaseException] = []

        def run_clients(tag: str, until: float, *, reads: bool = False) -> list[Stats]:
            """Every client plays until ``until`` in its own thread; failures are kept for the report."""
            stats = [Stats() for _ in users]

            def play(i: int) -> None:
                rng = random.Random(f"{opts['seed']}:{tag}:{i}")
                try:
                    client = Client(port, users[i], rng, stats[i], rate)
                    client.read_legal(until) if reads else client.run(until)
                except BaseException as exc:  # noqa: BLE001 - reported below
                    failures.append(exc)

            threads = [threading.Thread(target=play, args=(i,)) for i in range(len(users))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return stats

        # --reads takes legal_per_move from the warm-up's moves: give it enough of them.
        warmup = max(opts["warmup"], READS_WARMUP) if opts["reads"] else opts["warmup"]
        warm = run_clients("warm", time.monotonic() + warmup)
        cpu_before = server_cpu_seconds(server_pid), database_cpu_seconds(), client_cpu_seconds()
        started, wall_started = time.monotonic(), time.time()
        stats = run_clients("run", started + opts["seconds"], reads=opts["reads"])
        elapsed, wall_ended = time.monotonic() - started, time.time()
        cpu_after = server_cpu_seconds(server_pid), database_cpu_seconds(), client_cpu_seconds()
        cpu = [after - before for before, after in zip(cpu_before, cpu_after, strict=True)]
        if failures:
            self.stderr.write(f"{len(failures)} clients failed, first: {failures[0]!r}")
        window = {"window": [wall_started, wall_ended], "server_cpu_s": cpu[0]}
        if opts["reads"]:
            return {**self._read_figures(stats, warm, elapsed, cpu, len(failures), opts), **window}
        moves = [ms for s in stats for ms in s.move_ms]
        reads = [ms for s in stats for ms in s.read_ms]
        late = [ms for s in stats for ms in s.late_ms]
        accepted = len(moves) - sum(s.refused + s.errors for s in stats)
        per_move = 1000 / max(accepted, 1)
        return {
            "clients": len(users),
            "rate": opts["rate"],
            "moves": accepted,
            "seconds": round(elapsed, 2),
            "moves_per_s": round(accepted / elapsed, 1),
            "p50_ms": round(percentile(moves, 50), 1),
            "p95_ms": round(percentile(moves, 95), 1),
            "p99_ms": round(percentile(moves, 99), 1),
            "legal_p50_ms": round(percentile(reads, 50), 1),
            "legal_p99_ms": round(percentile(reads, 99), 1),
            "legal_per_move": round(len(reads) / max(len(moves), 1), 2),
            "requests_per_s": round((len(moves) + len(reads)) / elapsed, 1),
            "late_p99_ms": round(percentile(late, 99), 1),
            "server_cpu_ms_per_move": round(cpu[0] * per_move, 2),
            "db_cpu_ms_per_move": round(cpu[1] * per_move, 2),
            "client_cpu_ms_per_move": round(cpu[2] * per_move, 2),
            "games": sum(s.games for s in stats),
            "refused": sum(s.refused for s in stats),
            "errors": sum(s.errors for s in stats) + len(failures),
            "workers": opts["workers"],
            "worker_class": opts["worker_class"],
            "threads": opts["threads"] if opts["worker_class"] == "gthread" else 1,
            **window,
        }

    @staticmethod
    def _per_kind(result: dict[str, Any], hooks: Path, floor: dict[str, Any] | None) -> dict[str, Any]:
        """gunicorn's CPU per move POST and per ``/legal`` read in the measured seconds, each with its
        share of the CPU spent outside requests; with the floor's figures, the ratios to them."""
        start, end = result.pop("window")
        server_cpu = result.pop("server_cpu_s")
        kinds = gunicorn_cputime.in_window(sorted(hooks.glob("cputime-*.json")), start, end)
        requests = sum(count for count, _ in kinds.values())
        inside = sum(seconds for _, seconds in kinds.values())
        outside = max(server_cpu - inside, 0.0) / max(requests, 1)

        def per(kind: str) -> float | None:
            count, seconds = kinds.get(kind, (0, 0.0))
            return round((seconds / count + outside) * 1000, 3) if count else None

        figures: dict[str, Any] = {
            "cpu_ms_per_post": per(POST_KIND),
            "cpu_ms_per_legal": per(LEGAL_KIND),
            "cpu_ms_outside_per_request": round(outside * 1000, 3),
        }
        if floor is not None:
            base = float(floor["floor_cpu_ms_per_request"])
            figures["floor_cpu_ms_per_request"] = base
            figures["floor_requests_per_s"] = float(floor["floor_requests_per_s"])
            figures["post_to_floor"] = round((figures["cpu_ms_per_post"] or 0.0) / base, 2)
            figures["legal_to_floor"] = round((figures["cpu_ms_per_legal"] or 0.0) / base, 2)
            rate = result.get("moves_per_s", result.get("reads_per_s", 0.0))
            figures["moves_to_floor_requests"] = round(rate / float(floor["floor_requests_per_s"]), 3)
        return figures

    def _read_figures(
        self,
        stats: list[Stats],
        warm: list[Stats],
        elapsed: float,
        cpu: list[float],
        failed: int,
        opts: dict[str, Any],
    ) -> dict[str, Any]:
        """The ``--reads`` run's figures; ``legal_per_move`` comes from the warm-up's moves."""
        reads = [ms for s in stats for ms in s.read_ms]
        answered = len(reads) - sum(s.errors for s in stats)
        per_read = 1000 / max(answered, 1)
        warm_moves = sum(len(s.move_ms) for s in warm)
        legal_per_move = sum(len(s.read_ms) for s in warm) / max(warm_moves, 1)
        reads_per_s = answered / elapsed
        return {
            "mode": "reads",
            "clients": len(stats),
            "rate": opts["rate"],
            "reads": answered,
            "seconds": round(elapsed, 2),
            "reads_per_s": round(reads_per_s, 1),
            "p50_ms": round(percentile(reads, 50), 1),
            "p99_ms": round(percentile(reads, 99), 1),
            "legal_per_move": round(legal_per_move, 2),
            "warmup_moves": warm_moves,
            "move_ceiling_per_s": round(reads_per_s / (1 + legal_per_move), 1) if warm_moves else None,
            "server_cpu_ms_per_read": round(cpu[0] * per_read, 2),
            "db_cpu_ms_per_read": round(cpu[1] * per_read, 2),
            "client_cpu_ms_per_read": round(cpu[2] * per_read, 2),
            "errors": sum(s.errors for s in stats) + failed,
            "workers": opts["workers"],
            "worker_class": opts["worker_class"],
        }

    def _report_reads(self, result: dict[str, Any], offered: str) -> None:
        self.stdout.write(
            f"{result['reads']} /legal reads in {result['seconds']:.1f} s ({offered}): "
            f"{result['reads_per_s']:.1f} reads/s; p50 {result['p50_ms']:.1f} ms, "
            f"p99 {result['p99_ms']:.1f} ms; {result['errors']} errors"
        )
        self.stdout.write(
            f"CPU per read: gunicorn {result['server_cpu_ms_per_read']:.2f} ms, "
            f"PostgreSQL {result['db_cpu_ms_per_read']:.2f} ms, "
            f"clients {result['client_cpu_ms_per_read']:.2f} ms"
        )
        self.stdout.write(
            "gunicorn CPU per /legal read, its share outside requests included: "
            f"{result['cpu_ms_per_legal']} ms"
        )
        if result["move_ceiling_per_s"] is not None:
            self.stdout.write(
                f"a move is 1 POST + {result['legal_per_move']:.2f} reads (warm-up, "
                f"{result['warmup_moves']} moves): if a POST cost no more than a read, at most "
                f"{result['move_ceiling_per_s']:.1f} moves/s"
            )
        self.stdout.write(json.dumps(result))

    def _clean_up(self, run: str) -> None:
        """Delete the run's users and every game they sat in (moves, seats and decisions go with them)."""
        games = clean_up_run(f"loadtest-{run}")
        self.stdout.write(f"cleaned up: {games} rows of games, the run's users and tokens")
