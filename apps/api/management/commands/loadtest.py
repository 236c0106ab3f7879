"""``manage.py loadtest``: the load benchmark of the API under gunicorn (``bench.loadtest``)."""

from bench.loadtest import Command

__all__ = ["Command"]
