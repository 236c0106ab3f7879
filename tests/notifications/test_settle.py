"""One mail per burst: the settle time, measured on a clock the test moves.

The move pipeline runs for real (eager tasks, the bots answering on commit); the notifications' clock
(``apps.notifications.clock.now``) is moved instead of sleeping, and a send task queued with an ETA
is delivered by ``_deliver_due`` once the clock reaches its due time, as the broker would.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from apps.games import pipeline as game_pipeline
from apps.games.models import Decision
from apps.notifications import compose, tasks
from apps.notifications.models import Notification
from baogame.rules.registry import get_bots, get_engine
from tests.notifications.conftest import mails_to, play_game
from tests.support.notify_clock import MovableClock  # its fixture `clock` is a plugin (conftest.py)
from tests.support.played import play_on_the_page

pytestmark = pytest.mark.django_db


def _deliver_due(clock: MovableClock, capture: Any) -> int:
    """The broker delivers every send task whose ETA the clock has reached (each pending row's)."""
    due = Notification.objects.filter(status=Notification.Status.PENDING, due_at__lte=clock.now)
    sent = 0
    with capture(execute=True):
        for pk in list(due.values_list("pk", flat=True)):
            sent += bool(tasks.send_notification.delay(pk).get())
    return sent


def test_BH_daily_deal_played_on_the_page_sends_exactly_one_mail(
    settings: Any, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    """The issue's scenario: three play-or-pass decisions within 40 s (bots answer at once): one mail."""
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture, rng, player = django_capture_on_commit_callbacks, random.Random("settle"), users[0]
    with capture(execute=True):
        game = play_game("baohuang", [player], 5)
    seat = game.seats.get(user=player).position

    start, decisions = clock.now, Notification.objects.filter(user=player, kind=Notification.Kind.DECISION)
    while decisions.count() < 3:  # every 5 s the player plays on the page; the four bots answer
        assert Decision.objects.filter(game=game, seat=seat).exists()
        clock.advance(5)
        _deliver_due(clock, capture)
        play_on_the_page(game, player, capture, rng)
    assert clock.now - start <= timedelta(seconds=40)
    opened = decisions.count()
    assert mails_to(player) == []  # nothing before the settle time

    for _ in range(20):  # ten minutes, every 30 s
        clock.advance(30)
        _deliver_due(clock, capture)

    assert len(mails_to(player)) == 1
    statuses = sorted(Notification.objects.filter(user=player).values_list("status", flat=True))
    assert statuses == ["merged"] * (opened - 1) + ["sent"]
    game.refresh_from_db()
    open_now = compose.open_decision(game, seat)  # as the player's view shows it: at the lead or not
    assert open_now is not None and Decision.objects.filter(game=game, seat=seat).exists()
    (message,) = mails_to(player)
    named = compose.describe_decision("baohuang", open_now).rstrip(".")
    assert named in message.subject


def test_a_burst_whose_decisions_all_closed_sends_nothing(
    settings: Any, started: Any, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    """The person acted on the page within the settle time and nothing is left for them: no mail."""
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        game = started(2)
    turn = Decision.objects.get(game=game)
    assert turn.seat == 0
    clock.advance(20)
    with capture(execute=True):
        game_pipeline.submit_action(
            game_id=game.pk,
            user=users[0],
            action={"type": "play", "decision_id": turn.decision_id, "card": game.state["hands"][0][0]},
        )
    assert not Decision.objects.filter(game=game, seat=0).exists()

    clock.advance(120)
    _deliver_due(clock, capture)

    assert mails_to(users[0]) == []
    assert Notification.objects.get(user=users[0]).status == Notification.Status.SKIPPED
    assert len(mails_to(users[1])) == 1  # the turn the move opened for seat 1, after its settle time


def test_the_settle_time_is_never_longer_than_a_quarter_of_the_time_left(
    settings: Any, started: Any, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    """A 60 s turn: the mail is due after 15 s, not 90, so it comes long before the reminder (45 s)."""
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        game = started(2, timing_overrides={"turn": 60})
    turn = Decision.objects.get(game=game)
    note = Notification.objects.get(user=users[0])
    quarter_left = (turn.deadline - clock.now) / 4
    assert abs((note.due_at - clock.now) - quarter_left) < timedelta(seconds=1)
    assert quarter_left < timedelta(seconds=16)

    clock.advance(10)
    assert _deliver_due(clock, capture) == 0
    clock.now = note.due_at
    assert _deliver_due(clock, capture) == 1
    reminder_time = turn.opened_at + (turn.deadline - turn.opened_at) * 0.75
    assert clock.now < reminder_time
    assert len(mails_to(users[0])) == 1


@pytest.mark.parametrize(("engine", "players"), [("baobei", 3), ("baohuang", 5)])
def test_no_decision_with_a_deadline_waits_for_its_mail_past_its_reminder_time(
    engine: str,
    players: int,
    settings: Any,
    users: list,
    clock: MovableClock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Measured over real games with short deadlines: every decision mail is due before its reminder."""
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture, rng = django_capture_on_commit_callbacks, random.Random(f"deadline:{engine}")
    short = {"setup": 120, "turn": 200, "reaction": 40, "ability": 100, "finish": 60}
    short |= {"tribute": 90, "declare": 80}
    with capture(execute=True):
        game = play_game(engine, users[:players], players, timing_overrides=short)
    eng = get_engine(engine)
    bots, default = get_bots(engine)
    checked = 0
    for _ in range(60):
        game.refresh_from_db()
        for decision in Decision.objects.filter(game=game, deadline__isnull=False):
            note = Notification.objects.filter(
                game=game, seat=decision.seat, decision_id=decision.decision_id, kind="decision"
            ).first()
            if note is None:
                continue  # opened by the player's own move: the page shows it (a reminder still comes)
            reminder_time = decision.opened_at + (decision.deadline - decision.opened_at) * 0.75
            assert note.due_at <= reminder_time, (decision.kind, note.due_at, reminder_time)
            checked += 1
        pending = eng.pending(game.state)
        if not pending:
            break
        seat = pending[0]["seats"][0]
        with capture(execute=True):
            game_pipeline.submit_action(
                game_id=game.pk, user=users[seat], action=bots[default](eng.view(game.state, seat), rng)
            )
    assert checked > 20


def test_a_burst_mail_is_filed_under_the_decision_it_shows_not_the_one_that_opened_it(
    settings: Any, started: Any, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    """Seat 1's mail was queued for a plucking window; within the settle time seat 1 passed it on the
    page, and its own pass opened its turn (no mail of its own: the player is at the page). The mail
    that goes asks for the turn, so it is filed under "Your turn" and its one-click unsubscribe names
    that, not "Plucking windows"."""
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        game = started(2)
    turn = Decision.objects.get(game=game, seat=0)
    with capture(execute=True):
        game_pipeline.submit_action(
            game_id=game.pk,
            user=users[0],
            action={"type": "play", "decision_id": turn.decision_id, "card": game.state["hands"][0][0]},
        )
    window = Decision.objects.get(game=game, seat=1)
    assert Notification.objects.get(user=users[1], decision_id=window.decision_id).category == "pluck"
    clock.advance(20)
    with capture(execute=True):
        game_pipeline.submit_action(
            game_id=game.pk, user=users[1], action={"type": "pass", "decision_id": window.decision_id}
        )
    assert Decision.objects.get(game=game, seat=1).kind == "turn"

    clock.advance(120)
    _deliver_due(clock, capture)

    (message,) = mails_to(users[1])
    assert 'Unsubscribe from "Your turn"' in message.body
    assert "Plucking windows" not in message.body
