"""``manage.py rundev``: the web server, Celery workers and beat, together; Ctrl-C stops all.

One worker per urgency class (``baogame.celery``), as in production, so a deadline or the bots of a
game where a person waits are never stuck behind all-bot play: ``deadlines`` (with the embedded beat),
``people`` and ``background``.

**Stopping is bounded.** Each child runs in its own process group, so the terminal's Ctrl-C (SIGINT to
the foreground group) or a SIGTERM to ``make run``'s group reaches this command alone, which then stops
every child's whole group (a prefork worker's pool processes too) in steps: SIGTERM (Celery's warm
shutdown: the task in hand finishes), SIGQUIT after ``GRACE`` seconds (Celery's cold shutdown), SIGKILL
at ``STOP_WITHIN``. Everything is gone within ``STOP_WITHIN`` seconds of the signal; a task cut short is
re-queued by the sweep, as after any crash.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import DatabaseError

from apps.accounts.site import site_serve_at
from apps.games.signals import dev_server_starting
from baogame.celery import BACKGROUND, DEADLINES, PEOPLE, queue_name


def worker_commands(py: str, var_dir: Path) -> list[list[str]]:
    """The worker command of each queue; the deadlines worker also runs the beat."""
    common = [
        py,
        "-m",
        "celery",
        "-A",
        "baogame",
        "worker",
        "--loglevel=INFO",
        "--without-gossip",
        "--without-mingle",
    ]
    return [
        [
            *common,
            "--pool=solo",
            "-Q",
            queue_name(DEADLINES),
            "-n",
            "deadlines@%h",
            "--beat",
            "--schedule",
            str(var_dir / "celerybeat-schedule"),
        ],
        [*common, "--concurrency=2", "-Q", queue_name(PEOPLE), "-n", "people@%h"],
        [*common, "--pool=solo", "-Q", queue_name(BACKGROUND), "-n", "background@%h"],
    ]


#: Seconds from SIGTERM to SIGQUIT (warm, then cold shutdown), and from the signal to SIGKILL.
GRACE = 1.5
STOP_WITHIN = 3.5


class Stop(Exception):
    """A stop signal arrived (SIGINT, SIGTERM or SIGHUP)."""


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise Stop(signal.Signals(signum).name)


def _signal_group(proc: subprocess.Popen[bytes], signum: int) -> None:
    """Send ``signum`` to the child's process group (the child and any processes it started)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signum)


def _group_alive(proc: subprocess.Popen[bytes]) -> bool:
    """Whether the child, or any process left in its group, still runs."""
    if proc.poll() is None:
        return True
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of the group that is not ours (never here): count it alive
        return True
    return True


def stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    """Stop every child's group: SIGTERM, SIGQUIT after ``GRACE``, SIGKILL at ``STOP_WITHIN``."""
    start = time.monotonic()
    steps = [(0.0, signal.SIGTERM), (GRACE, signal.SIGQUIT), (STOP_WITHIN - 0.5, signal.SIGKILL)]
    for at, signum in steps:
        while time.monotonic() - start < at and any(_group_alive(p) for p in procs):
            time.sleep(0.05)
        alive = [p for p in procs if _group_alive(p)]
        if not alive:
            break
        for p in alive:
            _signal_group(p, signum)
    for p in procs:
        try:
            p.wait(timeout=max(0.05, STOP_WITHIN - (time.monotonic() - start)))
        except subprocess.TimeoutExpired:
            _signal_group(p, signal.SIGKILL)
            p.wait()


def child_env(addr: str, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of the web server and the workers: the caller's, and unless it sets ``SITE_URL``
    the address served (``--addr``), so that the links of the mails the workers write (the game, "Open
    the game", unsubscribing) lead to this server rather than to the default 127.0.0.1:8000."""
    env = dict(os.environ if environ is None else environ)
    if not env.get("SITE_URL"):
        env["SITE_URL"] = f"http://{addr}"
    return env


def serve_site_at(addr: str) -> bool:
    """The ``Site`` row names the address served (``child_env``'s ``SITE_URL``) while it is still a
    development one, so the sign-up confirmation mail (django-allauth reads the row) names this server,
    not 127.0.0.1:8000; an operator's row is left alone. False when nothing changed, or the database is
    not migrated yet (``migrate`` then syncs the row)."""
    try:
        return site_serve_at(child_env(addr)["SITE_URL"])
    except DatabaseError:
        return False


class Command(BaseCommand):
    help = "Serve the site on 127.0.0.1:8000 with Celery workers and beat (development)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--addr", default="127.0.0.1:8000")

    def handle(self, *args: Any, addr: str, **options: Any) -> None:
        for _, said in dev_server_starting.send(sender=self.__class__, var_dir=settings.VAR_DIR):
            if said:
                self.stdout.write(str(said))
        serve_site_at(addr)
        (settings.VAR_DIR / "celery" / "queue").mkdir(parents=True, exist_ok=True)
        (settings.VAR_DIR / "celery" / "processed").mkdir(parents=True, exist_ok=True)
        py = sys.executable
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, _raise_stop)
        procs: list[subprocess.Popen[bytes]] = []
        try:
            web = [py, "manage.py", "runserver", addr, "--noreload"]
            commands = [*worker_commands(py, settings.VAR_DIR), web]
            for command in commands:
                # Its own process group: the terminal's Ctrl-C reaches this command only, which stops
                # the children in bounded steps (``stop_all``).
                procs.append(subprocess.Popen(command, start_new_session=True, env=child_env(addr)))
            self.stdout.write(
                self.style.SUCCESS(f"\n  baogame is running at http://{addr}/  (Ctrl-C stops it)\n")
            )
            while all(p.poll() is None for p in procs):
                time.sleep(0.5)
        except (Stop, KeyboardInterrupt):
            pass
        finally:
            for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                signal.signal(signum, signal.SIG_IGN)  # a second Ctrl-C does not cut the stopping short
            self.stdout.write("Stopping the web server, the workers and beat …")
            stop_all(procs)
