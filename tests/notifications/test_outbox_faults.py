"""Fault tests of the one outbox, on PostgreSQL and a REAL Celery worker (Redis).

* Moves committed while the broker is unreachable answer as usual and write their outbox rows (mail,
  webhook, push); once the broker is back, the sweep queues them again and every mail, webhook event and
  push notice arrives exactly once per id.
* A worker killed in the middle of a webhook POST: nothing is lost (the claim lapses, the sweep sends
  the event again) and the repeat carries the same id.
"""

from __future__ import annotations

import email
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from apps.games import lifecycle, pipeline
from apps.games.models import Game
from apps.notifications import send as notifications
from apps.notifications.models import MoveMailOutbox, Notification
from apps.push import services as push_services
from apps.push.models import PushMessage
from apps.push.vapid import generate
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookDelivery
from baogame.rules.registry import get_bots, get_engine
from tests.factories import GameFactory, UserFactory
from tests.notifications.test_move_mail_outbox import broker_down
from tests.support.celery_worker import celery_worker  # noqa: F401 - the module-scoped fixture
from tests.support.receivers import push_service, webhook_receiver

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

KEYS = generate()
MAIL_DIR = Path(tempfile.mkdtemp(prefix="outbox-faults-mail-"))
CELERY_WORKER_ENV = {
    "VAPID_PUBLIC_KEY": KEYS["public_key"],
    "VAPID_PRIVATE_KEY": KEYS["private_key"],
    "WEBHOOKS_ALLOW_PRIVATE": "1",
    "WEBHOOKS_ALLOW_HTTP": "1",
    "WEBHOOKS_RETRY_SECONDS": "1",
    "EMAIL_URL": f"file://{MAIL_DIR}",
}


@pytest.fixture(autouse=True)
def _site(settings: Any) -> None:
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = KEYS["public_key"], KEYS["private_key"]
    settings.WEBHOOKS_ALLOW_PRIVATE = settings.WEBHOOKS_ALLOW_HTTP = True


def _mails(to: set[str]) -> list[email.message.Message]:
    """The mails the worker wrote to these addresses (the file backend: messages separated by a line of
    dashes). The folder is the module's: under pytest-xdist's work stealing another test of the module
    may have run first in this process, its mails beside these."""
    found = []
    for path in MAIL_DIR.glob("*.log"):
        for chunk in path.read_text().split("-" * 79):
            if chunk.strip():
                found.append(email.message_from_string(chunk.strip()))
    return [m for m in found if str(m["To"]) in to]


def _age_outbox(settings: Any) -> None:
    MoveMailOutbox.objects.update(
        queued_at=timezone.now() - timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY + 1)
    )


def _play(game: Game, users: list[Any], moves: int) -> int:
    """Each person with an open decision makes it (the default bot's choice), ``moves`` times."""
    engine, (bots, default) = get_engine("baobei"), get_bots("baobei")
    import random

    rng, made = random.Random("outbox-faults"), 0
    for _ in range(moves):
        game.refresh_from_db()
        seat = next(
            s
            for s in game.seats.select_related("user")
            if engine.view(game.state, s.position).get("decision")
        )
        action = bots[default](engine.view(game.state, seat.position), rng)
        pipeline.submit_action(game_id=game.pk, user=seat.user, action=action)
        made += 1
    return made


