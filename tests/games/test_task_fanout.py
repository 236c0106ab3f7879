"""Task fan-out on a REAL worker (Redis, PostgreSQL): all-bot games play in the background queue with a
queue length bounded by a small constant per game, and queue no mail tasks."""

from __future__ import annotations

import threading
import time

import pytest
import redis

from apps.games import lifecycle
from apps.games.models import Game
from tests.support.celery_worker import (
    BROKER_URL,
    celery_worker,  # noqa: F401 - the module-scoped fixture
)

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

GAMES = 4
#: Messages per game the queues may hold at any time: its bot task, a continuation, a deadline task.
PER_GAME = 3


def _queued(client: redis.Redis, prefix: str) -> int:
    """Messages waiting in the worker's queues (every priority list of every queue)."""
    return sum(client.llen(key) for key in client.scan_iter(f"{prefix}-*") if client.type(key) == b"list")


def test_all_bot_games_finish_with_a_queue_bounded_per_game(celery_worker) -> None:  # noqa: F811
    client = redis.Redis.from_url(BROKER_URL)
    samples: list[int] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            samples.append(_queued(client, celery_worker.queue))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    games = [
        lifecycle.game_create(
            creator=None, engine="baobei", players=3, creator_seat=False, bots=3, options={"threshold": 8}
        )
        for _ in range(GAMES)
    ]
    try:
        celery_worker.wait_for(
            lambda: (
                Game.objects.filter(pk__in=[g.pk for g in games], status=Game.Status.FINISHED).count()
                == GAMES
            ),
            timeout=240,
            every=0.5,
        )
    finally:
        stop.set()
        sampler.join(5)

    assert max(samples) <= PER_GAME * GAMES, max(samples)
    assert Game.objects.filter(pk__in=[g.pk for g in games], bot_task__isnull=False).count() == 0


def test_an_all_bot_game_plays_in_the_background_queue_and_queues_no_mail(celery_worker, settings) -> None:  # noqa: F811
    from apps.games import scheduling
    from apps.notifications import outbox

    sent: list[str] = []
    original = scheduling.publish

    def recording(name, args=(), *, queue=None, eta=None):  # the real publish, recorded
        sent.append(f"{name}->{queue}")
        return original(name, args, queue=queue, eta=eta)

    scheduling.publish = outbox.publish = recording  # mails are queued through the outbox
    try:
        game = lifecycle.game_create(creator=None, engine="baobei", players=2, creator_seat=False, bots=2)
    finally:
        scheduling.publish = outbox.publish = original
    celery_worker.wait_for(lambda: Game.objects.get(pk=game.pk).version > 0, timeout=60)
    # Let the game finish: a worker still writing would deadlock with the teardown's TRUNCATE.
    celery_worker.wait_for(lambda: Game.objects.get(pk=game.pk).is_over, timeout=180)

    assert sent == ["apps.games.tasks.play_bots->background"]
