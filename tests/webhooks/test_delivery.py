"""Webhooks: registration, signed events, what each seat is sent, switching off.

Deliveries here run eagerly with one attempt (``WEBHOOKS_MAX_ATTEMPTS=1``); the retries with backoff
through a real worker are in ``test_worker.py``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import mail
from django.db import transaction
from django.test import Client

from apps.games import autoplay, store
from apps.games import lifecycle as game_lifecycle
from apps.games import pipeline as game_pipeline
from apps.games.models import Game, Move
from apps.webhooks import services, signing
from apps.webhooks.models import WebhookDelivery, WebhookEndpoint
from apps.webhooks.payloads import webhook_body
from baogame.rules.core import visible
from baogame.rules.registry import get_bots, get_engine
from tests.factories import GameFactory
from tests.support.receivers import WebhookReceiver, webhook_receiver

pytestmark = pytest.mark.django_db
SECRET = "a-secret-of-twenty-chars"


@pytest.fixture(autouse=True)
def one_attempt(settings: Any) -> None:
    settings.WEBHOOKS_MAX_ATTEMPTS = 1
    settings.WEBHOOKS_ALLOW_PRIVATE = settings.WEBHOOKS_ALLOW_HTTP = True


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with webhook_receiver() as running:
        yield running


def _register(user: Any, url: str) -> dict[str, Any]:
    client = Client()
    client.force_login(user)
    answer = client.post("/api/v1/me/webhooks/", {"url": url, "secret": SECRET}, "application/json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_registering_answers_the_secret_once(users: list[Any], receiver: WebhookReceiver) -> None:
    client = Client()
    client.force_login(users[0])

    made = client.post("/api/v1/me/webhooks/", {"url": f"{receiver.origin}/hook"}, "application/json").json()
    listed = client.get("/api/v1/me/webhooks/").json()

    assert len(made["secret"]) >= 16
    assert listed == [{k: v for k, v in made.items() if k != "secret"}]


def test_events_are_signed_and_each_seat_gets_its_own_view(
    users: list[Any], receiver: WebhookReceiver, django_capture_on_commit_callbacks: Any
) -> None:
    """Each seat's body holds the move's events it may see (``visible``), its version, its decisions."""
    _register(users[0], f"{receiver.origin}/zero")
    _register(users[1], f"{receiver.origin}/one")
    game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=2)

    with django_capture_on_commit_callbacks(execute=True):
        game_lifecycle.game_join(game_id=game.pk, user=users[1])

    got = receiver.wait_for(2)
    assert len(got) == 2
    for request in got:
        assert signing.verify(
            secret=SECRET,
            timestamp=request.headers["baogame-webhook-timestamp"],
            signature=request.headers["baogame-webhook-signature"],
            body=request.body,
        )
        body = json.loads(request.body)
        assert request.headers["baogame-webhook-id"] == body["event_id"]
        assert body["game"]["public_id"] == Game.objects.get(pk=game.pk).public_id
        assert body["seat"] == (0 if request.path == "/zero" else 1)
        assert body["type"] == "game.started"
    assert not signing.verify(
        secret="another-secret-entirely",
        timestamp=got[0].headers["baogame-webhook-timestamp"],
        signature=got[0].headers["baogame-webhook-signature"],
        body=got[0].body,
    )


def test_a_move_body_holds_exactly_the_events_the_seat_may_see(users: list[Any]) -> None:
    game = GameFactory(engine="baohuang", players=5, seated=users[:5])
    engine = get_engine("baohuang")
    pending = engine.pending(game.state)[0]
    seat = pending["seats"][0]
    bots, default = get_bots("baohuang")
    action = bots[default](engine.view(game.state, seat), random.Random(3))
    game_pipeline.submit_action(game_id=game.pk, user=users[seat], action=action)
    game.refresh_from_db()
    move = Move.objects.get(game=game)

    bodies = {s: webhook_body(game=game, seat=s, move=move) for s in range(5)}

    for s, body in bodies.items():
        if move.hidden and s != move.seat:
            assert body is None  # another seat's hidden answer is no event for anybody else
            continue
        assert body is not None
        assert body["events"] == [e for e in move.events if visible(e, s)]
        own = (engine.view(game.state, s).get("decision") or {}).get("kind")
        assert [d["kind"] for d in body["decisions"]] == ([own] if own else [])
        assert all(d["seat"] == s for d in body["decisions"])


def test_an_endpoint_is_switched_off_after_repeated_failures_with_a_notice(
    users: list[Any], settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.WEBHOOKS_DISABLE_AFTER = 2
    with webhook_receiver(fail_first=100) as failing:
        _register(users[1], f"{failing.origin}/hook")
        game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=2)
        with django_capture_on_commit_callbacks(execute=True):
            game_lifecycle.game_join(game_id=game.pk, user=users[1])  # the start: one event, one attempt
        failing.wait_for(1)
        delivery = WebhookDelivery.objects.get()
        assert delivery.status == WebhookDelivery.Status.FAILED  # one attempt allowed here: given up
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.PENDING, next_attempt_at=None
        )

        with pytest.raises(services.DeliveryFailed):
            services.delivery_attempt(delivery_id=delivery.pk)  # the second failure in a row
        sent = len(failing.received)

    assert sent == 2
    endpoint = WebhookEndpoint.objects.get()
    assert not endpoint.active and endpoint.failures == 2 and "HTTP 500" in endpoint.disabled_reason
    [notice] = [m for m in mail.outbox if "webhook was switched off" in m.subject]
    assert notice.to == [users[1].email]
    client = Client()
    client.force_login(users[1])
    assert "switched off" in client.get("/webhooks/").content.decode()
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=WebhookDelivery.Status.PENDING, next_attempt_at=None
    )
    assert services.delivery_attempt(delivery_id=delivery.pk) is False  # nothing more is sent
    assert WebhookDelivery.objects.get(pk=delivery.pk).attempts == 2


def test_the_page_registers_a_webhook_and_shows_its_secret_once(
    users: list[Any], receiver: WebhookReceiver
) -> None:
    client = Client()
    client.force_login(users[0])

    made = client.post("/webhooks/", {"url": f"{receiver.origin}/page", "secret": ""}).content.decode()
    again = client.get("/webhooks/").content.decode()

    endpoint = WebhookEndpoint.objects.get(user=users[0])
    assert endpoint.secret in made and endpoint.secret not in again
    assert f"{receiver.origin}/page" in again


def test_a_bot_account_registers_its_own_webhook_with_its_token(
    users: list[Any], receiver: WebhookReceiver
) -> None:
    from apps.api.services import bot_account_create, bot_token_create

    bot = bot_account_create(owner=users[0], username="hookbot")
    _, token = bot_token_create(owner=users[0], bot_id=bot.pk, name="hooks")

    answer = Client().post(
        "/api/v1/me/webhooks/",
        {"url": f"{receiver.origin}/bot", "secret": SECRET},
        "application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )

    assert answer.status_code == 201
    assert WebhookEndpoint.objects.get().user == bot


def test_an_event_whose_task_was_lost_is_queued_again_by_the_beat(
    users: list[Any], receiver: WebhookReceiver, settings: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    _register(users[1], f"{receiver.origin}/hook")
    game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=2)
    game_lifecycle.game_join(game_id=game.pk, user=users[1])  # no commit here: the fan-out never ran
    services.webhooks_fanout(game_id=game.pk, move_id=None)  # recorded; its task "lost" (never run)
    delivery = WebhookDelivery.objects.get()
    WebhookDelivery.objects.filter(pk=delivery.pk).update(created_at=timezone.now() - timedelta(minutes=5))

    requeued = services.deliveries_requeue_lost()

    assert requeued == 1
    receiver.wait_for(1)
    assert WebhookDelivery.objects.get(pk=delivery.pk).status == WebhookDelivery.Status.DELIVERED
    assert services.deliveries_requeue_lost() == 0


def test_a_game_that_ends_without_a_move_sends_an_end_event(
    users: list[Any], receiver: WebhookReceiver, django_capture_on_commit_callbacks: Any
) -> None:
    """An aborted (or adjudicated) game: each seat's webhook hears of it, so a bot stops waiting."""
    _register(users[1], f"{receiver.origin}/hook")
    game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=2)
    with django_capture_on_commit_callbacks(execute=True):
        game_lifecycle.game_join(game_id=game.pk, user=users[1])
    receiver.wait_for(1)

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game_lifecycle.game_abort(store.lock_game(game.pk), reason="test")

    got = receiver.wait_for(2)
    body = json.loads(got[1].body)
    assert body["type"] == "game.ended" and body["status"] == "aborted" and body["decisions"] == []


