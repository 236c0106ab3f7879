"""Chaos: real workers and beat on a Redis server of this test's own, PostgreSQL; bot games and
short-clock human games play while Redis is stopped for 20 s (and comes back empty) and then the
workers are killed with SIGKILL and started again.

Afterwards every game replays from its seed and move log to its stored state, no timeout was applied
twice or later than the sweep interval (counted from when the workers were back for deadlines whose
sweep fell while they were away), every bot resumed within a minute, every notification was sent once, and
/healthz answered 503 while the workers were gone.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.utils import timezone

from apps.games import clock, heartbeats, lifecycle
from apps.games.models import Decision, Game, Heartbeat, Move
from apps.notifications.models import Notification
from baogame.celery import BACKGROUND, DEADLINES, PEOPLE
from baogame.rules.registry import get_engine
from tests.factories import UserFactory
from tests.support.celery_worker import ROOT, CeleryWorker, database_url, publishing_to

pytestmark = [pytest.mark.chaos, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def _free_port() -> int:
    """A TCP port nothing listens on now (several test runs on one machine must not share a Redis)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


PORT = int(os.environ.get("CHAOS_REDIS_PORT") or 0) or _free_port()
BROKER = f"redis://127.0.0.1:{PORT}/0"
SWEEP_INTERVAL = 2  # seconds: GAMES_SWEEP_INTERVAL of the beat and workers
SHORT = {key: 4 for key in ("setup", "turn", "reaction", "ability", "finish", "tribute", "declare")}
SETTINGS = {
    "GAMES_SWEEP_INTERVAL": str(SWEEP_INTERVAL),
    "GAMES_BOT_STALL": "5",
    "HEALTHZ_MAX_AGE": "6",
    "NOTIFICATIONS_PENDING_RETRY": "5",
    "NOTIFICATIONS_OUTBOX_RETRY": "5",
    "NOTIFICATIONS_CLAIM_TIMEOUT": "10",
}


