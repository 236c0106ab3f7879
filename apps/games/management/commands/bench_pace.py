"""``manage.py bench_pace``: the pace benchmark (``bench.pace.command``)."""

from bench.pace.command import Command

__all__ = ["Command"]
