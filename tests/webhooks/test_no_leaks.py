"""Leak test: no webhook body or push notice holds anything its receiver has not seen.

Seeded playthroughs of both games with a webhook and a browser for every seat: every webhook body a
seat is sent must carry exactly the events the API history shows that seat for that move (and no event
at all for another seat's hidden answer), and every push notice, decrypted by the local push service,
must hold only the game, the decision kinds and their deadlines.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from django.test import Client

from apps.games import lifecycle as game_lifecycle
from apps.games import pipeline as game_pipeline
from apps.games import selectors as game_selectors
from apps.games.models import Game, Move
from apps.push.vapid import generate
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookDelivery
from baogame.rules.core import RuleError
from baogame.rules.registry import get_bots, get_engine
from tests.support.receivers import push_service, webhook_receiver

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def channels(settings: Any) -> None:
    keys = generate()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = keys["public_key"], keys["private_key"]
    settings.WEBHOOKS_ALLOW_PRIVATE = settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOKS_MAX_ATTEMPTS = 1


def _play(engine_name: str, users: list[Any], seed: int, moves: int, capture: Any) -> Game:
    game = game_lifecycle.game_create(creator=users[0], engine=engine_name, players=len(users))
    engine, rng = get_engine(engine_name), random.Random(seed)
    bots, default = get_bots(engine_name)
    with capture(execute=True):
        for user in users[1:]:
            game_lifecycle.game_join(game_id=game.pk, user=user)
    for _ in range(moves):
        game.refresh_from_db()
        pending = engine.pending(game.state) if game.status == Game.Status.ACTIVE else []
        if not pending:
            break
        seat = rng.choice(sorted(pending[0]["seats"]))
        action = bots[default](engine.view(game.state, seat), rng)
        try:
            with capture(execute=True):
                game_pipeline.submit_action(game_id=game.pk, user=users[seat], action=action)
        except RuleError:
            break
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(("engine_name", "players", "seed"), [("baobei", 3, 5), ("baohuang", 5, 8)])
def test_webhook_bodies_and_push_notices_hold_only_what_the_seat_has_seen(
    engine_name: str, players: int, seed: int, make_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    users = [make_user() for _ in range(players)]
    with webhook_receiver() as hooks, push_service() as pushes:
        for i, user in enumerate(users):
            webhook_services.endpoint_create(user=user, url=f"{hooks.origin}/seat{i}", secret="s" * 20)
            client = Client()
            client.force_login(user)
            client.post(
                "/push/subscriptions/", json.dumps(pushes.subscription(f"seat{i}")), "application/json"
            )

        game = _play(engine_name, users, seed, 30, django_capture_on_commit_callbacks)
        received = list(hooks.received)
        notices = list(pushes.received)

    moves = Move.objects.filter(game=game).count()
    assert moves >= 10
    assert len(received) == WebhookDelivery.objects.count() > moves
    for request in received:
        body = json.loads(request.body)
        seat = body["seat"]
        assert request.path == f"/seat{seat}"
        known = {}
        for entry in game_selectors.game_history(game=game, seat=seat):
            known.setdefault(entry["seq"], []).append(entry["event"])
        assert body["version"] <= game_selectors.viewer_version(game, seat)
        assert body["events"] == known.get(body["version"], [])
    hidden = Move.objects.filter(game=game, hidden=True)
    for move in hidden:  # nobody but the mover hears of a hidden answer
        assert (
            not WebhookDelivery.objects.filter(game=game, move_seq=move.seq).exclude(seat=move.seat).exists()
        )
    assert notices
    for notice in notices:
        payload = json.loads(notice.plaintext or b"")
        assert set(payload) == {"game", "url", "title", "decisions", "id"}
        assert str(uuid.UUID(payload["id"])) == payload["id"]  # the notice's own id, nothing else
        assert payload["game"] == game.public_id
        assert all(set(d) == {"kind", "deadline"} for d in payload["decisions"])
