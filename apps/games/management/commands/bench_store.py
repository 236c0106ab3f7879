"""``manage.py bench_store``: the hot reads and writes of a move on both paths (``bench.store``)."""

from bench.store import Command

__all__ = ["Command"]
