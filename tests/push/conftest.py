"""Fixtures of the Web Push tests: the site's VAPID keys, a local push service, a subscribed player."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from apps.games import lifecycle
from apps.games.models import Game
from apps.push.vapid import generate
from tests.support.receivers import PushService, push_service


@pytest.fixture(autouse=True)
def vapid(settings: Any) -> dict[str, str]:
    """The site's VAPID keys; webhooks (a push service is one) may reach the local push service."""
    keys = generate()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = keys["public_key"], keys["private_key"]
    settings.VAPID_SUBJECT = "mailto:ops@baogame.example"
    settings.WEBHOOKS_ALLOW_PRIVATE, settings.WEBHOOKS_ALLOW_HTTP = True, True  # the local push service
    return keys


@pytest.fixture
def settle_time(settings: Any) -> None:
    """Notices come one per burst, 90 s after its first decision (the site's default; tests have none)."""
    settings.NOTIFY_SETTLE_SECONDS = 90


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


def subscribe(user: Any, subscription: dict[str, Any]) -> Any:
    """``user``'s browser posts its push ``subscription``, as the profile's switch does; the answer."""
    client = Client()
    client.force_login(user)
    return client.post(
        "/push/subscriptions/", json.dumps(subscription), "application/json", HTTP_USER_AGENT="Chromium test"
    )


@pytest.fixture
def subscribed_player(service: PushService) -> Callable[..., Any]:
    """``subscribed_player(user, browser="sub1")``: ``user``, once a browser of theirs (its endpoint named
    ``browser`` at the local push service) has subscribed."""

    def subscribed(user: Any, browser: str = "sub1") -> Any:
        assert subscribe(user, service.subscription(browser)).status_code == 201
        return user

    return subscribed


def start_baobei(users: list[Any], capture: Any) -> Game:
    """A two-player Bao Bei game ``users[0]`` created and ``users[1]`` joined (its start's tasks run)."""
    game = lifecycle.game_create(creator=users[0], engine="baobei", players=2)
    with capture(execute=True):
        lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game
