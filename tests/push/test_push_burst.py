"""One Web Push message per burst, measured on a clock the test moves.

The move pipeline runs for real (eager tasks, the bots answering on commit) and the local push service
decrypts every message (RFC 8291) with the browser's keys. The notifications' clock is moved instead
of sleeping; a burst's send task queued with an ETA is delivered by ``_deliver_due`` once the clock
reaches its due time, as the broker would.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest

from apps.games import lifecycle
from apps.games.models import Decision, Game
from apps.notifications import preferences as notification_preferences
from apps.push import services, tasks
from apps.push.models import PushBurst
from tests.push.conftest import start_baobei
from tests.support.notify_clock import MovableClock  # its fixture `clock` is a plugin (conftest.py)
from tests.support.played import play_on_the_page
from tests.support.receivers import PushService

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("settle_time")]


def _deliver_due(clock: MovableClock, capture: Any) -> int:
    """The broker delivers every burst's send task whose ETA the clock has reached."""
    due = PushBurst.objects.filter(due_at__lte=clock.now).values_list("pk", flat=True)
    with capture(execute=True):
        return sum(tasks.send_burst.delay(pk).get() for pk in list(due))


def _notice(received: Any) -> dict[str, Any]:
    """The notice without its id (a UUID, the same on every retry of that notice)."""
    notice = json.loads(received.plaintext or b"")
    assert len(notice.pop("id")) == 36
    return notice


def _open_decisions(game: Game, seat: int) -> list[dict[str, Any]]:
    rows = Decision.objects.filter(game=game, seat=seat).order_by("deadline", "decision_id")
    return [{"kind": r.kind, "deadline": r.deadline.isoformat() if r.deadline else None} for r in rows]


def test_BH_moves_in_quick_succession_give_one_push_naming_the_open_decisions(
    users: list[Any],
    subscribed_player: Any,
    service: PushService,
    clock: MovableClock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The issue's page scenario: three play-or-pass decisions within 40 s (the four bots answer at
    once) give ONE push message, sent after the settle time, naming what is open for the player then."""
    capture, rng, player = django_capture_on_commit_callbacks, random.Random("burst"), users[0]
    subscribed_player(player)
    with capture(execute=True):
        game = lifecycle.game_create(creator=player, engine="baohuang", players=5, bots=4)
    game.refresh_from_db()
    seat = game.seats.get(user=player).position

    start, opened = clock.now, 0
    while opened < 3:  # every 5 s the player plays on the page; the bots answer and hand back
        assert Decision.objects.filter(game=game, seat=seat).exists()
        opened += 1
        clock.advance(5)
        assert _deliver_due(clock, capture) == 0
        play_on_the_page(game, player, capture, rng)
    assert clock.now - start <= timedelta(seconds=40)
    assert service.received == []  # nothing before the settle time
    assert PushBurst.objects.filter(user=player, game=game).count() == 1

    for _ in range(20):  # ten minutes, every 30 s
        clock.advance(30)
        _deliver_due(clock, capture)

    [got] = service.received
    assert _notice(got) == {
        "game": game.public_id,
        "url": f"http://127.0.0.1:8000/games/{game.public_id}/",
        "title": "Bao Huang: your move",
        "decisions": _open_decisions(game, seat),
    }
    assert _notice(got)["decisions"]  # the player's turn is open again: it is named
    assert not PushBurst.objects.exists()


def test_a_burst_whose_decisions_all_closed_sends_nothing(
    users: list[Any],
    subscribed_player: Any,
    service: PushService,
    clock: MovableClock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """BB setup: the player peeks on the page within the settle time; nothing is left for them, so
    their browser gets nothing, while the other player (who did not act) gets one message."""
    capture = django_capture_on_commit_callbacks
    subscribed_player(users[0], "first")
    subscribed_player(users[1], "second")
    game = start_baobei(users, capture)
    assert PushBurst.objects.filter(game=game).count() == 2

    clock.advance(20)
    play_on_the_page(game, users[1], capture, random.Random("peek"))
    assert not Decision.objects.filter(game=game, seat=1).exists()

    clock.advance(120)
    assert _deliver_due(clock, capture) == 1

    [got] = service.received
    assert got.path.endswith("first")
    assert _notice(got)["decisions"] == _open_decisions(game, 0)
    assert not PushBurst.objects.exists()


def test_the_settle_time_is_never_longer_than_a_quarter_of_the_time_left(
    settings: Any,
    users: list[Any],
    subscribed_player: Any,
    service: PushService,
    clock: MovableClock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A settle time of a day is cut to a quarter of the time left to the seat's deadline."""
    settings.NOTIFY_SETTLE_SECONDS = 24 * 3600
    capture = django_capture_on_commit_callbacks
    subscribed_player(users[1])
    game = start_baobei(users, capture)
    deadline = Decision.objects.get(game=game, seat=1).deadline
    assert deadline is not None
    quarter = (deadline - clock.now) / 4
    assert quarter < timedelta(hours=24)
    burst = PushBurst.objects.get(user=users[1])
    assert abs(burst.due_at - (clock.now + quarter)) < timedelta(seconds=1)

    clock.advance((quarter - timedelta(seconds=5)).total_seconds())
    assert _deliver_due(clock, capture) == 0
    clock.advance(10)
    assert _deliver_due(clock, capture) == 1
    assert len(service.received) == 1


def test_a_lost_send_task_is_recovered_by_the_sweep(
    settings: Any,
    users: list[Any],
    subscribed_player: Any,
    service: PushService,
    clock: MovableClock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The burst's ETA task never arrives (the broker lost it): the beat's sweep sends the burst once
    it is ``NOTIFICATIONS_PENDING_RETRY`` past due, and a second sweep sends nothing more."""
    capture = django_capture_on_commit_callbacks
    subscribed_player(users[1])
    start_baobei(users, capture)

    with capture(execute=True):
        assert tasks.send_due_bursts.delay().get() == 0
    clock.advance(91)  # due: its own task would send it now; the sweep waits for a lost one
    with capture(execute=True):
        assert tasks.send_due_bursts.delay().get() == 0
    clock.advance(settings.NOTIFICATIONS_PENDING_RETRY)
    with capture(execute=True):
        assert tasks.send_due_bursts.delay().get() == 1
    with capture(execute=True):
        assert tasks.send_due_bursts.delay().get() == 0

    assert len(service.received) == 1


def test_quiet_hours_hold_the_burst_until_they_end(
    users: list[Any],
    subscribed_player: Any,
    service: PushService,
    clock: MovableClock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A burst falling due inside the person's quiet hours waits for their end, then goes out."""
    capture = django_capture_on_commit_callbacks
    now = clock.now
    start = (now - timedelta(minutes=1)).time().replace(second=0, microsecond=0)
    end = (now + timedelta(minutes=30)).time().replace(second=0, microsecond=0)
    assert start != end
    notification_preferences.quiet_hours_set(user=users[1], start=start, end=end)  # the profile's zone: UTC
    subscribed_player(users[1])
    start_baobei(users, capture)

    clock.advance(91)
    assert _deliver_due(clock, capture) == 0
    burst = PushBurst.objects.get(user=users[1])
    assert burst.held and burst.due_at > clock.now
    assert service.received == []

    clock.now = burst.due_at
    with capture(execute=True):
        assert services.bursts_send_due() == 1
    assert len(service.received) == 1
