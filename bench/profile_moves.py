"""Profile the API's move requests in one process: the load test's client against the WSGI application.

``python -m bench.profile_moves [--seconds 20] [--top 40] [--out FILE.prof] [--queries] [--timers F,…]``

One load-test client (both seats of its own 2-player Bao Bei games, ``bench.loadtest.Client``) plays
through ``baogame.wsgi.application`` called directly, with the settings the load test gives gunicorn
(``DEBUG=False``, persistent database connections, a throw-away filesystem broker). Everything but the
HTTP server runs: the middleware, DRF, the pipeline, PostgreSQL. The profile counts CPU time (not wall
time), so a busy machine does not blur it much, and it prints the CPU milliseconds per move and per
request, the top functions, and with ``--queries`` the SQL statements per request kind. ``--kind
'POST actions'`` profiles that kind of request alone and also prints its Python function calls a
request: a count that a busy or a faster machine does not change, to compare two versions of the code
when CPU time is too noisy to (``--plain`` turns the profiler off). ``--timers
apps.games.pipeline:submit_action,…`` (with ``--plain``) puts a CPU timer around each function named
(``module:qualname``) and prints the CPU each took per move, inclusive of what it calls, in the
measured seconds: a split of a request without a profiler's distortion, each timer adding about a
microsecond a call. It needs ``DATABASE_URL`` pointing at PostgreSQL, and deletes what it created.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import secrets
import sys
import tempfile
import time
from collections import Counter, defaultdict
from typing import Any
from urllib.parse import urlsplit


def _configure(var_dir: str) -> None:
    """The environment ``loadtest`` gives gunicorn; anything already set wins."""
    defaults = {
        "DJANGO_SETTINGS_MODULE": "baogame.settings",
        "DEBUG": "False",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "False",
        "DB_CONN_MAX_AGE": "600",
        "BAOGAME_VAR_DIR": var_dir,
        "BAOGAME_TESTING": "False",
        "CELERY_TASK_ALWAYS_EAGER": "False",
        "API_WRITE_RATE": "100000/min",
        "LOG_LEVEL": "WARNING",
        "EMAIL_URL": "locmem://",
    }
    for name, value in defaults.items():
        os.environ.setdefault(name, value)
    os.environ["CELERY_BROKER_URL"] = "filesystem://"  # as the load test: tasks are written, then dropped


class WsgiConnection:
    """A ``bench.apiclient.Transport`` for ``bench.apiclient.Client``: each request is a call of the
    WSGI application, as gunicorn would make it."""

    def __init__(self, app: Any, on_request: Any = None) -> None:
        self.app = app
        self.on_request = on_request

    def exchange(self, method: str, path: str, head: bytes, body: bytes | None) -> tuple[int, bytes, str]:
        url = urlsplit(path)
        data = body or b""
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": url.path,
            "QUERY_STRING": url.query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1",
            "CONTENT_LENGTH": str(len(data)),
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            key = name.strip().upper().replace("-", "_")
            if key == "CONTENT_TYPE":
                environ["CONTENT_TYPE"] = value.strip()
            else:
                environ[f"HTTP_{key}"] = value.strip()
        status: list[str] = []
        answered: list[tuple[str, str]] = []

        def start_response(line: str, response_headers: Any, exc_info: Any = None) -> None:
            status.append(line)
            answered.extend(response_headers)

        def call() -> bytes:
            chunks = self.app(environ, start_response)
            try:
                return b"".join(chunks)
            finally:
                if hasattr(chunks, "close"):
                    chunks.close()

        payload = self.on_request(method, url.path, call) if self.on_request else call()
        content_type = next((v for n, v in answered if n.lower() == "content-type"), "")
        return int(status[0].split()[0]), payload, content_type

    def close(self) -> None:
        pass


#: The request kinds one load-test client makes (``_kind``), for ``--kind``.
KINDS = ("POST actions", "GET legal", "POST join", "POST games", "GET games")


def _install_timers(names: str) -> dict[str, list[float]]:
    """A CPU timer around each ``module:qualname`` of ``names`` (comma-separated): label -> [calls, s]."""
    import importlib

    timers: dict[str, list[float]] = {}
    for name in filter(None, (n.strip() for n in names.split(","))):
        module_name, _, qualname = name.partition(":")
        owner: Any = importlib.import_module(module_name)
        *path, attribute = qualname.split(".")
        for part in path:
            owner = getattr(owner, part)
        function = getattr(owner, attribute)
        counts = timers.setdefault(name, [0, 0.0])

        def timed(*args: Any, _function: Any = function, _counts: list[float] = counts, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return _function(*args, **kwargs)
            finally:
                _counts[0] += 1
                _counts[1] += time.process_time() - started

        setattr(owner, attribute, timed)
    return timers


def _kind(method: str, path: str) -> str:
    """The request kind: ``POST actions``, ``GET legal``, … (the path without ids)."""
    parts = [p for p in path.split("/") if p and not p.isdigit()]
    return f"{method} {parts[-1] if parts else '/'}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--sort", default="tottime", choices=["tottime", "cumulative"])
    parser.add_argument("--out", default="", help="also save the raw profile here (pstats format)")
    parser.add_argument("--queries", action="store_true", help="count SQL statements per request kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain", action="store_true", help="no profiler: only the CPU figures")
    parser.add_argument(
        "--timers", default="", help="module:qualname functions to time (CPU per move), comma-separated"
    )
    parser.add_argument(
        "--kind",
        default="",
        choices=["", *KINDS],
        help="profile only this request kind, e.g. 'POST games' (the figures count all)",
    )
    args = parser.parse_args(argv)

    var_dir = tempfile.TemporaryDirectory(prefix="baogame-profile-")
    _configure(var_dir.name)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from apps.api.services import token_create
    from apps.games.models import Game
    from baogame.wsgi import application
    from bench.apiclient import Client, Stats

    if connection.vendor != "postgresql":
        sys.exit("profile_moves runs on PostgreSQL: set DATABASE_URL=postgres://…")
    timers = _install_timers(args.timers)
    os.makedirs(os.path.join(var_dir.name, "staticfiles"), exist_ok=True)
    run = secrets.token_hex(3)
    tokens = []
    users = []
    for seat in range(2):
        user = get_user_model()(
            username=f"profile-{run}-{seat}", email=f"profile-{run}-{seat}@example.invalid"
        )
        user.set_unusable_password()
        user.save()
        users.append(user)
        tokens.append(token_create(user=user, name="profile")[1])

    cpu: defaultdict[str, float] = defaultdict(float)
    calls: Counter[str] = Counter()
    queries: dict[str, Counter[int]] = defaultdict(Counter)
    statements: dict[str, Counter[str]] = defaultdict(Counter)

    def on_request(method: str, path: str, call: Any) -> bytes:
        kind = _kind(method, path)
        started = time.process_time()
        only = args.kind and not args.plain and kind == args.kind
        if only:
            profiler.enable()
        if args.queries:
            with CaptureQueriesContext(connection) as captured:
                payload = call()
            queries[kind][len(captured.captured_queries)] += 1
            for q in captured.captured_queries:
                statements[kind][q["sql"].split(" WHERE ")[0][:110]] += 1
        else:
            payload = call()
        if only:
            profiler.disable()
        cpu[kind] += time.process_time() - started
        calls[kind] += 1
        return payload

    profiler = cProfile.Profile(time.process_time)
    try:
        warm = Client(0, tokens, random.Random(f"{args.seed}:warm"), Stats())
        warm.conns[0] = WsgiConnection(application)
        warm.run(time.monotonic() + args.warmup)
        for counts in timers.values():  # the measured seconds only
            counts[0], counts[1] = 0, 0.0
        stats = Stats()
        client = Client(0, tokens, random.Random(f"{args.seed}:run"), stats)
        client.conns[0] = WsgiConnection(application, on_request)
        cpu_started = time.process_time()
        if not args.plain and not args.kind:
            profiler.enable()
        client.run(time.monotonic() + args.seconds)
        profiler.disable()
        total_cpu = time.process_time() - cpu_started
    finally:
        games, _ = Game.objects.filter(seats__user__in=users).distinct().delete()
        get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()
        var_dir.cleanup()
    moves = len(stats.move_ms) - stats.refused - stats.errors
    print(
        f"{moves} moves, {stats.games} games, {stats.refused} refused, {stats.errors} errors; "
        f"CPU (this process{'' if args.plain else ', profiler on'}) "
        f"{total_cpu * 1000 / max(moves, 1):.2f} ms per move"
    )
    for kind in sorted(calls, key=lambda k: -cpu[k]):
        line = f"  {kind:<14} {calls[kind]:>6} requests, {cpu[kind] * 1000 / calls[kind]:.2f} ms CPU each"
        if args.queries:
            spread = ", ".join(f"{n} queries x{c}" for n, c in sorted(queries[kind].items()))
            line += f"; {spread}"
        print(line)
    if args.queries:
        for kind in sorted(statements):
            print(f"statements of {kind} (per request):")
            for sql, count in statements[kind].most_common(12):
                print(f"  {count / calls[kind]:6.2f}  {sql}")
    for name, (made, took) in timers.items():
        print(f"  {name:<60} {int(made):>7} calls, {took * 1e6 / max(moves, 1):8.1f} µs CPU per move")
    if args.out:
        profiler.dump_stats(args.out)
    if args.plain:
        return
    if args.kind and calls[args.kind]:
        made = pstats.Stats(profiler).total_calls  # type: ignore[attr-defined]  # not in typeshed
        print(
            f"{args.kind}: {made / calls[args.kind]:,.0f} Python function calls a request "
            "(the profiler's count: repeatable where CPU time is not)"
        )
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats(args.sort).print_stats(args.top)
    print(out.getvalue())


if __name__ == "__main__":
    main()
