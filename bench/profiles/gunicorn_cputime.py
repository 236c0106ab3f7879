"""A gunicorn config file that counts each worker's CPU time per kind of request, without a profiler
(for ``loadtest --gunicorn-config``).

A profiler inflates Python-heavy code two to three times; this only reads ``time.process_time`` before
and after each request (gunicorn's ``pre_request`` and ``post_request`` hooks) and at the worker's fork
and exit, so the figures are those of the load test itself. A request's kind is its method and path
with the numbers replaced by ``N``. Each worker writes ``<dir>/cputime-<pid>.json`` at its exit, where
``<dir>`` is ``$BAOGAME_PROFILE_DIR`` (default: the current folder). Print the workers' totals with
``python -m bench.profiles.gunicorn_cputime <dir>``: the CPU milliseconds of each kind of request, and
what the workers spent outside requests (accepting, reading and writing connections, their own start).

Each request is also kept with its end (wall clock) and CPU, so that a load test can count only the
requests of its measured seconds (``in_window``), leaving out the workers' start and the warm-up.

``BAOGAME_GUNICORN_CONFIG`` names another config file to use as well (the load test's
``--gunicorn-config``, e.g. ``gunicorn_cprofile.py``): its settings are taken and its hooks run after
these.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import runpy
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

_NUMBER = re.compile(r"\d+")
_started = time.process_time()
_request_started = 0.0
#: kind -> [requests, CPU seconds]
_kinds: dict[str, list[float]] = {}
#: each request: [kind, end (time.time()), CPU seconds]
_requests: list[list[Any]] = []


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
    cpu = time.process_time() - _request_started
    kind = kind_of(req.method, req.path)
    entry = _kinds.setdefault(kind, [0, 0.0])
    entry[0] += 1
    entry[1] += cpu
    _requests.append([kind, time.time(), cpu])


def worker_exit(server: Any, worker: Any) -> None:
    folder = Path(os.environ.get("BAOGAME_PROFILE_DIR", "."))
    folder.mkdir(parents=True, exist_ok=True)
    record = {"worker_cpu_s": time.process_time() - _started, "kinds": _kinds, "requests": _requests}
    (folder / f"cputime-{os.getpid()}.json").write_text(json.dumps(record))


def in_window(files: list[Path], start: float, end: float) -> dict[str, tuple[int, float]]:
    """Per kind of request, (requests, CPU seconds) of the requests that ended between ``start`` and
    ``end`` (``time.time()``), over all the workers' files."""
    kinds: dict[str, tuple[int, float]] = {}
    for file in files:
        for kind, ended, cpu in json.loads(file.read_text()).get("requests", []):
            if start <= ended <= end:
                count, seconds = kinds.get(kind, (0, 0.0))
                kinds[kind] = (count + 1, seconds + cpu)
    return kinds


def _chain(first: Callable[..., Any], then: Callable[..., Any]) -> Callable[..., Any]:
    def both(*args: Any) -> None:
        first(*args)
        then(*args)

    return both


def _use_other_config(path: str) -> None:
    """Take the settings of the config file ``path``; its hooks run after this module's."""
    names = globals()
    for name, value in runpy.run_path(path).items():
        if name.startswith("_") or not (callable(value) or name.islower()):
            continue
        if name in {"post_fork", "pre_request", "post_request", "worker_exit"} and callable(value):
            names[name] = _chain(names[name], value)
        elif name not in names:
            names[name] = value


_other = os.environ.get("BAOGAME_GUNICORN_CONFIG", "")
if _other and Path(_other).resolve() != Path(__file__).resolve():
    _use_other_config(_other)


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
