"""The move-mail outbox ("nothing lost"): a move's transaction records its mail fan-out, the
``notify_move_applied`` task consumes it, and the recovery sweep queues the task again when it was lost
(here: the broker was down when the move committed). Real worker on Redis, PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from apps.games import lifecycle, store
from apps.games.models import Game
from apps.notifications import send as notifications
from apps.notifications.models import MoveMailOutbox, Notification
from tests.factories import GameFactory, UserFactory
from tests.support.celery_worker import (
    BROKER_URL,
    _reset_producer_pool,
    celery_worker,  # noqa: F401 - the module-scoped fixture
)

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

DEAD_BROKER = "redis://127.0.0.1:1/0"  # nothing listens there


@contextmanager
def broker_down() -> Iterator[None]:
    """Publishing fails (connection refused) inside the block; the worker's own broker is untouched."""
    from baogame.celery import app

    os.environ["CELERY_BROKER_URL"] = app.conf.broker_url = DEAD_BROKER
    _reset_producer_pool(app)
    try:
        yield
    finally:
        os.environ["CELERY_BROKER_URL"] = app.conf.broker_url = BROKER_URL
        _reset_producer_pool(app)


def _two_player_game() -> tuple[Game, list]:
    """A Bao Bei game of two people, open: the second one's join deals and opens both setup peeks."""
    users = [UserFactory(), UserFactory()]
    return GameFactory(engine="baobei", players=2, seated=users[:1]), users


def _sent(game: Game) -> list[tuple[int, str]]:
    return sorted(
        Notification.objects.filter(game=game, status=Notification.Status.SENT).values_list(
            "user_id", "decision_kind"
        )
    )


def test_a_move_mail_task_lost_at_commit_is_sent_once_after_the_sweep(celery_worker, settings) -> None:  # noqa: F811
    game, users = _two_player_game()
    with broker_down():
        lifecycle.game_join(game_id=game.pk, user=users[1])  # BB-3: both seats owe a setup peek

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    row = MoveMailOutbox.objects.get(game=game)  # written by the dealing move's own transaction
    assert row.version == 0 and sorted(o[0] for o in row.opened) == [0, 1]
    assert not Notification.objects.filter(game=game).exists()  # its task never reached the broker

    assert notifications.notifications_recover() == 0  # too young: its task may only be late
    MoveMailOutbox.objects.filter(pk=row.pk).update(
        queued_at=timezone.now() - timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY + 1)
    )
    assert notifications.notifications_recover() == 1  # queued again, to the real worker
    assert notifications.notifications_recover() == 0  # a second sweep right after queues nothing

    celery_worker.wait_for(lambda: len(_sent(game)) == 2, timeout=30)
    celery_worker.wait_for(lambda: not MoveMailOutbox.objects.filter(game=game).exists(), timeout=10)
    assert _sent(game) == sorted((u.pk, "setup_peek") for u in users)
    assert Notification.objects.filter(game=game).count() == 2  # each mail once
    assert set(Notification.objects.filter(game=game).values_list("attempts", flat=True)) == {1}


def test_a_move_mail_task_that_ran_leaves_no_outbox_row(celery_worker) -> None:  # noqa: F811
    game, users = _two_player_game()
    lifecycle.game_join(game_id=game.pk, user=users[1])

    celery_worker.wait_for(lambda: len(_sent(game)) == 2, timeout=30)
    celery_worker.wait_for(lambda: not MoveMailOutbox.objects.filter(game=game).exists(), timeout=10)


def test_the_task_queued_twice_mails_nobody_twice(celery_worker, settings) -> None:  # noqa: F811
    """A late task and the sweep's both run: each notification is recorded and sent once."""
    game, users = _two_player_game()
    with broker_down():
        lifecycle.game_join(game_id=game.pk, user=users[1])
    row = MoveMailOutbox.objects.get(game=game)
    args = (row.game_id, row.version, row.move_id, row.opened)

    from baogame.celery import publish

    assert publish("apps.notifications.tasks.notify_move_applied", args)  # the "late" original
    assert publish("apps.notifications.tasks.notify_move_applied", args)  # the sweep's copy

    celery_worker.wait_for(lambda: len(_sent(game)) == 2, timeout=30)
    celery_worker.wait_for(lambda: not MoveMailOutbox.objects.filter(game=game).exists(), timeout=10)
    assert Notification.objects.filter(game=game).count() == 2


def test_an_all_bot_game_writes_no_outbox_row(celery_worker) -> None:  # noqa: F811
    game = lifecycle.game_create(
        creator=None, engine="baobei", players=3, creator_seat=False, bots=3, options={"threshold": 8}
    )
    celery_worker.wait_for(
        lambda: Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE, timeout=120, every=0.5
    )
    assert not MoveMailOutbox.objects.filter(game=game).exists()
    assert not Notification.objects.filter(game=game).exists()


def test_a_result_mail_task_lost_when_the_game_ended_is_sent_once_after_the_sweep(
    celery_worker,  # noqa: F811
    settings,
) -> None:
    """The end of a game writes its own outbox row in its transaction, so the final-result mails of a
    game whose ``notify_game_ended`` task never reached the broker are sent after the sweep."""
    game, users = _two_player_game()
    lifecycle.game_join(game_id=game.pk, user=users[1])
    celery_worker.wait_for(lambda: len(_sent(game)) == 2, timeout=30)  # the setup peeks' mails
    with broker_down(), transaction.atomic():
        lifecycle.game_abort(store.lock_game(game.pk), reason="test")

    row = MoveMailOutbox.objects.get(game=game, kind=MoveMailOutbox.Kind.GAME_END)
    assert not Notification.objects.filter(game=game, kind=Notification.Kind.GAME_RESULT).exists()
    MoveMailOutbox.objects.filter(pk=row.pk).update(
        queued_at=timezone.now() - timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY + 1)
    )
    assert notifications.notifications_recover() == 1
    assert notifications.notifications_recover() == 0

    results = Notification.objects.filter(game=game, kind=Notification.Kind.GAME_RESULT)
    celery_worker.wait_for(lambda: results.filter(status=Notification.Status.SENT).count() == 2, timeout=30)
    celery_worker.wait_for(lambda: not MoveMailOutbox.objects.filter(game=game).exists(), timeout=10)
    assert sorted(results.values_list("user_id", flat=True)) == sorted(u.pk for u in users)


def test_moves_written_as_muted_history_call_for_no_mail() -> None:
    """The demo's finished tables are history (``outbox.muted``): their moves write no outbox row and
    queue no mail task, so ``make run`` does not start with hundreds of them ahead of a new game's bots."""
    from apps.notifications import outbox

    game, users = _two_player_game()
    with outbox.muted():
        lifecycle.game_join(game_id=game.pk, user=users[1])  # BB-3: both seats owe a setup peek

    assert not MoveMailOutbox.objects.filter(game=game).exists()  # outside the block it writes one
