"""Quiet hours: in the person's own zone, across midnight and a clock change."""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from apps.accounts.models import Profile
from apps.games.models import Decision, Move
from apps.notifications import clock as notification_clock
from apps.notifications import notify, quiet, send
from apps.notifications.models import MailSettings, Notification
from tests.notifications.conftest import mails_to, play_game, process_reply, reply_to

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
NIGHT = {"start": time(22, 0), "end": time(7, 0)}


def _utc(*args: int, zone: zoneinfo.ZoneInfo = BERLIN) -> datetime:
    return datetime(*args, tzinfo=zone).astimezone(UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("local", "ends"),
    [
        ((2026, 6, 10, 23, 30), (2026, 6, 11, 7, 0)),  # before midnight: ends the next morning
        ((2026, 6, 11, 0, 5), (2026, 6, 11, 7, 0)),  # after midnight: ends this morning
        ((2026, 6, 11, 6, 59), (2026, 6, 11, 7, 0)),
        ((2026, 6, 10, 22, 0), (2026, 6, 11, 7, 0)),  # the start is inside
    ],
)
def test_a_window_across_midnight_holds_both_sides_of_it(local: tuple, ends: tuple) -> None:
    assert quiet.window_end(**NIGHT, zone=BERLIN, moment=_utc(*local)) == _utc(*ends)


@pytest.mark.parametrize("local", [(2026, 6, 11, 7, 0), (2026, 6, 11, 12, 0), (2026, 6, 10, 21, 59)])
def test_outside_the_window_nothing_is_held(local: tuple) -> None:
    assert quiet.window_end(**NIGHT, zone=BERLIN, moment=_utc(*local)) is None


@pytest.mark.parametrize(
    ("local", "began"),
    [
        ((2026, 6, 11, 7, 0), (2026, 6, 10, 22, 0)),  # at its end: the window just over
        ((2026, 6, 11, 7, 30), (2026, 6, 10, 22, 0)),
        ((2026, 6, 10, 23, 30), (2026, 6, 10, 22, 0)),  # inside it
        ((2026, 6, 11, 0, 5), (2026, 6, 10, 22, 0)),
        ((2026, 6, 11, 22, 0), (2026, 6, 11, 22, 0)),  # the next one begins
    ],
)
def test_the_start_of_the_last_window_to_begin(local: tuple, began: tuple) -> None:
    assert quiet.window_began(**NIGHT, zone=BERLIN, moment=_utc(*local)) == _utc(*began)
    assert quiet.window_began(start=None, end=None, zone=BERLIN, moment=_utc(*local)) is None


def test_no_quiet_hours_by_default() -> None:
    assert quiet.window_end(start=None, end=None, zone=BERLIN, moment=timezone.now()) is None
    assert MailSettings().quiet_start is None and MailSettings().quiet_end is None


def test_the_spring_clock_change_night_is_an_hour_shorter() -> None:
    """Europe/Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST inside a 22:00-07:00 window."""
    start, end = datetime(2026, 3, 28, 21, 0, tzinfo=UTC), datetime(2026, 3, 29, 5, 0, tzinfo=UTC)
    assert quiet.window_end(**NIGHT, zone=BERLIN, moment=start) == end
    assert quiet.window_end(**NIGHT, zone=BERLIN, moment=start - timedelta(minutes=1)) is None
    assert quiet.window_end(**NIGHT, zone=BERLIN, moment=datetime(2026, 3, 29, 1, 30, tzinfo=UTC)) == end
    assert quiet.window_end(**NIGHT, zone=BERLIN, moment=end) is None
    assert end - start == timedelta(hours=8)


def test_the_autumn_clock_change_night_is_an_hour_longer() -> None:
    """Europe/Berlin, 25 October 2026: 03:00 CEST becomes 02:00 CET; the window ends at 07:00 CET."""
    start, end = datetime(2026, 10, 24, 20, 0, tzinfo=UTC), datetime(2026, 10, 25, 6, 0, tzinfo=UTC)
    assert quiet.window_end(**NIGHT, zone=BERLIN, moment=start) == end
    assert quiet.window_end(**NIGHT, zone=BERLIN, moment=datetime(2026, 10, 25, 5, 59, tzinfo=UTC)) == end
    assert quiet.window_end(**NIGHT, zone=BERLIN, moment=end) is None
    assert end - start == timedelta(hours=10)


# --- through the pipeline ----------------------------------------------------------------------------


@pytest.fixture
def moved(monkeypatch: pytest.MonkeyPatch) -> dict[str, datetime]:
    """The notifications' clock, set through ``moved["now"]``."""
    state = {"now": timezone.now()}
    monkeypatch.setattr(notification_clock, "now", lambda: state["now"])
    return state


