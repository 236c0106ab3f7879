"""Lazy and scheduled settlement of deadlines (every open decision has a deadline)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.games import clock, pipeline, scheduling, selectors, tasks
from apps.games.clock.controls import NAMED_CONTROLS, control_from
from apps.games.models import Decision, Game, Move

from .helpers import a_game, overdue, pending, toy_play

pytestmark = pytest.mark.django_db


def test_named_controls_give_daily_and_weekly_banks_and_custom_values_override() -> None:
    daily, weekly = NAMED_CONTROLS["daily"].values(), NAMED_CONTROLS["weekly"].values()
    custom = control_from("live", {"reaction": 7})

    assert (daily["initial"], daily["reaction"]) == (3 * 24 * 3600, 4 * 3600)
    assert (weekly["initial"], weekly["reaction"]) == (7 * 24 * 3600, 24 * 3600)
    assert custom.reaction == timedelta(seconds=7) and custom.initial == NAMED_CONTROLS["live"].initial


def test_every_open_decision_gets_the_deadline_of_its_timing_class(toy_engine: str, users: list) -> None:
    before = timezone.now()
    game = a_game(toy_engine, users, timing_overrides={"turn": 600, "reaction": 60})

    row = Decision.objects.get(game=game)

    assert row.timing == "turn"
    assert before + timedelta(seconds=600) <= row.deadline <= timezone.now() + timedelta(seconds=600)


def test_settle_due_applies_the_timeout_default_through_the_pipeline(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)
    lowest = min(game.state["hands"][0])
    overdue(game)

    applied = clock.settle_game(game.pk)

    move = Move.objects.get(game=game)
    assert applied == 1
    assert move.by_timeout and move.action["card"] == lowest and move.action["timeout"] is True
    assert pending(game)[0]["kind"] == "window"


def test_settle_due_applies_timeouts_in_deadline_order(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, players=3)
    toy_play(game, users[0])  # window for seats 1 and 2
    now = timezone.now()
    Decision.objects.filter(game=game, seat=2).update(deadline=now - timedelta(minutes=5))
    Decision.objects.filter(game=game, seat=1).update(deadline=now - timedelta(minutes=1))

    clock.settle_game(game.pk)

    passes = list(
        Move.objects.filter(game=game, by_timeout=True).order_by("seq").values_list("seat", flat=True)
    )
    assert passes[:2] == [2, 1]


def test_settling_twice_applies_each_timeout_once(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)
    overdue(game)

    first = clock.settle_game(game.pk)
    second = clock.settle_game(game.pk)
    swept = clock.sweep()

    assert (first, second, swept) == (1, 0, 0)
    assert Move.objects.filter(game=game).count() == 1


def test_a_late_deadline_task_finds_nothing_to_do(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)
    overdue(game)
    clock.settle_game(game.pk)

    assert tasks.settle_game.apply(args=(game.pk,)).get() == 0
    assert Move.objects.filter(game=game).count() == 1


def test_nothing_is_settled_before_its_deadline(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)

    assert clock.settle_game(game.pk) == 0
    shown = selectors.game_read(game.pk)
    assert shown is not None and shown.version == 0


def test_a_read_settles_lazily_what_is_due(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)
    overdue(game)

    shown = selectors.game_read(game.pk)
    assert shown is not None

    assert shown.version == 1
    assert Move.objects.get(game=game).by_timeout


def test_submit_action_settles_what_is_due_before_applying(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)
    overdue(game)
    d = pending(game)[0]

    with pytest.raises(Exception) as exc:  # seat 0's turn was played by the timeout first
        pipeline.submit_action(
            game_id=game.pk,
            user=users[0],
            action={"type": "play", "decision_id": d["decision_id"], "card": game.state["hands"][0][-1]},
        )

    assert getattr(exc.value, "code", None) == "stale_decision"
    assert Move.objects.get(game=game).by_timeout


def test_sweep_task_settles_every_overdue_game(toy_engine: str, users: list) -> None:
    games = [a_game(toy_engine, users[i : i + 2]) for i in (0, 2, 4)]
    for game in games[:2]:
        overdue(game)

    swept = tasks.sweep_due.apply().get()

    assert swept == 2
    assert [Move.objects.filter(game=g).count() for g in games] == [1, 1, 0]


def test_game_scheduling_queues_a_deadline_task_after_commit(
    toy_engine: str, users: list, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    scheduled: list[tuple[int, object]] = []
    monkeypatch.setattr(
        scheduling, "queue_settle", lambda *, game_id, deadline: scheduled.append((game_id, deadline)) or True
    )

    with django_capture_on_commit_callbacks(execute=True):
        game = a_game(toy_engine, users, timing_overrides={"turn": 90})

    row = Decision.objects.get(game=game)
    assert (game.pk, row.deadline) in scheduled
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
