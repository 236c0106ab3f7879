"""Benchmarks: the engines (``engines``), deadline settlement (``deadlines``) and the API under load
(``loadtest``). Each prints its figures, then one JSON line; docs/benchmarks.md has them.
``rehearsal`` (with ``rehearsal_checks``) plays two web nodes, two workers and beat with a node and a
worker killed, and checks every game; ``apiclient`` holds what it shares with ``loadtest``.

The engines run as ``python -m bench.engines``; ``manage.py bench_deadlines`` and
``manage.py loadtest`` are thin wrappers around these modules, as is ``manage.py rehearsal``.
``profile_moves`` and ``profiles/`` profile a move request (``profiles/README.md``); ``ladder`` serves
a move request's work in steps from the stack's floor to the site (``manage.py bench_ladder``).
"""
