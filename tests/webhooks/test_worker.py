"""Webhook retries through a REAL Celery worker: a receiver on 127.0.0.1 that fails
twice and then answers gets the same signed event three times, with backoff between the attempts."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from apps.games import lifecycle as game_lifecycle
from apps.webhooks import services, signing
from apps.webhooks.models import WebhookDelivery
from tests.support.celery_worker import CeleryWorker, celery_worker  # noqa: F401 - the fixture
from tests.support.receivers import webhook_receiver

pytestmark = pytest.mark.django_db(transaction=True)
SECRET = "worker-test-secret-0123456789"


@pytest.fixture(scope="module")
def worker(request: pytest.FixtureRequest) -> Iterator[CeleryWorker]:
    """The real worker, started with a one-second retry base (it reads its settings from the environment)."""
    saved = os.environ.get("WEBHOOKS_RETRY_SECONDS")
    os.environ["WEBHOOKS_RETRY_SECONDS"] = "1"
    try:
        yield request.getfixturevalue("celery_worker")
    finally:
        if saved is None:
            os.environ.pop("WEBHOOKS_RETRY_SECONDS", None)
        else:
            os.environ["WEBHOOKS_RETRY_SECONDS"] = saved


def test_a_failing_receiver_gets_the_signed_event_again_until_it_answers(
    worker: CeleryWorker, users: list[Any], settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = settings.WEBHOOKS_ALLOW_HTTP = True
    with webhook_receiver(fail_first=2) as receiver:
        services.endpoint_create(user=users[1], url=f"{receiver.origin}/hook", secret=SECRET)
        game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=2)

        game_lifecycle.game_join(game_id=game.pk, user=users[1])  # the start: an event for seat 1

        got = receiver.wait_for(3, timeout=60)
        worker.wait_for(
            lambda: WebhookDelivery.objects.filter(status=WebhookDelivery.Status.DELIVERED).exists(),
            timeout=30,
        )

    assert [r.answered for r in got[:3]] == [500, 500, 200]
    assert len({r.headers["baogame-webhook-id"] for r in got[:3]}) == 1  # one event, sent three times
    assert len({r.body for r in got[:3]}) == 1
    for r in got[:3]:
        assert signing.verify(
            secret=SECRET,
            timestamp=r.headers["baogame-webhook-timestamp"],
            signature=r.headers["baogame-webhook-signature"],
            body=r.body,
        )
    stamps = [int(r.headers["baogame-webhook-timestamp"]) for r in got[:3]]
    assert stamps[2] - stamps[0] >= 2  # backoff: 1 s, then 2 s
    delivery = WebhookDelivery.objects.get(event_id=json.loads(got[0].body)["event_id"])
    assert delivery.status == WebhookDelivery.Status.DELIVERED and delivery.attempts == 3
    assert delivery.endpoint.failures == 0
