"""Nothing lost, nothing stuck: a stale bot task does nothing, the sweep re-queues a lost bot
task and a lost mail, and a publish failure after commit never turns a committed move into an error."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from apps.games import autoplay, clock
from apps.games.models import Decision, Game, Move
from apps.notifications import tasks as notification_tasks
from apps.notifications.models import Notification
from baogame.rules.registry import get_engine
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _game_against_a_bot(user) -> Game:
    """A Bao Bei game, ``user`` in seat 0 and a bot in seat 1; both owe their setup peek (BB-3)."""
    return GameFactory(engine="baobei", players=2, bots=1, seated=[user])


def _bot_moves(game: Game) -> int:
    return Move.objects.filter(game=game, by_bot=True).count()


def test_a_bot_task_carrying_a_stale_version_does_nothing(settings) -> None:
    settings.GAMES_SCHEDULE_TASKS = False  # no task is queued: the test runs them itself
    game = _game_against_a_bot(UserFactory())
    Game.objects.filter(pk=game.pk).update(bot_task=game.version + 1)  # a newer task holds the game

    stale = autoplay.play_bots(game.pk, game.version)
    current = autoplay.play_bots(game.pk, game.version + 1)

    assert stale == 0
    assert current == 1 and _bot_moves(game) == 1
    assert Game.objects.get(pk=game.pk).bot_task is None  # nothing left for the bot: the marker is free


def test_the_sweep_requeues_a_bot_task_that_was_lost(settings) -> None:
    settings.GAMES_SCHEDULE_TASKS = False  # the move's bot task is "lost": never queued
    game = _game_against_a_bot(UserFactory())
    settings.GAMES_SCHEDULE_TASKS = True
    Decision.objects.filter(game=game).update(
        opened_at=timezone.now() - timedelta(seconds=settings.GAMES_BOT_STALL + 1)
    )

    clock.sweep()  # tasks run eagerly here

    assert _bot_moves(game) == 1


def test_a_bot_seat_that_times_out_gets_a_fresh_task_although_the_marker_names_a_lost_one(
    settings, django_capture_on_commit_callbacks
) -> None:
    """A worker killed while holding a game's bot task leaves the marker naming that task; its message
    comes back only after the broker's visibility timeout. When a bot seat's deadline comes first (a
    short control, a live sitting's windows, shorter than GAMES_BOT_STALL), the timeout itself queues a
    fresh task that takes the marker, so the bots play on instead of timing out every decision."""
    settings.GAMES_SCHEDULE_TASKS = False
    settings.GAMES_BOT_STALL = 3600  # the stall recovery must not be what rescues the game
    game = GameFactory(engine="baobei", players=3, bots=2, seated=[UserFactory()])  # bots in seats 1, 2
    settings.GAMES_SCHEDULE_TASKS = True
    Game.objects.filter(pk=game.pk).update(bot_task=game.version)  # the task holding it was lost
    now = timezone.now()
    Decision.objects.filter(game=game).update(deadline=now + timedelta(hours=1))
    Decision.objects.filter(game=game, seat=1).update(deadline=now - timedelta(seconds=1))

    with django_capture_on_commit_callbacks(execute=True):
        clock.sweep()  # settles seat 1's overdue setup peek (the bot's choice); tasks run eagerly here

    moves = Move.objects.filter(game=game)
    assert moves.filter(seat=1, by_bot=True, by_timeout=False).exists()
    assert moves.filter(seat=2, by_bot=True).exists()  # the other bot answered its peek at once
    assert not Decision.objects.filter(game=game, seat=2).exists()


def test_the_sweep_leaves_a_bot_alone_that_owns_its_decision_for_a_short_time(settings) -> None:
    settings.GAMES_SCHEDULE_TASKS = False
    game = _game_against_a_bot(UserFactory())
    settings.GAMES_SCHEDULE_TASKS = True

    clock.sweep()

    assert _bot_moves(game) == 0


def test_a_notification_left_pending_is_sent_once_by_the_recovery_sweep(
    settings, django_capture_on_commit_callbacks
) -> None:
    from apps.notifications import notify as notifications

    user = UserFactory()
    game = _game_against_a_bot(user)
    with django_capture_on_commit_callbacks(execute=False):  # its send task is lost
        note = notifications.notify_invitation(game_id=game.pk, user=UserFactory())
    long_ago = timezone.now() - timedelta(seconds=settings.NOTIFICATIONS_PENDING_RETRY + 1)
    Notification.objects.filter(pk=note.pk).update(created_at=long_ago, due_at=long_ago)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OPEN)  # an invitation to an open game
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        notification_tasks.reclaim_stale_notifications.apply()
    with django_capture_on_commit_callbacks(execute=True):
        notification_tasks.reclaim_stale_notifications.apply()  # a second sweep sends nothing again

    assert Notification.objects.get(pk=note.pk).status == Notification.Status.SENT
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)  # the after-commit publish runs inside the request
def test_a_move_answers_normally_when_the_broker_fails_after_commit(monkeypatch, settings) -> None:
    from baogame.celery import app
    from tests.support.celery_worker import _reset_producer_pool

    user = UserFactory()
    game = _game_against_a_bot(user)
    peek = next(d for d in get_engine("baobei").pending(game.state) if 0 in d["seats"])
    client = APIClient()
    client.force_authenticate(user)
    saved = app.conf.broker_url, app.conf.task_always_eager
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    app.conf.broker_url, app.conf.task_always_eager = "redis://127.0.0.1:1/0", False
    _reset_producer_pool(app)
    try:
        response = client.post(
            f"/api/v1/games/{game.pk}/actions/",
            {"action": {"type": "choose_peek", "decision_id": peek["decision_id"], "slots": [0, 1]}},
            format="json",
        )
    finally:
        monkeypatch.undo()
        app.conf.broker_url, app.conf.task_always_eager = saved
        _reset_producer_pool(app)

    assert response.status_code == 201, response.content
    assert Move.objects.filter(game=game, seat=0, by_bot=False).count() == 1
