"""A gunicorn config file that profiles every worker with cProfile (for ``loadtest --gunicorn-config``).

Each worker profiles (CPU time) from its fork to its exit and writes ``<dir>/worker-<pid>.prof``, where
``<dir>`` is ``$BAOGAME_PROFILE_DIR`` (default: the current folder). Combine and print them with
``python -m bench.profiles.summarise <dir>``.
"""

from __future__ import annotations

import cProfile
import os
import time
from pathlib import Path
from typing import Any

#: CPU time, not wall time: on a shared machine waiting for the CPU would dominate a wall-clock profile.
_profiler = cProfile.Profile(time.process_time)


def post_fork(server: Any, worker: Any) -> None:
    _profiler.enable()


def worker_exit(server: Any, worker: Any) -> None:
    _profiler.disable()
    folder = Path(os.environ.get("BAOGAME_PROFILE_DIR", "."))
    folder.mkdir(parents=True, exist_ok=True)
    _profiler.dump_stats(str(folder / f"worker-{os.getpid()}.prof"))
