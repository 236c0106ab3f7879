"""``manage.py rehearsal``: two web nodes, two workers and beat on one machine, a node and a worker killed
mid-run, then every game checked (``bench.rehearsal``)."""

from bench.rehearsal import Command

__all__ = ["Command"]