def test_effects_of_moves_committed_while_the_broker_was_down_arrive_once_each_when_it_is_back(
    celery_worker: Any,  # noqa: F811
    settings: Any,
) -> None:
    users = [UserFactory(), UserFactory()]
    with webhook_receiver() as hooks, push_service() as browser:
        for user in users:
            webhook_services.endpoint_create(user=user, url=f"{hooks.origin}/{user.pk}", secret="s" * 20)
        for user in users:
            push_services.subscription_save(user=user, **_keys(browser.subscription(f"u{user.pk}")))
        game = GameFactory(engine="baobei", players=2, seated=users[:1])

        with broker_down():  # the join deals (BB-3: both seats owe a setup peek), then a move
            lifecycle.game_join(game_id=game.pk, user=users[1])
            _play(game, users, 1)

        channels = set(MoveMailOutbox.objects.filter(game=game).values_list("channel", flat=True))
        assert channels == {"mail", "webhook", "push"}  # every effect recorded by the moves themselves
        assert hooks.received == [] and browser.received == [] and not Notification.objects.exists()

        _age_outbox(settings)
        assert notifications.notifications_recover() >= 3  # the broker is back: queued again

        celery_worker.wait_for(lambda: not MoveMailOutbox.objects.filter(game=game).exists(), timeout=60)
        deliveries = list(WebhookDelivery.objects.filter(game=game))
        celery_worker.wait_for(
            lambda: WebhookDelivery.objects.filter(game=game, status="delivered").count() == len(deliveries),
            timeout=60,
        )
        celery_worker.wait_for(
            lambda: not PushMessage.objects.filter(game=game, status="pending").exists(), timeout=60
        )
        celery_worker.wait_for(
            lambda: not Notification.objects.filter(game=game, status="pending").exists(), timeout=60
        )
        # a late copy of any task changes nothing: a second sweep and a second fan-out add nothing
        _age_outbox(settings)
        assert notifications.notifications_recover() == 0
        time.sleep(1)
        hook_ids = [r.headers["baogame-webhook-id"] for r in hooks.received]
        notices = list(browser.received)

    assert deliveries and sorted(hook_ids) == sorted(str(d.event_id) for d in deliveries)  # once per id
    messages = list(PushMessage.objects.filter(game=game))
    assert messages and len(notices) == len(messages)
    import json

    assert sorted(json.loads(n.plaintext or b"")["id"] for n in notices) == sorted(
        str(m.event_id) for m in messages
    )
    sent = Notification.objects.filter(game=game, status="sent")
    mails = _mails({user.email for user in users})
    assert sent.count() >= 1 and len(mails) == sent.count()  # each notification mailed once
    ids = [m["Message-ID"] for m in mails]
    assert len(ids) == len(set(ids))


def _keys(subscription: dict[str, Any]) -> dict[str, str]:
    return {
        "endpoint": subscription["endpoint"],
        "p256dh": subscription["keys"]["p256dh"],
        "auth": subscription["keys"]["auth"],
    }


@contextmanager
def slow_receiver(first_delay: float) -> Iterator[list[dict[str, str]]]:
    """A webhook receiver that records each request as it arrives and answers the first one only after
    ``first_delay`` seconds (long enough to kill the worker in the middle), the others at once."""
    got: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            got.append({k.lower(): v for k, v in self.headers.items()})
            if len(got) == 1:
                time.sleep(first_delay)
            try:
                self.send_response(200)
                self.end_headers()
            except OSError:
                pass  # the worker died meanwhile

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    got.append({"origin": f"http://127.0.0.1:{server.server_address[1]}"})
    try:
        yield got
    finally:
        server.shutdown()


def test_a_worker_killed_mid_delivery_loses_nothing_and_the_repeat_carries_the_same_id(
    celery_worker: Any,  # noqa: F811
) -> None:
    with slow_receiver(first_delay=6) as got:
        origin = got.pop()["origin"]
        users = [UserFactory(), UserFactory()]
        webhook_services.endpoint_create(user=users[1], url=f"{origin}/hook", secret="s" * 20)
        game = GameFactory(engine="baobei", players=2, seated=users[:1])

        lifecycle.game_join(game_id=game.pk, user=users[1])  # the start: one event for seat 1
        celery_worker.wait_for(lambda: len(got) >= 1, timeout=30)  # the worker is inside the POST
        celery_worker.kill()
        delivery = WebhookDelivery.objects.get(game=game)
        assert delivery.status == WebhookDelivery.Status.PENDING  # not written: the worker died first

        celery_worker.start()
        claim = WebhookDelivery.objects.get(pk=delivery.pk).next_attempt_at
        assert claim is not None and claim > timezone.now()  # the dead worker's claim holds it …
        assert webhook_services.deliveries_requeue_lost() == 0
        lapsed = timezone.now() - timedelta(minutes=3)  # … until it lapses (the clock moved on)
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=lapsed)
        assert webhook_services.deliveries_requeue_lost() == 1
        celery_worker.wait_for(
            lambda: WebhookDelivery.objects.get(pk=delivery.pk).status == WebhookDelivery.Status.DELIVERED,
            timeout=60,
        )

    assert len(got) >= 2
    assert {g["baogame-webhook-id"] for g in got} == {str(delivery.event_id)}
