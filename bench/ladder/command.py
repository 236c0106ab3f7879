"""``manage.py bench_ladder``: where a move request's CPU goes, layer by layer (``bench.ladder.rungs``).

    python manage.py bench_ladder [--seconds 10] [--connections 32] [--workers 4] [--rungs floor,site]
                                  [--rounds 1]

For each rung in turn: gunicorn (4 sync workers, the load test's production-like environment) serves
that rung, the driver keeps ``--connections`` requests in flight for a warm-up and then ``--seconds``
(``bench.ladder.driver``, wrk's closed loop), and the rung's figures are gunicorn's CPU per request
(the master and its workers, read from ``/proc`` before and after, as ``../shared/floor/measure``
does), requests/s and latency. Each rung is also given as a multiple of the floor's CPU per request
measured in the same run. Needs PostgreSQL (``DATABASE_URL``); deletes what it creates. Prints a table,
then one JSON line.

``--rounds N`` runs the rungs N times over, in turn (floor, …, site, floor, …, site, …), so that each
round's rungs are measured within a minute or two of its own floor: a machine whose speed drifts from
one minute to the next moves a round's rungs together, and the ratio of each rung to its round's
floor is steadier than either figure. The table then gives each rung's median over the rounds and the
median and range of its ratios to its round's first rung (``summarized``); the JSON line keeps every
round's figures.
"""

from __future__ import annotations

import json
import random
import secrets
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bench.apiclient import (
    clean_up,
    free_port,
    make_users,
    new_secret_key,
    server_cpu_seconds,
    site_env,
    start_site,
)
from bench.deadlines import _memory_broker

from . import driver, games, rungs

#: The body the floor's rungs post (the floor's own: ``../shared/floor/post.lua``).
FLOOR_BODY = json.dumps({"action": {"kind": "play", "cards": [3, 4]}}).encode()


