"""Stopped clocks: pausing a game, extending a decision, vacation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.accounts.models import Profile
from apps.games import clock, pipeline
from apps.games.clock import deadlines
from apps.games.errors import ServiceError
from apps.games.models import Decision, Game, Move

from .helpers import a_game, overdue, pending, toy_play

pytestmark = pytest.mark.django_db


def _left(game: Game, seat: int) -> timedelta:
    row = Decision.objects.get(game=game, seat=seat)
    return row.remaining if row.deadline is None else row.deadline - timezone.now()


def _profile(user) -> Profile:
    return Profile.objects.get_or_create(user=user)[0]


def test_pausing_stops_every_clock_and_resuming_gives_back_the_time_left(
    toy_engine: str, users: list
) -> None:
    game = a_game(toy_engine, users, timing_overrides={"turn": 3600})
    Decision.objects.filter(game=game).update(deadline=timezone.now() + timedelta(minutes=10))

    clock.game_pause(game_id=game.pk, by=users[5], reason="organiser away")
    stopped = Decision.objects.get(game=game)
    clock.game_resume(game_id=game.pk, by=users[5])

    row = Decision.objects.get(game=game)
    assert stopped.deadline is None and timedelta(minutes=9) < stopped.remaining <= timedelta(minutes=10)
    assert row.remaining is None
    assert timedelta(minutes=9) < row.deadline - timezone.now() <= timedelta(minutes=10)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_nothing_times_out_and_nobody_can_move_while_paused(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)
    clock.game_pause(game_id=game.pk, by=None, reason="")
    d = pending(game)[0]

    swept = clock.sweep()
    with pytest.raises(ServiceError) as exc:
        pipeline.submit_action(
            game_id=game.pk,
            user=users[0],
            action={"type": "play", "decision_id": d["decision_id"], "card": game.state["hands"][0][0]},
        )

    assert swept == 0 and exc.value.code == "game_not_active"
    assert not Move.objects.filter(game=game).exists()


def test_pausing_settles_what_was_already_due(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)
    overdue(game)

    clock.game_pause(game_id=game.pk, by=None, reason="")

    assert Move.objects.get(game=game).by_timeout
    assert Decision.objects.filter(game=game, deadline__isnull=True).count() == 1


def test_resuming_a_game_that_is_not_paused_is_refused(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)

    with pytest.raises(ServiceError) as exc:
        clock.game_resume(game_id=game.pk, by=users[5])

    assert exc.value.code == "game_not_paused"


def test_extending_moves_the_deadline_of_every_owner_of_a_window(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, players=3)
    toy_play(game, users[0])
    before = {r.seat: r.deadline for r in Decision.objects.filter(game=game)}

    clock.decision_extend(game_id=game.pk, seat=1, by=timedelta(hours=2), actor=users[5])

    after = {r.seat: r.deadline for r in Decision.objects.filter(game=game)}
    assert set(after) == {1, 2}
    assert all(after[s] - before[s] == timedelta(hours=2) for s in after)


def test_extending_a_seat_that_has_answered_an_open_window_is_not_refused_bb_30_6(
    toy_engine: str, users: list
) -> None:
    """A refusal would tell the organiser that the seat has already passed: the window is extended as
    if the seat still owned it."""
    game = a_game(toy_engine, users, players=3)
    toy_play(game, users[0])
    window = pending(game)[0]["decision_id"]
    pipeline.submit_action(game_id=game.pk, user=users[1], action={"type": "pass", "decision_id": window})
    before = Decision.objects.get(game=game, seat=2).deadline

    clock.decision_extend(game_id=game.pk, seat=1, by=timedelta(hours=2), actor=users[5])

    assert list(Decision.objects.filter(game=game).values_list("seat", flat=True)) == [2]
    assert Decision.objects.get(game=game, seat=2).deadline - before == timedelta(hours=2)


def test_extending_a_seat_without_a_decision_is_refused(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)

    with pytest.raises(ServiceError) as exc:
        clock.decision_extend(game_id=game.pk, seat=1, by=timedelta(hours=1), actor=None)

    assert exc.value.code == "no_open_decision"


def test_vacation_stops_the_players_clocks_and_resumes_them_with_the_time_left(
    toy_engine: str, users: list
) -> None:
    game = a_game(toy_engine, users, timing_overrides={"turn": 3600})

    clock.vacation_start(user=users[0])
    on_vacation = Decision.objects.get(game=game, seat=0)
    overdue_now = clock.settle_game(game.pk)
    clock.vacation_end(user=users[0])

    back = Decision.objects.get(game=game, seat=0)
    assert on_vacation.deadline is None and on_vacation.remaining > timedelta(minutes=59)
    assert overdue_now == 0
    assert timedelta(minutes=59) < back.deadline - timezone.now() <= timedelta(hours=1)


def test_decisions_opened_during_vacation_start_stopped_and_others_see_the_seat_away(
    toy_engine: str, users: list
) -> None:
    game = a_game(toy_engine, users, players=3, timing_overrides={"turn": 3600})
    clock.vacation_start(user=users[1])

    toy_play(game, users[0])  # window for 1 and 2: 1 (away) passes at once
    window = pending(game)[0]
    away = deadlines.seats_away(game=game)

    assert window["kind"] == "window" and window["seats"] == [2]
    assert set(away) == {1} and away[1] > timezone.now() + timedelta(days=29)


def test_a_turn_opened_for_a_player_on_vacation_has_a_stopped_clock(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, players=2, timing_overrides={"turn": 3600})
    clock.vacation_start(user=users[1])

    toy_play(game, users[0])  # seat 1 (away) passes the window at once; its turn opens stopped

    row = Decision.objects.get(game=game)
    assert (row.seat, row.kind, row.deadline, row.remaining) == (1, "turn", None, timedelta(hours=1))


def test_vacation_is_refused_when_the_years_budget_is_spent(users: list, settings) -> None:
    settings.VACATION_DAYS_PER_YEAR = 2
    profile = _profile(users[0])
    profile.vacation_year, profile.vacation_seconds_used = timezone.now().year, 2 * 86400
    profile.save()

    with pytest.raises(ServiceError) as exc:
        clock.vacation_start(user=users[0])

    assert exc.value.code == "vacation_budget_exhausted"


def test_the_sweep_ends_a_vacation_whose_budget_has_run_out(toy_engine: str, users: list, settings) -> None:
    settings.VACATION_DAYS_PER_YEAR = 1
    game = a_game(toy_engine, users, timing_overrides={"turn": 3600})
    clock.vacation_start(user=users[0])
    Profile.objects.filter(user=users[0]).update(
        vacation_started_at=timezone.now() - timedelta(days=1, minutes=1)
    )

    clock.sweep()

    profile = _profile(users[0])
    row = Decision.objects.get(game=game, seat=0)
    assert not profile.on_vacation
    assert profile.vacation_seconds_used >= 86400
    assert row.deadline is not None


def test_a_paused_game_keeps_a_returning_players_clock_stopped(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users)
    clock.vacation_start(user=users[0])
    clock.game_pause(game_id=game.pk, by=None, reason="")

    clock.vacation_end(user=users[0])
    still_stopped = Decision.objects.get(game=game, seat=0).deadline is None
    clock.game_resume(game_id=game.pk, by=None)

    assert still_stopped
    assert Decision.objects.get(game=game, seat=0).deadline is not None
