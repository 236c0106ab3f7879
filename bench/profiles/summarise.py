"""Print the top functions of the worker profiles written by ``gunicorn_cprofile.py``.

``python -m bench.profiles.summarise DIR [--top N] [--sort tottime|cumulative]``
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
    args = parser.parse_args(argv)
    files = sorted(str(p) for p in args.folder.glob("worker-*.prof"))
    if not files:
        sys.exit(f"no worker-*.prof in {args.folder}")
    stats = pstats.Stats(*files)
    stats.strip_dirs().sort_stats(args.sort)
    if args.filter:
        stats.print_stats(args.filter, args.top)
    else:
        stats.print_stats(args.top)


if __name__ == "__main__":
    main()
