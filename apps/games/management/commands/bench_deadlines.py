"""``manage.py bench_deadlines``: the deadline settlement benchmark (``bench.deadlines``)."""

from bench.deadlines import Command

__all__ = ["Command"]
