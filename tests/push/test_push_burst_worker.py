"""One Web Push message per burst on a REAL worker (Redis broker, PostgreSQL): the page scenario.

The worker starts the bursts (the move signal's task), sends each at its ETA and the bots answer in the
worker too; the local push service on 127.0.0.1 decrypts what it gets with the browser's keys. The
settle time is short here (the worker's real clock runs); the behaviour on a moved clock is in
test_push_burst.py.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from typing import Any

import pytest
from django.test import Client

from apps.games import pipeline
from apps.games.models import Decision, Game
from apps.push.models import PushBurst
from apps.push.vapid import generate
from baogame.rules.registry import get_bots, get_engine
from tests.factories import GameFactory, UserFactory
from tests.support.celery_worker import celery_worker  # noqa: F401 - the module-scoped fixture
from tests.support.receivers import push_service

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

SETTLE = 8
KEYS = generate()
CELERY_WORKER_ENV = {
    "NOTIFY_SETTLE_SECONDS": str(SETTLE),
    "VAPID_PUBLIC_KEY": KEYS["public_key"],
    "VAPID_PRIVATE_KEY": KEYS["private_key"],
    "WEBHOOKS_ALLOW_PRIVATE": "1",
    "WEBHOOKS_ALLOW_HTTP": "1",
    "EMAIL_URL": f"file://{tempfile.mkdtemp(prefix='push-burst-mail-')}",
}


def _open_for(game: Game, seat: int) -> Decision | None:
    return Decision.objects.filter(game=game, seat=seat).first()


def test_BH_page_play_with_bots_answering_on_the_worker_gives_one_push(
    celery_worker: Any,  # noqa: F811
    settings: Any,
) -> None:
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = KEYS["public_key"], KEYS["private_key"]
    settings.WEBHOOKS_ALLOW_PRIVATE = settings.WEBHOOKS_ALLOW_HTTP = True
    player = UserFactory()
    with push_service() as service:
        client = Client()
        client.force_login(player)
        answer = client.post("/push/subscriptions/", json.dumps(service.subscription()), "application/json")
        assert answer.status_code == 201
        game = GameFactory(engine="baohuang", players=5, bots=4, seated=[player])
        seat = game.seats.get(user=player).position
        engine, (bots, default) = get_engine("baohuang"), get_bots("baohuang")
        rng = random.Random("worker-burst")

        started = time.monotonic()
        for _ in range(3):  # the player plays on the page each time the bots hand back
            celery_worker.wait_for(lambda: _open_for(game, seat) is not None, timeout=30)
            game.refresh_from_db()
            action = bots[default](engine.view(game.state, seat), rng)
            pipeline.submit_action(game_id=game.pk, user=player, action=action)
        celery_worker.wait_for(lambda: _open_for(game, seat) is not None, timeout=30)
        if time.monotonic() - started < SETTLE:  # the moves came inside one burst: nothing yet
            assert service.received == []

        service.wait_for(1, timeout=SETTLE + 60)
        celery_worker.wait_for(lambda: not PushBurst.objects.filter(user=player).exists(), timeout=30)
        time.sleep(2)  # a second message, were one coming, would be on its way by now

        [got] = service.received
        notice = json.loads(got.plaintext or b"")
        assert notice["game"] == game.public_id
        open_now = Decision.objects.filter(game=game, seat=seat).order_by("deadline", "decision_id")
        assert notice["decisions"] == [
            {"kind": d.kind, "deadline": d.deadline.isoformat() if d.deadline else None} for d in open_now
        ]
        assert notice["decisions"]  # the player's turn, open again when the burst went out
