"""A REAL Celery worker for task tests: a subprocess on Redis, using pytest-django's test database.

Use it from a test module (one worker per module keeps the suite fast)::

    from tests.support.celery_worker import celery_worker  # noqa: F401  (the fixture)

    pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

    def test_something(celery_worker):
        ...  # commit rows; tasks the code enqueues (on commit) now run in the worker
        celery_worker.wait_for(lambda: Move.objects.filter(...).exists())

What the fixture does:

* starts ``python -m celery -A baogame worker --pool=solo`` with ``DATABASE_URL`` naming the SAME
  database pytest-django created (``test_…``), ``CELERY_BROKER_URL`` = ``CELERY_TEST_BROKER_URL``
  (default ``redis://127.0.0.1:6379/2``), ``CELERY_TASK_ALWAYS_EAGER=0``, a short visibility timeout
  (3 s, so a message a killed worker held comes back quickly) and queues of its own: the urgency
  queues of ``baogame.celery`` under a ``CELERY_QUEUE_PREFIX`` of its own (``-Q``), so messages left
  by other runs are never consumed;
* makes this process publish for real: ``app.conf.task_always_eager = False``, the same broker URL and
  the same queue prefix; everything is restored when the module ends;
* skips the module when Redis is unreachable or the database is not PostgreSQL (a subprocess cannot
  share an SQLite test database reliably).

Under pytest-xdist (``make test`` runs in parallel) each xdist worker has its own test database
(pytest-django names it ``test_…_gw0``, ``test_…_gw1``, …) and, here, its own Redis database: the
database number of ``CELERY_TEST_BROKER_URL`` plus the worker's number (``gw1`` on ``…/2`` uses
``…/3``; see ``broker_url_for``). The queue is already unique per module; separate databases also
keep apart what kombu keeps per database: the unacked messages that any consumer of that database
restores after the visibility timeout, and the keys a purge or a killed worker leaves behind.

``celery_worker.kill()`` sends SIGKILL to the whole worker (process group) and ``start()`` starts a new
one on the same queue; ``purge()`` empties the queue. Tests must be ``transaction=True``: the worker
sees only committed rows.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import pytest
from django.test import override_settings

from baogame.celery import QUEUES

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 60.0
REDIS_DATABASES = 16  # Redis's default number of databases


def broker_url_for(url: str, xdist_worker: str | None) -> str:
    """The broker URL for this test process: ``url`` itself, or under pytest-xdist (``gw0``, ``gw1``,
    …) the Redis database ``url``'s number plus the worker's number (modulo the 16 databases)."""
    if not xdist_worker:
        return url
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = (base + int(xdist_worker.removeprefix("gw"))) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{database}"))


BROKER_URL = broker_url_for(
    os.environ.get("CELERY_TEST_BROKER_URL", "redis://127.0.0.1:6379/2"),
    os.environ.get("PYTEST_XDIST_WORKER"),
)


def database_url() -> str:
    """A ``DATABASE_URL`` for the database this test process uses now (pytest-django's test DB)."""
    from django.db import connection

    s = connection.settings_dict
    auth = quote(s.get("USER") or "")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"])
    host = s.get("HOST") or "127.0.0.1"
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{s['NAME']}"


class CeleryWorker:
    """One worker subprocess on its own queue; start, kill (SIGKILL), start again."""

    def __init__(
        self,
        *,
        queue: str,
        db_url: str,
        broker_url: str = BROKER_URL,
        extra_env: dict[str, str] | None = None,
        kinds: tuple[str, ...] = QUEUES,
        production: bool = False,
    ) -> None:
        """``production``: the README's worker (prefork pool, event heartbeats), not the lean solo worker
        the task tests use."""
        self.production = production
        self.queue = queue  # the prefix of its queues
        self.queues = [f"{queue}-{kind}" for kind in kinds]
        self.extra_env = extra_env or {}
        self.db_url = db_url
        self.broker_url = broker_url
        self.process: subprocess.Popen[str] | None = None
        self.log: list[str] = []

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        env.update(
            DJANGO_SETTINGS_MODULE="baogame.settings",
            DATABASE_URL=self.db_url,
            CELERY_BROKER_URL=self.broker_url,
            CELERY_TASK_ALWAYS_EAGER="0",
            BAOGAME_TESTING="0",
            CELERY_VISIBILITY_TIMEOUT="3",
            CELERY_UNACKED_RESTORE_INTERVAL="1",
            CELERY_UNACKED_RESTORE_THROTTLE="1",
            PYTHONUNBUFFERED="1",
            CELERY_QUEUE_PREFIX=f"{self.queue}-",
            NOTIFY_SETTLE_SECONDS="0",  # as in the test process; a test measuring it passes extra_env
        )
        env.update(self.extra_env)
        return env

    def start(self) -> None:
        """Start the worker and wait until it consumes (its "ready" log line)."""
        ready = threading.Event()
        lean = ["--pool=solo", "--without-gossip", "--without-mingle", "--without-heartbeat"]
        cmd = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "baogame",
            "worker",
            *(["--concurrency=2", "--without-gossip", "--without-mingle"] if self.production else lean),
            "-Q",
            ",".join(self.queues),
            "-n",
            f"{self.queues[0]}@%h",
            "--loglevel=INFO",
        ]
        self.process = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=self.env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group: kill() takes every child with it
        )
        process = self.process

        def pump() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                self.log.append(line.rstrip())
                if " ready." in line:
                    ready.set()

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + READY_TIMEOUT
        while not ready.wait(0.1):
            if process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("celery worker did not start:\n" + "\n".join(self.log[-40:]))

    def kill(self) -> None:
        """SIGKILL the worker and its children at once (no warm shutdown, no acks)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        """Stop the worker (TERM, then KILL after 10 s)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.process = None

    def purge(self) -> None:
        """Drop every message waiting in this worker's queue."""
        from baogame.celery import app

        with app.connection_for_write() as conn:
            for queue in self.queues:
                conn.default_channel.queue_purge(queue)

    def wait_for(
        self, condition: Callable[[], Any], timeout: float = 30.0, every: float = 0.1, *, close: bool = True
    ) -> Any:
        """Poll ``condition`` until it is truthy; between tries the DB connection is closed unless
        ``close`` is False (needed inside a transaction)."""
        from django.db import connection

        deadline = time.monotonic() + timeout
        while True:
            result = condition()
            if result:
                return result
            if time.monotonic() > deadline:
                raise AssertionError("timed out; worker log:\n" + "\n".join(self.log[-40:]))
            if close:
                connection.close()
            time.sleep(every)


