"""``manage.py rundev``: the web server, Celery workers and beat, together; Ctrl-C stops all.

One worker per urgency class (``baogame.celery``), as in production, so a deadline or the bots of a
game where a person waits are never stuck behind all-bot play: ``deadlines`` (with the embedded beat),
``people`` and ``background``.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

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


class Command(BaseCommand):
    help = "Serve the site on 127.0.0.1:8000 with Celery workers and beat (development)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--addr", default="127.0.0.1:8000")

    def handle(self, *args: Any, addr: str, **options: Any) -> None:
        for _, said in dev_server_starting.send(sender=self.__class__, var_dir=settings.VAR_DIR):
            if said:
                self.stdout.write(str(said))
        (settings.VAR_DIR / "celery" / "queue").mkdir(parents=True, exist_ok=True)
        (settings.VAR_DIR / "celery" / "processed").mkdir(parents=True, exist_ok=True)
        py = sys.executable
        procs = [
            *(subprocess.Popen(command) for command in worker_commands(py, settings.VAR_DIR)),
            subprocess.Popen([py, "manage.py", "runserver", addr, "--noreload"]),
        ]
        self.stdout.write(
            self.style.SUCCESS(f"\n  baogame is running at http://{addr}/  (Ctrl-C stops it)\n")
        )
        try:
            while all(p.poll() is None for p in procs):
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            for p in procs:
                if p.poll() is None:
                    p.send_signal(signal.SIGINT)
            deadline = time.time() + 10
            for p in procs:
                try:
                    p.wait(timeout=max(0.1, deadline - time.time()))
                except subprocess.TimeoutExpired:
                    p.kill()
