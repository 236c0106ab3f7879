"""``make run`` (``manage.py rundev``) stops every process it started within 5 seconds of Ctrl-C
(SIGINT to the terminal's process group) or SIGTERM to its group, Celery workers and beat included."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="reads /proc to find the processes"),
    pytest.mark.embedded,
]

#: What the README promises.
STOPS_WITHIN = 5.0
#: The web server, three workers (one with the embedded beat) and the prefork pool of one of them.
AT_LEAST = 4


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def _descendants(pid: int) -> set[int]:
    tree, found, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serving(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_every_process_of_make_run_is_gone_within_5_s_of_a_signal_to_its_group(
    signum: int, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_"))}
    env |= {"BAOGAME_VAR_DIR": str(tmp_path), "BAOGAME_TESTING": "false", "PYTHONUNBUFFERED": "1"}
    port = _free_port()
    started: set[int] = set()
    rundev = subprocess.Popen(
        [sys.executable, "manage.py", "rundev", "--addr", f"127.0.0.1:{port}"],
        cwd=settings.BASE_DIR,
        env=env,
        start_new_session=True,  # its own group, as `make run` in a terminal
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(1200):  # up to two minutes on a busy machine
            started = _descendants(rundev.pid)
            if _serving(port) and len(started) >= AT_LEAST:
                break
            assert rundev.poll() is None, "rundev stopped by itself"
            time.sleep(0.1)
        time.sleep(3)  # let the workers finish starting (a signal while booting is another story)
        started = _descendants(rundev.pid)

        os.killpg(rundev.pid, signum)
        signalled = time.monotonic()
        rundev.wait(timeout=STOPS_WITHIN + 1)
        while any(_running(p) for p in started) and time.monotonic() - signalled < STOPS_WITHIN + 1:
            time.sleep(0.05)
        took = time.monotonic() - signalled
    finally:  # whatever happened, leave nothing running
        for pid in [rundev.pid, *started]:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
        rundev.wait()

    assert len(started) >= AT_LEAST
    assert not [p for p in started if _running(p)]
    assert took < STOPS_WITHIN