class RedisServer:
    """A redis-server of this test's own, without persistence: a restart starts it empty."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        for _ in range(100):
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server could not start on port {PORT} (in use?)")
            try:
                redis.Redis(port=PORT, socket_connect_timeout=0.2).ping()
                return
            except redis.ConnectionError:
                time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None


class Beat:
    """``celery beat`` on the database scheduler, with the workers' environment."""

    def __init__(self, env: dict[str, str], schedule: Path) -> None:
        self.env, self.schedule = env, schedule
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [sys.executable, "-m", "celery", "-A", "baogame", "beat", "--loglevel=INFO"]
        with open(self.schedule.with_suffix(".log"), "ab") as log:
            self.process = subprocess.Popen(
                cmd,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def log(self, lines: int = 40) -> str:
        path = self.schedule.with_suffix(".log")
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process = None


@pytest.fixture
def chaos(tmp_path: Path, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Redis on its own port, one worker per queue as in production (README) and beat."""
    if connection.vendor != "postgresql":
        pytest.skip("the chaos test needs PostgreSQL (set DATABASE_URL)")
    if shutil.which("redis-server") is None:
        pytest.skip("the chaos test needs redis-server")
    from baogame.celery import app

    prefix = f"chaos-{uuid.uuid4().hex[:8]}"
    mail_dir = tmp_path / "mail"
    extra = {**SETTINGS, "EMAIL_URL": f"file://{mail_dir}", "BAOGAME_VAR_DIR": str(tmp_path / "var")}
    redis_server = RedisServer()
    redis_server.start()
    workers = [
        CeleryWorker(
            queue=prefix,
            db_url=database_url(),
            broker_url=BROKER,
            extra_env=extra,
            kinds=kinds,
            production=True,
        )
        for kinds in ((DEADLINES,), (PEOPLE,), (BACKGROUND,))
    ]
    beat = Beat(workers[0].env(), tmp_path / "beat")
    here = override_settings(
        CELERY_QUEUE_PREFIX=f"{prefix}-", HEALTHZ_MAX_AGE=int(SETTINGS["HEALTHZ_MAX_AGE"])
    )
    with publishing_to(app, BROKER, f"{prefix}-people"), here:
        try:
            for worker in workers:
                worker.start()
            beat.start()
            yield {"redis": redis_server, "workers": workers, "beat": beat, "mail": mail_dir}
        finally:
            beat.stop()
            for worker in workers:
                worker.kill()
            redis_server.stop()


class Watch:
    """What the test samples while the games play: decision deadlines and /healthz answers."""

    def __init__(self) -> None:
        self.deadlines: dict[tuple[int, int, str], datetime] = {}
        self.health: list[tuple[float, int, dict[str, Any]]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        client = Client()
        while not self.stop.is_set():
            for game_id, seat, decision_id, deadline in Decision.objects.filter(
                deadline__isnull=False
            ).values_list("game_id", "seat", "decision_id", "deadline"):
                self.deadlines[(game_id, seat, decision_id)] = deadline
            response = client.get("/healthz")
            self.health.append((time.monotonic(), response.status_code, response.json()))
            connection.close()
            self.stop.wait(0.5)


def _heartbeat_since(moment: datetime, workers: list[CeleryWorker], beat: Beat) -> datetime:
    """Wait until every queue's worker has recorded a heartbeat after ``moment``, and a sweep has run to
    its end (settling everything then overdue), begun after it; returns when."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        dead = [w for w in workers if w.process is None or w.process.poll() is not None]
        assert not dead, "a worker died:\n" + "\n".join(dead[0].log[-40:])
        beats = dict(Heartbeat.objects.values_list("name", "at"))
        names = [f"worker:{q}" for q in (DEADLINES, PEOPLE, BACKGROUND)] + [heartbeats.SWEEP]
        if all(beats.get(n) and beats[n] > moment for n in names):
            return timezone.now()
        connection.close()
        time.sleep(0.5)
    logs = [f"worker {w.queues}:\n" + "\n".join(w.log[-30:]) for w in workers]
    raise AssertionError("the workers did not come back:\n" + "\n".join(logs) + "\nbeat:\n" + beat.log())


def test_games_survive_a_redis_outage_and_killed_workers(chaos: dict[str, Any]) -> None:
    redis_server, workers = chaos["redis"], chaos["workers"]
    humans = [UserFactory() for _ in range(4)]
    bot_games = [
        lifecycle.game_create(
            creator=None, engine="baobei", players=3, creator_seat=False, bots=3, options={"threshold": 1000}
        )
        for _ in range(2)
    ]
    mixed = lifecycle.game_create(
        creator=humans[0], engine="baobei", players=3, bots=2, timing_overrides=SHORT, absent_limit=1000
    )
    people = lifecycle.game_create(
        creator=humans[1], engine="baobei", players=3, timing_overrides=SHORT, absent_limit=1000
    )
    for user in humans[2:]:
        lifecycle.game_join(game_id=people.pk, user=user)
    games = [*bot_games, mixed, people]
    watch = Watch()
    watch.thread.start()
    away: list[tuple[datetime, datetime]] = []  # when the workers could not work: (from, back)
    try:
        time.sleep(10)
        stopped = timezone.now()
        redis_server.stop()
        time.sleep(20)
        redis_server.start()
        away.append((stopped, _heartbeat_since(stopped + timedelta(seconds=20), workers, chaos["beat"])))
        dead = [w for w in workers if w.process is None or w.process.poll() is not None]
        assert not dead, "a worker died in the Redis outage:\n" + "\n".join(dead[0].log[-30:])

        killed = timezone.now()
        for worker in workers:
            worker.kill()
        time.sleep(12)
        for worker in workers:
            worker.start()
        restarted = timezone.now()
        away.append((killed, _heartbeat_since(restarted, workers, chaos["beat"])))

        def bots_resumed() -> bool:
            return all(
                g.status != Game.Status.ACTIVE
                or Move.objects.filter(game=g, by_bot=True, created_at__gt=restarted).exists()
                for g in Game.objects.filter(pk__in=[bot_games[0].pk, bot_games[1].pk, mixed.pk])
            )

        try:
            workers[0].wait_for(bots_resumed, timeout=60, every=1)
        except AssertionError:
            stuck = [
                (g.pk, g.status, g.version, g.bot_task, list(g.decisions.values_list("seat", "opened_at")))
                for g in Game.objects.filter(pk__in=[bot_games[0].pk, bot_games[1].pk, mixed.pk])
            ]
            raise AssertionError(f"bots did not resume within a minute of {restarted:%X}: {stuck}") from None
        for game in games:  # stop play, so that the mails already due can be counted
            if Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE:
                clock.game_pause(game_id=game.pk, by=None, reason="chaos test over")
        time.sleep(2 * SWEEP_INTERVAL)
        workers[0].wait_for(
            lambda: (
                not Notification.objects.filter(
                    status__in=[Notification.Status.PENDING, Notification.Status.SENDING]
                ).exists()
            ),
            timeout=30,
            every=1,
        )
    finally:
        watch.stop.set()
        watch.thread.join(10)
        chaos["beat"].stop()
        for worker in workers:
            worker.stop()  # the games stand still while they are checked

    for game in games:
        _assert_replays(game)
    _assert_timeouts_once_and_on_time(games, watch.deadlines, away)
    _assert_every_notification_sent_once(chaos["mail"])
    killed, back = away[1]
    while_gone = [
        code for at, code, _ in watch.health if _wall(at) > killed + timedelta(seconds=8) and _wall(at) < back
    ]
    assert 503 in while_gone
    assert watch.health[-1][1] == 200, watch.health[-1]


_MONO0, _WALL0 = time.monotonic(), timezone.now()


def _wall(monotonic: float) -> datetime:
    return _WALL0 + timedelta(seconds=monotonic - _MONO0)


def _assert_replays(game: Game) -> None:
    """The game rebuilt from its seed and move log is its stored state (DESIGN.md, determinism)."""
    game.refresh_from_db()
    engine = get_engine(game.engine)
    state = engine.setup(game.players, game.options, game.seed)
    for move in Move.objects.filter(game=game).order_by("seq"):
        state, _ = engine.apply(state, move.seat, move.action)
    assert json.loads(json.dumps(state)) == game.state, f"game {game.pk} does not replay"


def _assert_timeouts_once_and_on_time(
    games: list[Game], deadlines: dict[tuple[int, int, str], datetime], away: list[tuple[datetime, datetime]]
) -> None:
    """Each timeout once, and none applied more than the sweep interval late.

    A deadline's own task settles it on time; when that task is lost, the first sweep after the deadline
    settles it, at most one interval later. When the workers were away at any time from the deadline to
    one interval after it (the sweep that was to catch it fell while they were gone), the lateness
    counts from when they were back.
    """
    timeouts = list(Move.objects.filter(game__in=games, by_timeout=True, by_bot=False))
    assert timeouts, "no timeout was applied"
    keys = [(m.game_id, m.seat, m.action.get("decision_id")) for m in timeouts]
    assert len(keys) == len(set(keys)), "a timeout was applied twice"
    interval = timedelta(seconds=SWEEP_INTERVAL)
    lateness = []
    for move, key in zip(timeouts, keys, strict=True):
        deadline = deadlines.get(key)
        if deadline is None:
            continue  # opened and settled between two samples: on time
        due = deadline
        for start, back in sorted(away):  # in order: a second outage may begin as soon as the first ends
            if start <= due + interval and due <= back:
                due = back  # nothing but a page view could settle it before they were back
        late = (move.created_at - due).total_seconds()
        lateness.append(late)
        assert late <= SWEEP_INTERVAL, (
            f"timeout {key} applied {late:.1f} s late: deadline {deadline:%H:%M:%S.%f}, applied "
            f"{move.created_at:%H:%M:%S.%f}, workers away {[(f'{a:%X}', f'{b:%X}') for a, b in away]}"
        )
    lateness.sort()
    assert lateness, "no timeout's deadline was sampled"
    print(  # noqa: T201 - the figures of a run (pytest -s shows them)
        f"chaos: {len(timeouts)} timeouts, {len(lateness)} with a sampled deadline; lateness (s) "
        f"median {lateness[len(lateness) // 2]:.2f}, max {lateness[-1]:.2f}; sweep interval {SWEEP_INTERVAL}"
    )


def _assert_every_notification_sent_once(mail_dir: Path) -> None:
    sent = Notification.objects.filter(status=Notification.Status.SENT)
    reclaimed = sent.filter(last_error__startswith="Reclaimed").count()  # the documented at-least-once case
    mails = sum(p.read_text(errors="replace").count("\nMessage-ID: ") for p in mail_dir.glob("*"))
    assert sent.count() > 0
    assert sent.count() <= mails <= sent.count() + reclaimed
    assert not Notification.objects.exclude(  # merged: went out within another's mail (one per burst)
        status__in=[Notification.Status.SENT, Notification.Status.SKIPPED, Notification.Status.MERGED]
    ).exists()
