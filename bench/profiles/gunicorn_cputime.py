"""A gunicorn config file that counts each worker's CPU time per kind of request, without a profiler
(for ``loadtest --gunicorn-config``).

A profiler inflates Python-heavy code two to three times; this only reads ``time.process_time`` before
and after each request (gunicorn's ``pre_request`` and ``post_request`` hooks) and at the worker's fork
and exit, so the figures are those of the load test itself. A request's kind is its method and path
with the numbers replaced by ``N``. Each worker writes ``<dir>/cputime-<pid>.json`` at its exit, where
``<dir>`` is ``$BAOGAME_PROFILE_DIR`` (default: the current folder). Print the workers' totals with
``python -m bench.profiles.gunicorn_cputime <dir>``: the CPU milliseconds of each kind of request, and
what the workers spent outside requests (accepting, reading and writing connections, their own start).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

_NUMBER = re.compile(r"\d+")
_started = time.process_time()
_request_started = 0.0
#: kind -> [requests, CPU seconds]
_kinds: dict[str, list[float]] = {}


def kind_of(method: str, path: str) -> str:
    """``POST /api/v1/games/12/actions/`` -> ``POST /api/vN/games/N/actions/``."""
    return f"{method} {_NUMBER.sub('N', path)}"


def post_fork(server: Any, worker: Any) -> None:
    global _started
    _started = time.process_time()


def pre_request(worker: Any, req: Any) -> None:
    global _request_started
    _request_started = time.process_time()


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    entry = _kinds.setdefault(kind_of(req.method, req.path), [0, 0.0])
    entry[0] += 1
    entry[1] += time.process_time() - _request_started


def worker_exit(server: Any, worker: Any) -> None:
    folder = Path(os.environ.get("BAOGAME_PROFILE_DIR", "."))
    folder.mkdir(parents=True, exist_ok=True)
    record = {"worker_cpu_s": time.process_time() - _started, "kinds": _kinds}
    (folder / f"cputime-{os.getpid()}.json").write_text(json.dumps(record))


def combine(files: list[Path]) -> tuple[float, dict[str, tuple[int, float]]]:
    """The workers' CPU seconds in all, and per kind of request (requests, CPU seconds), summed."""
    total = 0.0
    kinds: dict[str, tuple[int, float]] = {}
    for file in files:
        record = json.loads(file.read_text())
        total += record["worker_cpu_s"]
        for kind, (count, seconds) in record["kinds"].items():
            before = kinds.get(kind, (0, 0.0))
            kinds[kind] = (before[0] + int(count), before[1] + seconds)
    return total, kinds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    files = sorted(args.folder.glob("cputime-*.json"))
    if not files:
        sys.exit(f"no cputime-*.json in {args.folder}")
    total, kinds = combine(files)
    in_requests = sum(seconds for _, seconds in kinds.values())
    requests = sum(count for count, _ in kinds.values())
    print(f"{len(files)} workers: {total:.2f} s of CPU, {in_requests:.2f} s of it in {requests} requests")
    outside = (total - in_requests) * 1000 / requests if requests else 0.0
    print(f"outside requests (connections, the workers' own start): {outside:.2f} ms a request")
    for kind, (count, seconds) in sorted(kinds.items(), key=lambda item: -item[1][1]):
        print(f"  {kind:<48} {count:>7} requests {seconds * 1000 / count:>8.2f} ms CPU each")


if __name__ == "__main__":
    main()