def _quiet(user: Any, zone: str, start: time, end: time) -> None:
    Profile.objects.filter(user=user).update(time_zone=zone)
    MailSettings.objects.update_or_create(user=user, defaults={"quiet_start": start, "quiet_end": end})
    user.refresh_from_db()


@pytest.mark.django_db
def test_mail_due_inside_quiet_hours_is_held_and_sent_as_one_when_they_end(
    started: Any, users: list, moved: dict, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    _quiet(users[0], "Europe/Berlin", time(22, 0), time(7, 0))
    _quiet(users[1], "Europe/Berlin", time(22, 0), time(7, 0))
    moved["now"] = _utc(2026, 6, 10, 23, 15)  # a quarter past eleven at night in Berlin
    with capture(execute=True):
        game = started(2)
        turn = Decision.objects.get(game=game)
    note = Notification.objects.get(user=users[0])
    assert (note.held, note.due_at, note.status) == (True, _utc(2026, 6, 11, 7, 0), "pending")
    assert mails_to(users[0]) == []

    with capture(execute=True):  # the beat sweep, before and after the end (it queues the send task)
        moved["now"] = _utc(2026, 6, 11, 6, 58)
        send.notifications_requeue_pending(now=moved["now"])
        assert mails_to(users[0]) == []
        moved["now"] = _utc(2026, 6, 11, 7, 1)
        send.notifications_requeue_pending(now=moved["now"])

    (message,) = mails_to(users[0])
    assert "after your quiet hours" in message.subject
    assert str(game) in message.body
    assert Decision.objects.filter(pk=turn.pk).exists()
    assert Notification.objects.get(pk=note.pk).status == "sent"


@pytest.mark.django_db
def test_two_games_held_overnight_come_in_one_mail(
    started: Any, users: list, moved: dict, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    _quiet(users[0], "America/New_York", time(21, 30), time(6, 30))
    moved["now"] = _utc(2026, 11, 1, 0, 10, zone=zoneinfo.ZoneInfo("America/New_York"))  # the DST night
    with capture(execute=True):
        first, second = started(2), started(2)
    held = Notification.objects.filter(user=users[0])
    assert held.count() == 2 and all(n.held for n in held)
    ends = _utc(2026, 11, 1, 6, 30, zone=zoneinfo.ZoneInfo("America/New_York"))
    assert {n.due_at for n in held} == {ends}
    assert ends.hour == 11  # 06:30 EST is 11:30 UTC (the clock went back an hour that night)

    with capture(execute=True):
        moved["now"] = ends
        send.notifications_requeue_pending(now=ends)

    (message,) = mails_to(users[0])
    assert "2 games waiting" in message.subject
    assert sorted(held.values_list("status", flat=True)) == ["merged", "sent"]
    assert {first.pk, second.pk} == set(held.values_list("game_id", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("turn_hours", "quiet_from", "quiet_to", "held"), [(8, 5, 9, False), (24, 17, 19, True)]
)
def test_a_reminder_breaks_quiet_hours_only_for_a_deadline_inside_them_or_an_hour_after(
    turn_hours: int,
    quiet_from: int,
    quiet_to: int,
    held: bool,
    settings: Any,
    started: Any,
    users: list,
    moved: dict,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Deadline at +8 h, quiet +5 h..+9 h: reminded at +6 h. Deadline at +24 h, quiet +17..+19 h: held."""
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        game = started(2, timing_overrides={"turn": turn_hours * 3600})
    turn = Decision.objects.get(game=game)
    opened = turn.opened_at.replace(second=0, microsecond=0)
    _quiet(
        users[0],
        "UTC",
        (opened + timedelta(hours=quiet_from)).time(),
        (opened + timedelta(hours=quiet_to)).time(),
    )
    Notification.objects.all().delete()
    mail.outbox.clear()
    remind_at = turn.opened_at + (turn.deadline - turn.opened_at) * 0.76
    moved["now"] = remind_at
    with capture(execute=True):
        assert notify.reminders_send_due(now=remind_at) == 1

    reminder = Notification.objects.get(kind="reminder")
    assert reminder.held is held
    assert bool(mails_to(users[0])) is not held
    if held:
        assert reminder.due_at == opened + timedelta(hours=quiet_to)


@pytest.mark.django_db
@pytest.mark.parametrize("status", ["pending", "failed"])
def test_a_mail_falling_due_after_quiet_hours_began_waits_for_their_end(
    status: str,
    settings: Any,
    started: Any,
    users: list,
    moved: dict,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Quiet hours set (or begun) after a mail was recorded still hold it; a failed try waits too."""
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture = django_capture_on_commit_callbacks
    moved["now"] = _utc(2026, 6, 10, 21, 59)
    with capture(execute=True):
        started(2)
    note = Notification.objects.get(user=users[0])
    assert not note.held and mails_to(users[0]) == []
    Notification.objects.filter(pk=note.pk).update(status=status)
    _quiet(users[0], "Europe/Berlin", time(22, 0), time(7, 0))

    moved["now"] = note.due_at
    with capture(execute=True):
        assert send.notification_send(notification_id=note.pk) is False

    note.refresh_from_db()
    assert (note.status, note.held, note.due_at) == ("pending", True, _utc(2026, 6, 11, 7, 0))
    assert mails_to(users[0]) == []
    with capture(execute=True):
        moved["now"] = note.due_at
        send.notifications_requeue_pending(now=note.due_at)
    assert len(mails_to(users[0])) == 1


@pytest.mark.django_db
def test_the_mail_after_quiet_hours_with_one_game_waiting_can_be_answered_with_a_move(
    started: Any, users: list, moved: dict, django_capture_on_commit_callbacks: Any
) -> None:
    """Answering the mail is how one plays by mail: with one game waiting, its reply address is the
    mail's own (the reply acts on that game's decision), not only written in its body."""
    capture = django_capture_on_commit_callbacks
    _quiet(users[0], "Europe/Berlin", time(22, 0), time(7, 0))
    moved["now"] = _utc(2026, 6, 10, 23, 15)
    with capture(execute=True):
        game = started(2)
    with capture(execute=True):
        moved["now"] = _utc(2026, 6, 11, 7, 1)
        send.notifications_requeue_pending(now=moved["now"])
    (message,) = mails_to(users[0])
    game.refresh_from_db()

    result = process_reply(reply_to(message, f"play card={game.state['hands'][0][0]}"), capture)

    assert "after your quiet hours" in message.subject and message.reply_to
    assert message.reply_to[0] in message.body
    assert (result.status, result.code) == ("applied", "")
    assert Move.objects.filter(game=game, seat=0).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("answered", "listed"), [((2026, 6, 10, 23, 15), False), ((2026, 6, 10, 21, 30), True)]
)
def test_the_mail_after_quiet_hours_leaves_out_a_decision_an_answer_told_of_during_them(
    answered: tuple,
    listed: bool,
    toy_engine: str,
    users: list,
    moved: dict,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A game against a bot, its turn mailed before the quiet hours; its player replies by mail with a
    move, the bot plays at once, and the answer lists their next decision with its choices: its "Your
    move" mail is not sent (docs/mail.md), nor does the mail after the quiet hours list it when the answer
    came during them. An answer before they began told of it no more than the turn mail before them told
    of another game's: both games are listed, as every game waiting is. Another game's turn opened
    during the quiet hours is what that mail is for."""
    capture = django_capture_on_commit_callbacks
    player = users[0]
    _quiet(player, "Europe/Berlin", time(22, 0), time(7, 0))
    moved["now"] = _utc(2026, 6, 10, 21, 0)
    with capture(execute=True):
        told = play_game(toy_engine, [player], 2, options={"hand": 5})
    moved["now"] = _utc(2026, 6, 10, 21, 5)
    with capture(execute=True):
        send.notifications_requeue_pending(now=moved["now"])
    [turn_mail] = mails_to(player)
    moved["now"] = _utc(*answered)
    result = process_reply(reply_to(turn_mail, f"play card={told.state['hands'][0][0]}"), capture)
    [answer] = mails_to(player)[1:]
    assert result.status == "applied" and Decision.objects.filter(game=told, seat=0).exists()
    with capture(execute=True):  # the turn the bot's move opened, mailed as usual: not at all
        moved["now"] += timedelta(minutes=5)
        send.notifications_requeue_pending(now=moved["now"])
    moved["now"] = _utc(2026, 6, 10, 23, 30)
    with capture(execute=True):
        other = play_game(toy_engine, [player], 2, options={"hand": 5})
    mail.outbox.clear()

    with capture(execute=True):
        moved["now"] = _utc(2026, 6, 11, 7, 1)
        send.notifications_requeue_pending(now=moved["now"])

    (message,) = mails_to(player)
    assert "after your quiet hours" in message.subject
    assert "your choices" in answer.body.lower()
    assert re.search(rf"{re.escape(str(other))}\b", message.body)
    assert bool(re.search(rf"{re.escape(str(told))}\b", message.body)) is listed
    assert ("2 games waiting" if listed else "1 game waiting") in message.subject
