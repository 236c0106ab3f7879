"""Print the top functions of profiles: the gunicorn workers' (``gunicorn_cprofile.py``) or one file
written by ``python -m bench.profile_moves --out FILE``.

``python -m bench.profiles.summarise DIR|FILE [--top N] [--sort tottime|cumulative] [--breakdown]``

``--breakdown`` prints a Markdown table: the CPU milliseconds of the parts of a request, per call.
"""

from __future__ import annotations

import argparse
import pstats
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--sort", default="tottime", choices=["tottime", "cumulative", "ncalls"])
    parser.add_argument("--filter", default="", help="only functions whose file:line(name) matches")
    parser.add_argument("--breakdown", action="store_true", help="a table of the parts of a request")
    args = parser.parse_args(argv)
    folder = args.folder
    files = [str(folder)] if folder.is_file() else sorted(map(str, folder.glob("worker-*.prof")))
    if not files:
        sys.exit(f"no worker-*.prof in {args.folder}")
    stats = pstats.Stats(*files)
    if args.breakdown:
        breakdown(stats)
        return
    stats.strip_dirs().sort_stats(args.sort)
    if args.filter:
        stats.print_stats(args.filter, args.top)
    else:
        stats.print_stats(args.top)


#: (label, file name ending, function name) of the parts of a request worth watching.
PARTS = [
    ("a request through Django (all kinds)", "handlers/wsgi.py", "__call__"),
    ("  the view and DRF (inside the middleware)", "handlers/base.py", "_get_response"),
    ("  DRF's authentication, throttle, negotiation", "rest_framework/views.py", "initial"),
    ("  token authentication", "apps/api/authentication.py", "authenticate"),
    ("a move (POST actions)", "apps/api/views_games.py", "post"),
    ("  submit_action", "apps/games/pipeline.py", "submit_action"),
    ("  lock_game", "apps/games/store.py", "lock_game"),
    ("  engine apply and writes (pipeline.apply)", "apps/games/pipeline.py", "apply"),
    ("  after-commit receivers and tasks", "db/backends/base/base.py", "run_and_clear_commit_hooks"),
    ("    reliability record", "apps/games/reliability_signals.py", "_answered"),
    ("    webhook look-up", "apps/webhooks/signals.py", "_has_endpoints"),
    ("    Celery publish", "baogame/celery.py", "publish"),
    ("JSON rendering", "rest_framework/renderers.py", "render"),
    ("a /legal (GET)", "apps/api/views_games.py", "get"),
]


def breakdown(stats: pstats.Stats) -> None:
    """The cumulative CPU milliseconds per call of each part in ``PARTS`` that the profile holds."""
    entries = stats.stats  # type: ignore[attr-defined]
    print("| part | calls | ms per call (profiler on) |")
    print("|---|---:|---:|")
    for label, ending, name in PARTS:
        found = [
            (calls, cumulative)
            for (path, _, function), (_, calls, _, cumulative, _) in entries.items()
            if function == name and path.endswith(ending)
        ]
        if ending.endswith("views_games.py"):  # several views: the hottest is the one meant
            found = sorted(found, key=lambda f: -f[1])[:1]
        calls = sum(c for c, _ in found)
        if calls:
            print(f"| {label} | {calls} | {sum(t for _, t in found) * 1000 / calls:.2f} |")


if __name__ == "__main__":
    main()
