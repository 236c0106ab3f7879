"""A game's end writes its outbox rows in its own transaction (DESIGN: the move pipeline, "nothing lost
after a commit"): the result mails' row and, for a seat with a webhook, the ``game.ended`` event's row
commit with the end or not at all, so a web process that dies right after the end's commit loses
neither; the commit wakes the outbox's drain, which runs their tasks as it runs a move's, and the sweep
queues them again if that is lost."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from apps.games import lifecycle, store
from apps.notifications import outbox
from apps.notifications.models import MoveMailOutbox
from apps.webhooks.models import WebhookEndpoint
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

END = MoveMailOutbox.Kind.GAME_END


def _game_with_a_webhook() -> Any:
    """A Bao Bei game of two people in play; the second one has an active webhook."""
    users = [UserFactory(), UserFactory()]
    game = GameFactory(engine="baobei", players=2, seated=users[:1])
    lifecycle.game_join(game_id=game.pk, user=users[1])
    WebhookEndpoint.objects.create(user=users[1], url="https://hooks.example.com/end", secret="s" * 32)
    MoveMailOutbox.objects.filter(game=game).delete()  # the deal's own rows, not this test's
    return game


def _end_rows(game: Any) -> set[str]:
    return set(MoveMailOutbox.objects.filter(game=game, kind=END).values_list("channel", flat=True))


def test_an_aborted_games_end_rows_are_written_before_its_commit(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = _game_with_a_webhook()

    with django_capture_on_commit_callbacks(execute=False) as queued, transaction.atomic():
        lifecycle.game_abort(store.lock_game(game.pk), reason="test")
        inside = _end_rows(game)  # before the commit and before any on-commit hook

    assert inside == {MoveMailOutbox.Channel.MAIL, MoveMailOutbox.Channel.WEBHOOK}
    assert queued.count(outbox.wake) == 1, "the commit wakes the drain once"
    published = [c for c in queued if "publish" in getattr(getattr(c, "func", c), "__name__", "")]
    assert published == [], "and publishes no task of its own"


def test_the_drain_runs_the_tasks_of_a_games_end_once(monkeypatch: Any) -> None:
    game = _game_with_a_webhook()
    with transaction.atomic():
        lifecycle.game_abort(store.lock_game(game.pk), reason="test")
    MoveMailOutbox.objects.exclude(game=game, kind=END).delete()  # only the end's rows
    ran: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(outbox, "_run", lambda name, args: ran.append((name, args)))

    assert outbox.drain() == 2
    assert sorted(ran) == [
        (outbox.NOTIFY_GAME_ENDED, (game.pk,)),
        (outbox.WEBHOOKS_FANOUT, (game.pk, None, True)),
    ]
    ran.clear()
    assert outbox.drain() == 0 and ran == []  # taken: a lost run is the sweep's


def test_an_end_that_rolls_back_leaves_no_end_rows() -> None:
    game = _game_with_a_webhook()

    with pytest.raises(RuntimeError), transaction.atomic():
        lifecycle.game_abort(store.lock_game(game.pk), reason="test")
        raise RuntimeError("the end's transaction fails after the end was written")

    assert _end_rows(game) == set()
    game.refresh_from_db()
    assert game.status == game.Status.ACTIVE
