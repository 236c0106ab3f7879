"""Benchmarks: the engines (``engines``), deadline settlement (``deadlines``) and the API under load
(``loadtest``). Each prints its figures, then one JSON line; the README's "Benchmarks" table has them.

They run under their old names: ``python -m baogame.rules.bench``, ``manage.py bench_deadlines`` and
``manage.py loadtest`` are thin wrappers around these modules. ``profile_moves`` and ``profiles/``
profile a move request (``profiles/README.md``).
"""
