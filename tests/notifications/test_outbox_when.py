"""``outbox.record(when=…)``: a move's outbox row written only if someone of the game wants it (a
webhook, a subscribed browser), the question and the write one statement on the hand path."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import QuerySet

from apps.games import sql
from apps.notifications import outbox
from apps.notifications.models import MoveMailOutbox
from apps.webhooks.models import WebhookEndpoint
from tests.factories import GameFactory
from tests.support.both_paths import both_paths  # noqa: F401  # every test on both paths

pytestmark = pytest.mark.django_db


def _endpoints(game_id: int) -> QuerySet[Any]:
    return WebhookEndpoint.objects.filter(active=True, user__seats__game_id=game_id)


@pytest.mark.parametrize("wanted", [True, False], ids=["a player has a webhook", "nobody has one"])
def test_the_row_is_written_and_the_drain_woken_only_when_someone_wants_it(
    wanted: bool, hand_sql: bool, django_capture_on_commit_callbacks: Any
) -> None:
    game = GameFactory(engine="baobei", players=2)
    if wanted:
        WebhookEndpoint.objects.create(
            user=game.seats.get(position=0).user, url="https://example.org/hook", secret="s" * 32
        )
    statements: list[sql.Statement] = []

    with django_capture_on_commit_callbacks() as callbacks:
        outbox.record(
            game_id=game.pk,
            version=77,
            move_id=None,
            opened=[],
            channel=outbox.Channel.WEBHOOK,
            statements=statements,
            when=_endpoints,
        )
        assert len(statements) == (1 if hand_sql else 0)  # on the hand path: one statement, not run yet
        sql.batch(statements)

    rows = MoveMailOutbox.objects.filter(game_id=game.pk, channel=outbox.Channel.WEBHOOK, version=77)
    assert rows.count() == (1 if wanted else 0)
    assert (outbox.wake in callbacks) is wanted
