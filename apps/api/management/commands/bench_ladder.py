"""``manage.py bench_ladder``: the move endpoint's cost, layer by layer (``bench.ladder``)."""

from bench.ladder.command import Command

__all__ = ["Command"]
