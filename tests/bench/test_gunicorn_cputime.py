"""The load test's CPU-time hooks (``bench/profiles/gunicorn_cputime.py``) count a real gunicorn worker's
requests by kind and write them at the worker's exit; the figures themselves are not checked."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from bench.profiles import gunicorn_cputime

CONFIG = Path(gunicorn_cputime.__file__)


def hello(environ: dict[str, object], start_response: object) -> list[bytes]:
    """A WSGI application for gunicorn to serve."""
    start_response("200 OK", [("Content-Type", "text/plain")])  # type: ignore[operator]
    return [b"hello"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(port: int, path: str) -> int:
    deadline = time.monotonic() + 30
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            return conn.getresponse().status
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_each_kind_of_request_is_counted_and_written_when_the_worker_exits(tmp_path: Path) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "tests.bench.test_gunicorn_cputime:hello",
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "--config", str(CONFIG)],
        env={**os.environ, "BAOGAME_PROFILE_DIR": str(tmp_path)},
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    try:
        assert [_get(port, p) for p in ("/games/12/legal/", "/games/7/legal/", "/me/")] == [200] * 3
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    files = sorted(tmp_path.glob("cputime-*.json"))
    assert len(files) == 1
    total, kinds = gunicorn_cputime.combine(files)
    assert {kind: count for kind, (count, _) in kinds.items()} == {"GET /games/N/legal/": 2, "GET /me/": 1}
    assert total >= sum(seconds for _, seconds in kinds.values()) >= 0


def test_the_summary_prints_each_kind_and_the_time_outside_requests(tmp_path: Path, capsys) -> None:
    (tmp_path / "cputime-1.json").write_text(
        '{"worker_cpu_s": 1.0, "kinds": {"POST /a/N/": [2, 0.4], "GET /b/": [3, 0.3]}}'
    )
    (tmp_path / "cputime-2.json").write_text('{"worker_cpu_s": 0.5, "kinds": {"POST /a/N/": [2, 0.4]}}')

    gunicorn_cputime.main([str(tmp_path)])

    out = capsys.readouterr().out
    assert "2 workers: 1.50 s of CPU, 1.10 s of it in 7 requests" in out
    assert "57.14 ms a request" in out  # (1.5 - 1.1) s / 7
    assert "POST /a/N/" in out and "200.00 ms CPU each" in out
    assert "GET /b/" in out and "100.00 ms CPU each" in out


def test_a_load_test_counts_only_the_requests_that_ended_in_its_window(tmp_path: Path) -> None:
    (tmp_path / "cputime-1.json").write_text(
        '{"worker_cpu_s": 1.0, "kinds": {}, "requests": '
        '[["POST /a/", 10.0, 0.1], ["POST /a/", 20.0, 0.2], ["GET /b/", 21.0, 0.3], ["GET /b/", 31.0, 0.4]]}'
    )

    kinds = gunicorn_cputime.in_window(sorted(tmp_path.glob("cputime-*.json")), 15.0, 30.0)

    assert kinds == {"POST /a/": (1, 0.2), "GET /b/": (1, 0.3)}