class Command(BaseCommand):
    help = "Serve the move endpoint's work in steps from the floor to the site; CPU per request of each."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per rung")
        parser.add_argument("--warmup", type=float, default=2.0, help="seconds of load before measuring")
        parser.add_argument("--connections", type=int, default=32)
        parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
        parser.add_argument("--rungs", default=",".join(rungs.RUNGS), help="comma-separated, in order")
        parser.add_argument(
            "--games",
            type=int,
            default=12,
            help="games per connection made for each playing rung (about 20 moves each)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--rounds",
            type=int,
            default=1,
            help="run the rungs this many times over, in turn: medians, and ratios to each round's floor",
        )
        parser.add_argument(
            "--broker",
            default="filesystem://",
            help="Celery broker of the served rungs (default: a temporary folder, as the load test's)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("The ladder runs on PostgreSQL: set DATABASE_URL=postgres://…")
        chosen = [r.strip() for r in opts["rungs"].split(",") if r.strip()]
        unknown = set(chosen) - set(rungs.RUNGS)
        if unknown:
            raise CommandError(f"unknown rungs {sorted(unknown)}; the rungs are {', '.join(rungs.RUNGS)}")
        run = secrets.token_hex(3)
        prefix = f"ladder-{run}"
        tokens = make_users(prefix, opts["connections"])
        self._floor_tables(prefix, tokens)
        rng = random.Random(opts["seed"])
        rounds: list[list[dict[str, Any]]] = []
        try:
            with _memory_broker():  # the games made here queue their tasks nowhere (entered once only)
                for number in range(max(1, opts["rounds"])):
                    results: list[dict[str, Any]] = []
                    rounds.append(results)
                    if opts["rounds"] > 1:
                        self.stdout.write(f"round {number + 1} of {opts['rounds']}")
                    for rung in chosen:
                        result = self._rung(rung, prefix, tokens, rng, opts)
                        results.append(result)
                        self.stdout.write(self._line(result, results[0]))
        finally:
            with connection.cursor() as c:
                c.execute(rungs.FLOOR_TABLES[0])
            clean_up(prefix)
        summary = {"connections": opts["connections"], "workers": opts["workers"]}
        if len(rounds) == 1:
            self.stdout.write(self._table(rounds[0]))
            self.stdout.write(json.dumps({**summary, "rungs": rounds[0]}))
            return
        medians = summarized(rounds)
        self.stdout.write(self._rounds_table(medians, len(rounds)))
        self.stdout.write(json.dumps({**summary, "rounds": rounds, "rungs": medians}))

    def _floor_tables(self, prefix: str, tokens: list[list[str]]) -> None:
        """The floor's tables (``floor.py init``), its token table holding the run's tokens."""
        users = dict(
            get_user_model().objects.filter(username__startswith=f"{prefix}-").values_list("username", "pk")
        )
        with connection.cursor() as c:
            for statement in rungs.FLOOR_TABLES:
                c.execute(statement)
            for i, pair in enumerate(tokens):
                for seat, token in enumerate(pair):
                    c.execute(
                        "INSERT INTO ladder_token VALUES (%s, %s)", [token, users[f"{prefix}-{i}-{seat}"]]
                    )
            for g in range(rungs.FLOOR_GAMES):
                c.execute("INSERT INTO ladder_game VALUES (%s, 0, %s)", [g, rungs.FLOOR_STATE])

    def _sources(
        self, rung: str, prefix: str, tokens: list[list[str]], rng: random.Random, opts: dict[str, Any]
    ) -> list[driver.Source]:
        """Each connection's requests: real moves of its own games, or the floor's posts to random games."""
        if rung in rungs.PLAYING:
            return [
                games.source(games.prepared([f"{prefix}-{i}-0", f"{prefix}-{i}-1"], pair, opts["games"], rng))
                for i, pair in enumerate(tokens)
            ]
        return [self._floor_posts(pair[0], random.Random(rng.random())) for pair in tokens]

    @staticmethod
    def _floor_posts(token: str, rng: random.Random) -> driver.Source:
        headers = {
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        posts = [
            driver.request("POST", f"/api/v1/games/{g}/actions/", headers, FLOOR_BODY)
            for g in range(rungs.FLOOR_GAMES)
        ]
        while True:
            yield rng.choice(posts)

    def _rung(
        self, rung: str, prefix: str, tokens: list[list[str]], rng: random.Random, opts: dict[str, Any]
    ) -> dict[str, Any]:
        sources = self._sources(rung, prefix, tokens, rng, opts)
        tmp = tempfile.TemporaryDirectory(prefix="baogame-ladder-")
        env = site_env(
            var_dir=Path(tmp.name),
            broker=opts["broker"],
            secret_key=new_secret_key(),
            extra={"BAOGAME_LADDER_RUNG": rung},
        )
        port = free_port()
        try:
            server = start_site(port, env, workers=opts["workers"], app="bench.ladder.wsgi:application")
        except RuntimeError as exc:
            raise CommandError(f"{rung}: {exc}") from None
        try:
            driver.run(port, sources, opts["warmup"])
            cpu = [server_cpu_seconds(server.pid)]
            tally = driver.run(
                port, sources, opts["seconds"], on_end=lambda: cpu.append(server_cpu_seconds(server.pid))
            )
            cpu_seconds = cpu[1] - cpu[0]
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            tmp.cleanup()
        answered = max(tally.answered, 1)
        return {
            "rung": rung,
            "adds": rungs.ADDS[rung],
            "requests": tally.answered,
            "requests_per_s": round(tally.answered / tally.seconds, 1),
            "p50_ms": round(tally.percentile(50), 1),
            "p99_ms": round(tally.percentile(99), 1),
            "cpu_ms_per_request": round(cpu_seconds * 1000 / answered, 3),
            "non_2xx": tally.bad,
            "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
            "dry_connections": tally.dry,
        }

    @staticmethod
    def _line(result: dict[str, Any], floor: dict[str, Any]) -> str:
        ratio = result["cpu_ms_per_request"] / max(floor["cpu_ms_per_request"], 1e-9)
        problems = ""
        if result["non_2xx"]:
            problems += f", {result['non_2xx']} non-2xx answers {result['statuses']}"
        if result["dry_connections"]:
            problems += f", {result['dry_connections']} connections ran out of moves (raise --games)"
        return (
            f"{result['rung']:<9} {result['requests_per_s']:>8.1f} requests/s  "
            f"p50 {result['p50_ms']:>6.1f} ms  p99 {result['p99_ms']:>6.1f} ms  "
            f"gunicorn CPU {result['cpu_ms_per_request']:.3f} ms/request "
            f"({ratio:.2f} x the first rung){problems}"
        )

    @staticmethod
    def _rounds_table(medians: list[dict[str, Any]], count: int) -> str:
        lines = [
            "",
            f"Medians over {count} rounds; × first rung: each round's rung over that round's first rung.",
            "",
            "| rung | adds | requests/s | gunicorn CPU per request | × first rung (median) | (range) |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for r in medians:
            low, high = min(r["ratios"]), max(r["ratios"])
            lines.append(
                f"| {r['rung']} | {r['adds']} | {r['requests_per_s']:,.1f} | "
                f"{r['cpu_ms_per_request']:.3f} ms | {r['ratio']:.2f} | {low:.2f}–{high:.2f} |"
            )
        return "\n".join(lines)

    @staticmethod
    def _table(results: list[dict[str, Any]]) -> str:
        if not results:
            return ""
        base = results[0]["cpu_ms_per_request"] or 1e-9
        lines = [
            "",
            "| rung | adds | requests/s | p99 | gunicorn CPU per request | × first rung | step |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        previous = None
        for r in results:
            step = "" if previous is None else f"{r['cpu_ms_per_request'] - previous:+.3f} ms"
            lines.append(
                f"| {r['rung']} | {r['adds']} | {r['requests_per_s']:,.1f} | {r['p99_ms']:.0f} ms | "
                f"{r['cpu_ms_per_request']:.3f} ms | {r['cpu_ms_per_request'] / base:.2f} | {step} |"
            )
            previous = r["cpu_ms_per_request"]
        return "\n".join(lines)


def summarized(rounds: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each rung over the rounds (every round measures the same rungs in the same order): the median of
    its requests/s and of its CPU per request, and its CPU over its own round's first rung, each round's
    ratio (``ratios``) and their median (``ratio``)."""
    first = [results[0]["cpu_ms_per_request"] or 1e-9 for results in rounds]
    summary = []
    for index, rung in enumerate(rounds[0]):
        runs = [results[index] for results in rounds]
        ratios = [round(run["cpu_ms_per_request"] / base, 3) for run, base in zip(runs, first, strict=True)]
        summary.append(
            {
                "rung": rung["rung"],
                "adds": rung["adds"],
                "requests_per_s": round(statistics.median(run["requests_per_s"] for run in runs), 1),
                "cpu_ms_per_request": round(statistics.median(run["cpu_ms_per_request"] for run in runs), 3),
                "ratios": ratios,
                "ratio": round(statistics.median(ratios), 3),
                "non_2xx": sum(run["non_2xx"] for run in runs),
            }
        )
    return summary
