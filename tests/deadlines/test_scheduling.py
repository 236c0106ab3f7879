"""A Celery task runs at each deadline: queued by the move for near deadlines, by the sweep for later ones."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.games import clock, scheduling
from apps.games.models import Decision

from .helpers import a_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, object]]:
    calls: list[tuple[int, object]] = []
    monkeypatch.setattr(
        scheduling, "queue_settle", lambda *, game_id, deadline: calls.append((game_id, deadline)) or True
    )
    return calls


def test_a_move_queues_a_task_for_a_near_deadline(users, queued, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = a_game("baobei", users, timing_overrides={"setup": 60})

    deadlines = set(Decision.objects.filter(game=game).values_list("deadline", flat=True))
    assert queued == [(game.pk, d) for d in deadlines]


def test_a_far_deadline_waits_for_the_sweep(users, queued, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = a_game("baobei", users)  # 24 h clocks
    assert queued == []
    deadline = Decision.objects.filter(game=game).values_list("deadline", flat=True).first()

    clock.sweep(now=deadline - scheduling.SCHEDULE_AHEAD + timedelta(seconds=1))

    assert queued == [(game.pk, deadline)]


def test_the_sweep_leaves_later_deadlines_alone(users, queued) -> None:
    game = a_game("baobei", users)
    Decision.objects.filter(game=game).update(deadline=timezone.now() + timedelta(hours=5))

    clock.sweep()

    assert queued == []
