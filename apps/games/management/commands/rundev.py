"""``manage.py rundev``: the web server, a Celery worker and beat, together; Ctrl-C stops all."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve the site on 127.0.0.1:8000 with a Celery worker and beat (development)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--addr", default="127.0.0.1:8000")

    def handle(self, *args: Any, addr: str, **options: Any) -> None:
        (settings.VAR_DIR / "celery" / "queue").mkdir(parents=True, exist_ok=True)
        (settings.VAR_DIR / "celery" / "processed").mkdir(parents=True, exist_ok=True)
        py = sys.executable
        procs = [
            subprocess.Popen(
                [
                    py,
                    "-m",
                    "celery",
                    "-A",
                    "baogame",
                    "worker",
                    "--beat",
                    "--loglevel=INFO",
                    "--concurrency=2",
                    "--schedule",
                    str(settings.VAR_DIR / "celerybeat-schedule"),
                ]
            ),
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
