"""The web process imports the apps' task modules on its first ``publish``: threads that publish at once
(gunicorn's threaded workers) each find their task registered (``baogame.celery.import_task_modules``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run in a fresh process, where no task module has been imported yet: eight threads ask at once.
SCRIPT = """
import threading
import django
django.setup()
from baogame.celery import app, import_task_modules

name = "apps.notifications.tasks.drain_outbox"
assert "apps.notifications.tasks" not in __import__("sys").modules
start = threading.Barrier(8)
found = []

def ask():
    start.wait()
    import_task_modules()
    found.append(name in app.tasks)

threads = [threading.Thread(target=ask) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sum(found), len(found))
"""


def test_threads_publishing_first_at_once_each_find_their_task_registered() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "baogame.settings"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["8", "8"]
