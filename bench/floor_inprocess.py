"""The stack's floor measured in one process, beside ``bench.profile_moves``: CPU per request of the floor's
bare Django view (``../shared/floor/floor.py``) called as WSGI, with no HTTP server around it.

``python -m bench.floor_inprocess ../shared/floor/floor.py [--requests 5000]``

``../shared/floor/measure`` gives the floor under gunicorn; ``profile_moves`` gives the site's requests
in one process. This gives the third figure, the floor in one process, so that a request's CPU can be
split into what gunicorn adds (the same for the floor and the site) and what the application spends.
It makes a scratch database ``floor_inprocess`` on the PostgreSQL of ``DATABASE_URL`` (its host, port and
user), fills it as ``measure`` does (500 games), posts the floor's move to random games and drops the
database. Prints the CPU milliseconds per request, then one JSON line.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import random
import subprocess
import sys
import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

SCRATCH = "floor_inprocess"
BODY = b'{"kind": "play", "cards": [3, 4]}'


def _call(app: Any, game: int) -> None:
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": f"/games/{game}/moves",
        "QUERY_STRING": "",
        "SCRIPT_NAME": "",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(BODY),
        "CONTENT_LENGTH": str(len(BODY)),
        "CONTENT_TYPE": "application/json",
        "HTTP_AUTHORIZATION": "Token tok",
    }
    statuses: list[str] = []
    answer = app(environ, lambda status, headers: statuses.append(status))
    b"".join(answer)
    answer.close()
    if not statuses or not statuses[0].startswith("200"):
        raise SystemExit(f"the floor answered {statuses}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("floor", help="the floor's view: ../shared/floor/floor.py")
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args(argv)

    url = urlsplit(os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres")
    if not url.scheme.startswith("postgres"):
        sys.exit("floor_inprocess needs DATABASE_URL pointing at PostgreSQL")
    admin = urlunsplit(url._replace(path="/postgres"))
    scratch = urlunsplit(url._replace(path=f"/{SCRATCH}"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH}")
        conn.execute(f"CREATE DATABASE {SCRATCH}")
    try:
        env = {**os.environ, "DATABASE_URL": scratch}
        floor = os.path.abspath(args.floor)
        subprocess.run([sys.executable, floor, "init", str(args.games)], env=env, check=True)
        os.environ["DATABASE_URL"] = scratch
        sys.path.insert(0, os.path.dirname(floor))  # its URL map is the module itself, by its name
        app = importlib.import_module(os.path.splitext(os.path.basename(floor))[0]).application
        rng = random.Random(1)
        for _ in range(min(500, args.requests)):  # warm-up: connection, URL map, prepared caches
            _call(app, rng.randrange(args.games))
        started = time.process_time()
        for _ in range(args.requests):
            _call(app, rng.randrange(args.games))
        cpu_ms = (time.process_time() - started) * 1000 / args.requests
        from django.db import connection

        connection.close()
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH}")
    print(f"floor in one process: {cpu_ms:.3f} ms of CPU a request ({args.requests} requests)")
    print(json.dumps({"floor_inprocess_cpu_ms_per_request": round(cpu_ms, 3), "requests": args.requests}))


if __name__ == "__main__":
    main()
