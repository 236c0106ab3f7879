"""A decision the answer to a mail command already listed is not pushed either.

A player replies by mail; the bots play at once, and the player must act again. The answer mail lists
that decision with its choices; the "Your move" mail is then not sent, and the browser gets no notice
of it either (one rule, ``selectors.decisions_told_in_answers``). A decision that opens afterwards is
pushed as usual.

The move pipeline runs for real (eager tasks, the bots answering on commit) and the local push service
decrypts every message; the notifications' clock is moved instead of sleeping.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from apps.games import pipeline
from apps.games.models import Decision, Game
from apps.notifications import tasks as mail_tasks
from apps.notifications.models import Notification
from apps.push import tasks
from apps.push.models import PushBurst
from tests.notifications.conftest import mails_to, play_game, process_reply, reply_to
from tests.support.notify_clock import MovableClock  # its fixture `clock` is a plugin (conftest.py)
from tests.support.receivers import PushService

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("settle_time")]


def _deliver_due(clock: MovableClock, capture: Any) -> None:
    """The broker delivers every mail's and every burst's send task whose ETA the clock has reached."""
    mails = Notification.objects.filter(status=Notification.Status.PENDING, due_at__lte=clock.now)
    bursts = PushBurst.objects.filter(due_at__lte=clock.now)
    with capture(execute=True):
        for pk in list(mails.values_list("pk", flat=True)):
            mail_tasks.send_notification.delay(pk).get()
        for pk in list(bursts.values_list("pk", flat=True)):
            tasks.send_burst.delay(pk).get()


class Answered(NamedTuple):
    game: Game
    player: Any
    result: Any


@pytest.fixture
def answered(
    toy_engine: str,
    users: list[Any],
    subscribed_player: Any,
    service: PushService,
    clock: MovableClock,
    django_capture_on_commit_callbacks: Any,
) -> Answered:
    """A toy game of a player (seat 0, a subscribed browser) against one bot: once its first turn's mail
    and push notice are sent, the player answers the mail with a card; the bot answers at once."""
    capture, player = django_capture_on_commit_callbacks, subscribed_player(users[0])
    with capture(execute=True):
        game = play_game(toy_engine, [player], 2, options={"hand": 5})
    clock.advance(120)
    _deliver_due(clock, capture)
    [turn_mail] = mails_to(player)
    assert len(service.received) == 1

    result = process_reply(reply_to(turn_mail, f"play card={game.state['hands'][0][0]}"), capture)
    return Answered(game, player, result)


def test_a_decision_listed_in_the_answer_is_not_pushed(
    answered: Answered, service: PushService, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    capture, (game, player, result) = django_capture_on_commit_callbacks, answered

    assert result.status == "applied"
    assert PushBurst.objects.filter(user=player, game=game).exists()  # the bot's card opened a decision
    clock.advance(120)
    _deliver_due(clock, capture)

    assert Decision.objects.filter(game=game, seat=0).exists()  # the player must act again
    assert len(mails_to(player)) == 2  # the first turn's mail and the answer
    assert len(service.received) == 1  # the first turn's notice: the answer told the rest
    assert not PushBurst.objects.exists()


def test_a_decision_opened_after_the_answer_is_pushed(
    answered: Answered, service: PushService, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    """The answer told the window the bot's card opened; the player passes it and plays on the page, and
    the bot's next card opens another window: the browser is told of that one."""
    capture, (game, player, _) = django_capture_on_commit_callbacks, answered
    told = Decision.objects.get(game=game, seat=0)
    with capture(execute=True):
        pipeline.submit_action(
            game_id=game.pk, user=player, action={"type": "pass", "decision_id": told.decision_id}
        )
        game.refresh_from_db()
        turn = Decision.objects.get(game=game, seat=0)
        pipeline.submit_action(
            game_id=game.pk,
            user=player,
            action={"type": "play", "decision_id": turn.decision_id, "card": game.state["hands"][0][0]},
        )
    later = Decision.objects.get(game=game, seat=0)
    assert later.decision_id != told.decision_id

    clock.advance(120)
    _deliver_due(clock, capture)

    assert len(service.received) == 2
