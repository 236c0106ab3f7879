"""The reminder push of a sitting: every browser of each player, once, naming the game and the start."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from apps.sittings import reminders
from apps.sittings.models import Sitting
from tests.factories import GameFactory, UserFactory
from tests.support.receivers import PushService

pytestmark = pytest.mark.django_db


def test_the_sitting_reminder_is_pushed_once_with_the_game_and_its_start(
    service: PushService, subscribed_player: Any
) -> None:
    people = [UserFactory() for _ in range(2)]
    game = GameFactory(engine="baobei", players=2, seated=people)
    subscribed_player(people[1])
    start = (timezone.now() + timedelta(minutes=10)).replace(microsecond=0)
    Sitting.objects.create(game=game, starts_at=start, ends_at=start + timedelta(hours=1))

    reminders.reminders_send_due()
    reminders.reminders_send_due()

    [got] = service.wait_for(1)
    body = json.loads(got.plaintext or b"")
    assert body["game"] == game.public_id
    assert body["starts_at"] == start.isoformat()
    assert "your sitting starts soon" in body["title"]


def test_a_player_not_yet_here_gets_we_are_starting_once_when_the_sitting_starts(
    service: PushService, subscribed_player: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from apps.sittings import lifecycle, services

    people = [UserFactory() for _ in range(2)]
    game = GameFactory(engine="baobei", players=2, seated=people)
    subscribed_player(people[1])
    now = timezone.now()
    services.presence_seen(game=game, user=people[0], now=now)
    Sitting.objects.create(game=game, starts_at=now, ends_at=now + timedelta(hours=1))

    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.advance(now=now, game=game)
    reminders.starting_send(sitting_id=Sitting.objects.get(game=game).pk)  # a second run sends nothing

    [got] = service.wait_for(1)
    assert "we are starting" in json.loads(got.plaintext or b"")["title"]