# --- claims, lost retries, failed events shown ---------------------------------------


def _pending_delivery(users: list[Any], url: str) -> WebhookDelivery:
    endpoint = services.endpoint_create(user=users[1], url=url, secret="s" * 20)
    return WebhookDelivery.objects.create(
        endpoint=endpoint, game=GameFactory(), move_seq=1, seat=1, body="{}"
    )


def test_an_event_claimed_by_one_attempt_is_not_attempted_by_another(
    users: list[Any], receiver: WebhookReceiver
) -> None:
    from django.utils import timezone

    delivery = _pending_delivery(users, f"{receiver.origin}/hook")

    assert services.delivery_claim(delivery_id=delivery.pk, now=timezone.now()) is True  # a worker's
    assert services.delivery_attempt(delivery_id=delivery.pk) is False  # a late or repeated task
    assert receiver.received == []


def test_the_sweep_queues_again_an_event_whose_retry_or_worker_was_lost(
    users: list[Any], receiver: WebhookReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A retry the broker lost, or a worker killed mid-attempt (its claim lapsed), is pending past its
    due time: the sweep queues it; an event not yet due (a retry waiting its backoff) is left alone."""
    from datetime import timedelta

    from django.utils import timezone

    queued: list[Any] = []
    monkeypatch.setattr(services, "publish", lambda name, args, **kw: queued.append(args) or True)
    lost = _pending_delivery(users, f"{receiver.origin}/lost")
    waiting = _pending_delivery(users, f"{receiver.origin}/waiting")
    now = timezone.now()
    WebhookDelivery.objects.filter(pk=lost.pk).update(attempts=1, next_attempt_at=now - timedelta(minutes=5))
    WebhookDelivery.objects.filter(pk=waiting.pk).update(
        attempts=1, next_attempt_at=now + timedelta(minutes=5)
    )

    assert services.deliveries_requeue_lost(now=now) == 1
    assert queued == [(lost.pk,)]
    assert services.delivery_attempt(delivery_id=lost.pk) is True
    assert [r.path for r in receiver.received] == ["/lost"]


def test_an_event_given_up_is_shown_failed_on_the_webhooks_page(users: list[Any], settings: Any) -> None:
    settings.WEBHOOKS_MAX_ATTEMPTS = 2
    with webhook_receiver(fail_first=100) as failing:
        delivery = _pending_delivery(users, f"{failing.origin}/hook")
        for _ in range(2):
            WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=None)
            with pytest.raises(services.DeliveryFailed):
                services.delivery_attempt(delivery_id=delivery.pk)
    client = Client()
    client.force_login(users[1])

    page = client.get("/webhooks/").content.decode()

    assert WebhookDelivery.objects.get(pk=delivery.pk).status == WebhookDelivery.Status.FAILED
    assert "1 failed</strong> (given up after 2 attempts)" in page


def test_retries_back_off_as_the_docs_say(settings: Any) -> None:
    """docs/push-and-webhooks.md: 10 s, 20 s, 40 s, … at most an hour (a push notice's too)."""
    settings.WEBHOOKS_RETRY_SECONDS = 10

    assert [services.backoff(n) for n in range(4)] == [10, 20, 40, 80]
    assert services.backoff(9) == 3600 and services.backoff(40) == 3600


def test_events_say_when_the_servers_bot_plays_the_seat_and_made_the_move(
    users: list[Any], settings: Any
) -> None:
    """A program whose seat went to the bot (here its player handed it over) learns it from the next
    event's ``bot_takeover``, and which moves the bot made for it from ``by_bot``."""
    settings.GAMES_SCHEDULE_TASKS = False  # the bot plays below, when told to
    _register(users[0], "http://127.0.0.1:9/zero")
    game = GameFactory(engine="baobei", players=2, seated=users[:2])
    services.webhooks_fanout(game_id=game.pk, move_id=None)
    game_lifecycle.seat_hand_to_bot(game_id=game.pk, user=users[0])

    autoplay.play_bots(game.pk)
    move = Move.objects.filter(game=game, seat=0).order_by("seq").first()
    assert move is not None and move.by_bot
    services.webhooks_fanout(game_id=game.pk, move_id=move.pk)

    bodies = [json.loads(d.body) for d in WebhookDelivery.objects.filter(game=game).order_by("move_seq")]
    assert [(b["type"], b["by_bot"], b["bot_takeover"]) for b in bodies] == [
        ("game.started", False, False),
        ("game.move", True, True),
    ]
    assert bodies[0]["decisions"] and bodies[1]["decisions"] == []  # nothing asked of a bot-held seat
