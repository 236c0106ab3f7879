"""Mail replies "hand over" / "take back" (托管 / 取消托管) change who plays the sender's seat, as the
game page's "Let the bot play my seat" and "Take my seat back" buttons do; the seat-to-bot mail
offers "take back" as a reply."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from apps.games import clock, scheduling
from apps.games.models import Move, Seat
from apps.notifications.seat_commands import HAND_OVER, TAKE_BACK, parse_seat_command
from tests.deadlines.helpers import a_game, overdue
from tests.notifications.conftest import mails_to, process_reply, reply_to

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("line", "parsed"),
    [
        ("hand over", HAND_OVER),
        ("Hand  Over.", HAND_OVER),
        ("托管", HAND_OVER),
        ("take back", TAKE_BACK),
        ("TAKE BACK!", TAKE_BACK),
        ("取消托管。", TAKE_BACK),
        ("take 3", None),
        ("hand over 2", None),
        ("pass", None),
    ],
)
def test_seat_commands_parse(line: str, parsed: str | None) -> None:
    assert parse_seat_command(line) == parsed


def _seat(game: Any, user: Any) -> Seat:
    return Seat.objects.get(game=game, user=user)


@pytest.fixture
def turn_mail(started: Any, users: list, django_capture_on_commit_callbacks: Any) -> tuple[Any, Any, Any]:
    """A started game, the first turn mail, and the player it went to."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    sent = mail.outbox[0]
    return game, sent, next(u for u in users if u.email in sent.to)


@pytest.fixture
def to_bot_mail(toy_engine: str, users: list, django_capture_on_commit_callbacks: Any) -> tuple[Any, Any]:
    """A game whose seat 0 went to the bot after a missed deadline, and the mail that told its player."""
    game = a_game(toy_engine, users, players=2, absent_limit=1, options={"hand": 5})
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        overdue(game, kind="turn")
        clock.settle_game(game.pk)
    [sent] = [m for m in mails_to(users[0]) if "a bot plays your seat" in m.subject]
    assert _seat(game, users[0]).bot_takeover
    return game, sent


def test_a_hand_over_reply_gives_the_seat_to_the_bot_and_says_so(
    turn_mail: tuple[Any, Any, Any], django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer says the bot plays the seat, and asks nothing of it, even before the bot has answered
    what is open (its task is held back here, as a busy worker would)."""
    game, sent, sender = turn_mail
    monkeypatch.setattr(scheduling, "queue_after_handover", lambda locked: None)
    moves_before = Move.objects.filter(game=game, by_bot=False).count()
    mail.outbox.clear()

    result = process_reply(reply_to(sent, "托管"), django_capture_on_commit_callbacks)

    assert result.status == "applied"
    assert _seat(game, sender).bot_takeover
    assert Move.objects.filter(game=game, by_bot=False).count() == moves_before  # no move of the sender's
    [answer] = [m for m in mails_to(sender) if "done" in m.subject]
    assert "A bot plays your seat from now on, until you take it back" in answer.body
    assert "Your choices" not in answer.body  # the bot answers for the seat now: nothing is asked


def test_a_take_back_reply_ends_the_bots_play_of_the_seat(
    to_bot_mail: tuple[Any, Any], users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """The seat-to-bot mail (DESIGN: repeated timeouts hand the seat to a bot) can be answered with
    "take back": the seat is the player's again, as with the game page's button."""
    game, to_bot = to_bot_mail
    assert "reply “take back” to this mail" in to_bot.body
    assert to_bot.reply_to, "the seat-to-bot mail can be answered"

    result = process_reply(reply_to(to_bot, "take back"), django_capture_on_commit_callbacks)

    assert result.status == "applied"
    seat = _seat(game, users[0])
    assert not seat.bot_takeover and seat.consecutive_timeouts == 0
    [answer] = [m for m in mails_to(users[0]) if "done" in m.subject]
    assert "Your seat is yours again" in answer.body


def test_a_take_back_reply_under_an_organisers_hold_is_refused_with_its_code(
    to_bot_mail: tuple[Any, Any], users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game, to_bot = to_bot_mail
    Seat.objects.filter(game=game, user=users[0]).update(bot_hold=True)

    result = process_reply(reply_to(to_bot, "take back"), django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "organiser_hold")
    assert _seat(game, users[0]).bot_takeover


def test_a_hand_over_reply_after_the_game_ended_is_refused(
    turn_mail: tuple[Any, Any, Any], django_capture_on_commit_callbacks: Any
) -> None:
    game, sent, sender = turn_mail
    game.status = game.Status.FINISHED
    game.save(update_fields=["status"])

    result = process_reply(reply_to(sent, "hand over"), django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "game_not_active")
    assert not _seat(game, sender).bot_takeover
