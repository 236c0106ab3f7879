"""The outbox's coalesced wake-ups (``outbox.wake``) and its drain (``outbox.drain``).

A web process publishes at most one wake-up of the drain per ``NOTIFICATIONS_OUTBOX_WAKE`` seconds: the
first commit after a quiet spell at once, the later ones of the interval one wake-up at its end; a
commit while a wake-up is pending after it publishes nothing. The drain does every row no task has
taken, each once, and leaves a row whose work failed to the sweep.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from apps.notifications import outbox
from apps.notifications.models import MoveMailOutbox
from tests.factories import GameFactory

OPENED = [[1, "turn", "v3-0-turn"]]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def waking(monkeypatch: Any, settings: Any) -> tuple[Clock, list[Any]]:
    """A process with no wake-up pending, a clock to set, and the wake-ups it publishes (name, eta)."""
    settings.NOTIFICATIONS_OUTBOX_WAKE = 0.5
    clock = Clock()
    published: list[Any] = []

    def publish(name: str, args: tuple[Any, ...] = (), *, eta: Any = None) -> bool:
        published.append((name, eta))
        return True

    monkeypatch.setitem(outbox.app.conf, "task_always_eager", False)
    monkeypatch.setattr(outbox, "_waker", outbox._Waker())
    monkeypatch.setattr(outbox.time, "monotonic", clock)
    monkeypatch.setattr(outbox, "publish", publish)
    return clock, published


def _delays(published: list[Any], since: Any) -> list[float | None]:
    return [None if eta is None else round((eta - since).total_seconds(), 1) for _, eta in published]


def test_a_lone_commit_wakes_the_drain_at_once_and_later_ones_share_one_wake_up(waking) -> None:
    clock, published = waking
    start = timezone.now()

    outbox.wake()  # the first commit after a quiet spell
    assert _delays(published, start) == [None]
    assert published[0][0] == outbox.DRAIN_OUTBOX

    for step in (0.01, 0.1, 0.2, 0.3, 0.4):  # a busy interval: one wake-up at its end for all of them
        clock.now = 1000 + step
        outbox.wake()
    assert _delays(published, start) == [None, 0.5]

    clock.now = 1000.6  # past it: the next interval's wake-up, 0.5 s after the last
    outbox.wake()
    clock.now = 1000.7
    outbox.wake()
    assert len(published) == 3 and _delays(published, start)[2] == pytest.approx(0.4, abs=0.1)

    clock.now = 1010.0  # quiet again: at once
    outbox.wake()
    assert published[-1][1] is None and len(published) == 4


def test_a_wake_up_the_broker_refused_is_tried_again_by_the_next_commit(waking, monkeypatch) -> None:
    clock, published = waking
    answers = iter([False, True])
    monkeypatch.setattr(
        outbox, "publish", lambda name, args=(), *, eta=None: published.append(eta) or next(answers)
    )

    outbox.wake()  # the broker is down: the rows wait for the next wake-up or the sweep
    clock.now += 0.01
    outbox.wake()
    assert published == [None, None]  # the second is at once again, not counted on the lost one


def test_with_no_interval_every_commit_wakes_the_drain_at_once(waking, settings) -> None:
    clock, published = waking
    settings.NOTIFICATIONS_OUTBOX_WAKE = 0
    for _ in range(3):
        clock.now += 0.001
        outbox.wake()
    assert [eta for _, eta in published] == [None, None, None]


@pytest.mark.django_db
def test_a_transaction_writing_several_rows_wakes_the_drain_once(django_capture_on_commit_callbacks) -> None:
    game = GameFactory()
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        for channel in (
            MoveMailOutbox.Channel.MAIL,
            MoveMailOutbox.Channel.WEBHOOK,
            MoveMailOutbox.Channel.PUSH,
        ):
            outbox.record(game_id=game.pk, version=3, move_id=None, opened=OPENED, channel=channel)
    assert callbacks == [outbox.wake]


@pytest.mark.django_db
def test_a_row_after_a_rolled_back_savepoint_still_wakes_the_drain(
    django_capture_on_commit_callbacks,
) -> None:
    game = GameFactory()
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        try:
            with transaction.atomic():
                outbox.record(game_id=game.pk, version=3, move_id=None, opened=OPENED)
                raise RuntimeError
        except RuntimeError:
            pass
        outbox.record(game_id=game.pk, version=4, move_id=None, opened=OPENED)
    assert callbacks == [outbox.wake]
    assert list(
        MoveMailOutbox.objects.filter(game=game, version__gt=0).values_list("version", flat=True)
    ) == [4]


@pytest.mark.django_db
def test_the_drain_does_each_untaken_row_once_and_leaves_a_failed_one_to_the_sweep(
    monkeypatch, settings
) -> None:
    games = [GameFactory(), GameFactory()]
    MoveMailOutbox.objects.all().delete()  # the games' own rows
    with transaction.atomic():
        for game in games:
            for channel in (MoveMailOutbox.Channel.MAIL, MoveMailOutbox.Channel.PUSH):
                outbox.record(game_id=game.pk, version=3, move_id=None, opened=[], channel=channel)
        outbox.record(game_id=games[0].pk, version=4, move_id=None, opened=[])
    taken = MoveMailOutbox.objects.get(game=games[0], version=4)
    MoveMailOutbox.objects.filter(pk=taken.pk).update(queued_at=timezone.now())  # a task has it already

    ran: list[tuple[str, tuple[Any, ...]]] = []

    channels = {outbox.NOTIFY_MOVE_APPLIED: "mail", outbox.PUSH_DECISIONS: "push"}

    def run(name: str, args: tuple[Any, ...]) -> None:  # the channel's task: it consumes its row
        ran.append((name, args))
        if name == outbox.PUSH_DECISIONS and args[0] == games[1].pk:
            raise RuntimeError("push is down")
        outbox.consume(game_id=args[0], version=args[1], channel=channels[name])

    monkeypatch.setattr(outbox, "_run", run)

    assert outbox.drain() == 3
    assert sorted((name, args[0]) for name, args in ran) == sorted(
        (name, game.pk) for name in channels for game in games
    )
    failed = MoveMailOutbox.objects.get(game=games[1], channel="push")
    assert set(MoveMailOutbox.objects.values_list("pk", flat=True)) == {failed.pk, taken.pk}

    ran.clear()
    assert outbox.drain() == 0 and ran == []  # taken rows are the sweep's now
    later = timezone.now() + timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY + 1)
    published: list[Any] = []
    monkeypatch.setattr(outbox, "publish", lambda name, args, **kw: published.append((name, args[0])) or True)
    assert outbox.requeue_stale(now=later) == 2
    assert sorted(published) == sorted(
        [(outbox.PUSH_DECISIONS, games[1].pk), (outbox.NOTIFY_MOVE_APPLIED, games[0].pk)]
    )