def _redis_reachable(url: str) -> bool:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except Exception:
        return False
    return True


@pytest.fixture(scope="module")
def celery_worker(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[CeleryWorker]:
    """A real worker for the whole module, and this process publishing to it (see the module doc).

    A test module may set ``CELERY_WORKER_ENV`` (a dict) for the worker's environment."""
    from django.db import connection

    from baogame.celery import app

    if connection.vendor != "postgresql":
        pytest.skip("real-worker tests need PostgreSQL (set DATABASE_URL)")
    if not _redis_reachable(BROKER_URL):
        pytest.skip(f"real-worker tests need Redis at {BROKER_URL}")
    queue = f"test-{uuid.uuid4().hex[:12]}"
    worker = CeleryWorker(
        queue=queue, db_url=database_url(), extra_env=getattr(request.module, "CELERY_WORKER_ENV", None)
    )
    with (
        publishing_to(app, BROKER_URL, f"{queue}-people"),
        override_settings(
            CELERY_QUEUE_PREFIX=f"{queue}-"  # where this process publishes
        ),
    ):
        worker.start()
        try:
            yield worker
        finally:
            worker.stop()
            worker.purge()


@contextmanager
def publishing_to(app: Any, broker_url: str, default_queue: str) -> Iterator[None]:
    """This process publishing for real to ``broker_url`` (not eagerly), with ``default_queue`` as the
    default queue; the configuration, the environment and the producer pools are restored afterwards.

    Celery reads CELERY_BROKER_URL from the environment before its configuration: both point at the
    broker, or this process would publish where the worker does not listen."""
    saved = {key: app.conf.get(key) for key in ("task_always_eager", "broker_url", "task_default_queue")}
    saved_env = os.environ.get("CELERY_BROKER_URL")
    os.environ["CELERY_BROKER_URL"] = broker_url
    _reset_producer_pool(app)
    app.conf.update(task_always_eager=False, broker_url=broker_url, task_default_queue=default_queue)
    try:
        yield
    finally:
        if saved_env is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = saved_env
        _reset_producer_pool(app)
        app.conf.update(saved)


def _reset_producer_pool(app: Any) -> None:
    """Forget pooled broker connections, so the next publish uses the broker URL configured now."""
    from kombu import pools

    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None
    pools.reset()  # kombu's global producer pools are keyed by URL: drop the closed ones too
