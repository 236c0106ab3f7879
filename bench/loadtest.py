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
"""

from __future__ import annotations

import http.client
import json
import os
import random
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from apps.api.services import token_create
from apps.games.models import Game

HOST = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _database_url() -> str:
    """The URL of the database this command is connected to (under the test runner, the test database,
    which ``settings.DATABASE_URL`` does not name)."""
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}{db['HOST'] or ''}{port}/{quote(db['NAME'], safe='')}"


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def _client_cpu_seconds() -> float:
    """CPU seconds used so far by this process (the clients)."""
    mine = resource.getrusage(resource.RUSAGE_SELF)
    return mine.ru_utime + mine.ru_stime


def _proc_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process from Linux's ``/proc`` (0 elsewhere or when gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _server_cpu_seconds(pid: int) -> float:
    """CPU seconds of gunicorn: the master and its workers."""
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += _proc_cpu_seconds(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


def _database_cpu_seconds() -> float:
    """CPU seconds of every PostgreSQL process on this machine (0 when the server runs elsewhere)."""
    total = 0.0
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if (entry / "comm").read_text().strip() in {"postgres", "postmaster"}:
                total += _proc_cpu_seconds(int(entry.name))
        except (OSError, ValueError):
            continue
    return total


@dataclass
class Stats:
    """What one client measured (merged at the end; no locking needed while running)."""

    move_ms: list[float] = field(default_factory=list)
    read_ms: list[float] = field(default_factory=list)
    late_ms: list[float] = field(default_factory=list)
    refused: int = 0
    errors: int = 0
    games: int = 0


class Client:
    """One simulated player program: an HTTP connection (kept alive when the server allows it; reopened
    after a ``Connection: close``) and the tokens of both seats."""

    def __init__(
        self, port: int, tokens: list[str], rng: random.Random, stats: Stats, rate: float = 0.0
    ) -> None:
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)
        self.tokens = tokens
        self.rng = rng
        self.stats = stats
        self.rate = rate  # this client's moves per second; 0: as fast as the server answers

    def call(
        self, method: str, path: str, token: str, body: Any = None, key: str | None = None
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if key:
            headers["Idempotency-Key"] = key
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()  # reconnect on the next request
            raise
        return response.status, json.loads(payload) if payload else None

    def new_game(self) -> tuple[int, list[dict[str, Any]]]:
        """Create a Bao Bei game with seat 0 and join it with seat 1; return its id and open decisions."""
        status, game = self.call("POST", "/api/v1/games/", self.tokens[0], {"engine": "baobei", "players": 2})
        if status != 201:
            raise RuntimeError(f"create answered {status}: {game}")
        status, _ = self.call(
            "POST", "/api/v1/games/join/", self.tokens[1], {"invite_token": game["invite_token"]}
        )
        if status != 200:
            raise RuntimeError(f"join answered {status}")
        status, detail = self.call("GET", f"/api/v1/games/{game['id']}/", self.tokens[0])
        self.stats.games += 1
        return game["id"], self._owners(detail["decisions"], viewer=0)

    @staticmethod
    def _owners(decisions: list[dict[str, Any]], *, viewer: int) -> list[dict[str, Any]]:
        """Who acts next, seen by ``viewer``: a simultaneous decision that is not the viewer's shows no
        owner (BB-30.6); this client holds both seats, so the owner is then the other seat."""
        seats = sorted({d["seat"] if d["seat"] is not None else 1 - viewer for d in decisions})
        return [{"seats": seats}] if seats else []

    def _pace(self, planned: float, until: float) -> float | None:
        """Wait for the planned start of the next move and return the plan after it (Poisson arrivals);
        None when the plan falls after the end of the run."""
        if not self.rate:
            return planned
        if planned >= until:
            return None
        now = time.monotonic()
        if planned > now:
            time.sleep(planned - now)
        self.stats.late_ms.append(max(0.0, now - planned) * 1000)
        return planned + self.rng.expovariate(self.rate)

    def _legal(self, game_id: int, seat: int) -> list[dict[str, Any]] | None:
        started = time.perf_counter()
        status, legal = self.call("GET", f"/api/v1/games/{game_id}/legal/?limit=30", self.tokens[seat])
        self.stats.read_ms.append((time.perf_counter() - started) * 1000)
        return legal["actions"] if status == 200 else None

    def run(self, until: float) -> None:
        game_id, decisions = self.new_game()
        known: list[dict[str, Any]] | None = None  # the acting seat's legal actions, from the last reply
        planned = time.monotonic()
        while time.monotonic() < until:
            if not decisions:
                game_id, decisions = self.new_game()
                known = None
                continue
            seat = decisions[0]["seats"][0]
            token = self.tokens[seat]
            actions = known if known else self._legal(game_id, seat)
            if not actions:
                self.stats.errors += 1
                game_id, decisions = self.new_game()
                known = None
                continue
            action = self.rng.choice(actions)
            next_plan = self._pace(planned, until)
            if next_plan is None:
                break
            planned = next_plan
            started = time.perf_counter()
            status, answer = self.call(
                "POST",
                f"/api/v1/games/{game_id}/actions/?legal=30",
                token,
                {"action": action},
                key=secrets.token_hex(8),
            )
            self.stats.move_ms.append((time.perf_counter() - started) * 1000)
            known = None
            if status == 201:
                decisions = [
                    {"seats": d["seats"] or [1 - seat]} for d in answer["decisions"]
                ]  # no owner listed: a simultaneous decision of the other seat (BB-30.6)
                if decisions and decisions[0]["seats"][0] == seat:
                    known = answer["legal"]["actions"]
            elif status in (400, 409):
                self.stats.refused += 1  # e.g. a pluck window another seat closed: ask again
                _, detail = self.call("GET", f"/api/v1/games/{game_id}/", token)
                decisions = self._owners(detail["decisions"], viewer=seat)
            else:
                self.stats.errors += 1
                decisions = []


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
        users = self._make_users(run, clients)
        tmp = tempfile.TemporaryDirectory(prefix="baogame-loadtest-")
        port = _free_port()
        server = self._start_server(port, Path(tmp.name), opts)
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
            tmp.cleanup()
        offered = f"{opts['rate']:g} moves/s offered" if opts["rate"] else "closed loop"
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
        self.stdout.write(json.dumps(result))

    def _make_users(self, run: str, clients: int) -> list[list[str]]:
        """Two players (one per seat) and their tokens for every client."""
        user_model = get_user_model()
        out = []
        for c in range(clients):
            tokens = []
            for seat in range(2):
                user = user_model(
                    username=f"loadtest-{run}-{c}-{seat}", email=f"loadtest-{run}-{c}-{seat}@example.invalid"
                )
                user.set_unusable_password()
                user.save()
                tokens.append(token_create(user=user, name="loadtest")[1])
            out.append(tokens)
        return out

    def _start_server(self, port: int, var_dir: Path, opts: dict[str, Any]) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "DEBUG": "False",
            "SECRET_KEY": secrets.token_urlsafe(64),
            "ALLOWED_HOSTS": f"{HOST},localhost",
            "SECURE_SSL_REDIRECT": "False",
            "DB_CONN_MAX_AGE": "600",
            "BAOGAME_VAR_DIR": str(var_dir),
            "BAOGAME_TESTING": "False",
            "CELERY_BROKER_URL": opts["broker"],
            "CELERY_TASK_ALWAYS_EAGER": "False",
            "API_WRITE_RATE": "100000/min",  # the throttle still runs, but does not limit the benchmark
            "LOG_LEVEL": "WARNING",
            "EMAIL_URL": "locmem://",
        }
        command = [
            sys.executable, "-m", "gunicorn", "baogame.wsgi:application",
            "--bind", f"{HOST}:{port}",
            "--workers", str(opts["workers"]),
            "--worker-class", opts["worker_class"],
            "--log-level", "warning",
        ]  # fmt: skip
        if opts["worker_class"] == "gthread":
            command += ["--threads", str(opts["threads"]), "--keep-alive", "75"]
        if opts["gunicorn_config"]:
            command += ["--config", opts["gunicorn_config"]]
        (var_dir / "staticfiles").mkdir(parents=True, exist_ok=True)
        server = subprocess.Popen(command, env=env, cwd=settings.BASE_DIR)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise CommandError("gunicorn exited at startup")
            try:
                conn = http.client.HTTPConnection(HOST, port, timeout=2)
                conn.request("GET", "/api/v1/me/")  # cheap: 401 once Django answers
                if conn.getresponse().status == 401:
                    return server
            except OSError:
                pass
            time.sleep(0.3)
        server.terminate()
        raise CommandError("gunicorn did not answer within 60 s")

    def _drive(
        self, port: int, users: list[list[str]], opts: dict[str, Any], server_pid: int
    ) -> dict[str, Any]:
        rate = opts["rate"] / len(users) if opts["rate"] > 0 else 0.0
        failures: list[BaseException] = []

        def run_clients(tag: str, until: float) -> list[Stats]:
            """Every client plays until ``until`` in its own thread; failures are kept for the report."""
            stats = [Stats() for _ in users]

            def play(i: int) -> None:
                rng = random.Random(f"{opts['seed']}:{tag}:{i}")
                try:
                    Client(port, users[i], rng, stats[i], rate).run(until)
                except BaseException as exc:  # noqa: BLE001 - reported below
                    failures.append(exc)

            threads = [threading.Thread(target=play, args=(i,)) for i in range(len(users))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return stats

        run_clients("warm", time.monotonic() + opts["warmup"])
        cpu_before = _server_cpu_seconds(server_pid), _database_cpu_seconds(), _client_cpu_seconds()
        started = time.monotonic()
        stats = run_clients("run", started + opts["seconds"])
        elapsed = time.monotonic() - started
        cpu_after = _server_cpu_seconds(server_pid), _database_cpu_seconds(), _client_cpu_seconds()
        cpu = [after - before for before, after in zip(cpu_before, cpu_after, strict=True)]
        if failures:
            self.stderr.write(f"{len(failures)} clients failed, first: {failures[0]!r}")
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
            "p50_ms": round(_percentile(moves, 50), 1),
            "p95_ms": round(_percentile(moves, 95), 1),
            "p99_ms": round(_percentile(moves, 99), 1),
            "legal_p50_ms": round(_percentile(reads, 50), 1),
            "legal_p99_ms": round(_percentile(reads, 99), 1),
            "legal_per_move": round(len(reads) / max(len(moves), 1), 2),
            "requests_per_s": round((len(moves) + len(reads)) / elapsed, 1),
            "late_p99_ms": round(_percentile(late, 99), 1),
            "server_cpu_ms_per_move": round(cpu[0] * per_move, 2),
            "db_cpu_ms_per_move": round(cpu[1] * per_move, 2),
            "client_cpu_ms_per_move": round(cpu[2] * per_move, 2),
            "games": sum(s.games for s in stats),
            "refused": sum(s.refused for s in stats),
            "errors": sum(s.errors for s in stats) + len(failures),
            "workers": opts["workers"],
            "worker_class": opts["worker_class"],
            "threads": opts["threads"] if opts["worker_class"] == "gthread" else 1,
        }

    def _clean_up(self, run: str) -> None:
        """Delete the run's users and every game they sat in (moves, seats and decisions go with them)."""
        users = get_user_model().objects.filter(username__startswith=f"loadtest-{run}-")
        games, _ = Game.objects.filter(seats__user__in=users).distinct().delete()
        users.delete()
        self.stdout.write(f"cleaned up: {games} rows of games, the run's users and tokens")
