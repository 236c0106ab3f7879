"""A decision the answer to a mail command already told is not mailed again as "Your move".

A player replies by mail; the bots play at once, and the player must act again. The answer mail lists
that decision with its choices; the decision's own mail, which waits the settle time, is then not sent.
A decision that opens after the answer was written is mailed as usual.

The move pipeline runs for real (eager tasks, the bots answering on commit); the notifications' clock
is moved instead of sleeping, as in ``test_settle.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.core import mail

from apps.games import pipeline as game_pipeline
from apps.games import scheduling
from apps.games.models import Decision, Game
from apps.notifications import notify, tasks, tokens
from apps.notifications.models import Notification, ReplyAddress
from tests.notifications.conftest import mails_to, play_game, process_reply, reply_to
from tests.support.notify_clock import MovableClock  # its fixture `clock` is a plugin (conftest.py)

pytestmark = pytest.mark.django_db


def _deliver_due(clock: MovableClock, capture: Any) -> None:
    """The broker delivers every send task whose ETA the clock has reached (each pending row's)."""
    due = Notification.objects.filter(status=Notification.Status.PENDING, due_at__lte=clock.now)
    with capture(execute=True):
        for pk in list(due.values_list("pk", flat=True)):
            tasks.send_notification.delay(pk).get()


def _bound_decision(message: Any) -> str:
    """The decision a reply to ``message`` would act on."""
    target = tokens.reply_address_parse(message.reply_to[0])
    return ReplyAddress.objects.get(pk=target.nonce).decision_id


def _against_a_bot(toy_engine: str, player: Any, clock: MovableClock, capture: Any) -> tuple[Game, Any]:
    """A toy game of ``player`` (seat 0) against one bot, and the first turn's mail once it is sent."""
    with capture(execute=True):
        game = play_game(toy_engine, [player], 2, options={"hand": 5})
    clock.advance(120)
    _deliver_due(clock, capture)
    [turn_mail] = mails_to(player)
    return game, turn_mail


def _open_decision(game: Game) -> Decision:
    return Decision.objects.get(game=game, seat=0)


@dataclass(frozen=True)
class Answered:
    """A toy game against a bot whose first turn ``player`` played by replying to its mail."""

    game: Game
    result: Any  #: what processing the reply gave
    told: Decision  #: the decision open after the bot's answer, which the answer mail lists


def _answered_by_mail(toy_engine: str, player: Any, clock: MovableClock, capture: Any) -> Answered:
    """The first turn's mail, answered "play" with the player's first card; the bot plays at once."""
    game, turn_mail = _against_a_bot(toy_engine, player, clock, capture)
    result = process_reply(reply_to(turn_mail, f"play card={game.state['hands'][0][0]}"), capture)
    return Answered(game=game, result=result, told=_open_decision(game))


def test_a_decision_listed_in_the_answer_is_not_mailed_again(
    settings: Any, toy_engine: str, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture, player = django_capture_on_commit_callbacks, users[0]
    answered = _answered_by_mail(toy_engine, player, clock, capture)

    clock.advance(120)
    _deliver_due(clock, capture)

    assert answered.result.status == "applied"
    again = _open_decision(answered.game)  # the bot played, and the player must act again
    assert Notification.objects.filter(user=player, decision_id=again.decision_id).exists()
    sent = mails_to(player)
    assert len(sent) == 2, [m.subject for m in sent]  # the first turn's mail and the answer: no more
    assert "done" in sent[1].subject and _bound_decision(sent[1]) == again.decision_id
    note = Notification.objects.get(user=player, decision_id=again.decision_id)
    assert note.status == Notification.Status.SKIPPED


def test_a_decision_listed_in_the_answer_is_still_reminded_near_its_deadline(
    settings: Any, toy_engine: str, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture, player = django_capture_on_commit_callbacks, users[0]
    told = _answered_by_mail(toy_engine, player, clock, capture).told
    assert told.deadline is not None
    clock.now = told.opened_at + (told.deadline - told.opened_at) * 0.8

    with capture(execute=True):
        notify.reminders_send_due()
    _deliver_due(clock, capture)

    [_, _, reminder] = mails_to(player)
    assert "reminder" in reminder.subject and _bound_decision(reminder) == told.decision_id


def test_a_decision_opened_after_the_answer_is_mailed(
    settings: Any, toy_engine: str, users: list, clock: MovableClock, django_capture_on_commit_callbacks: Any
) -> None:
    """The answer told the window the bot's card opened; the player then passes it and plays on the page,
    and the bot's next card opens another window: that one is mailed (one mail for the burst)."""
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture, player = django_capture_on_commit_callbacks, users[0]
    answered = _answered_by_mail(toy_engine, player, clock, capture)
    game, told = answered.game, answered.told
    with capture(execute=True):
        game_pipeline.submit_action(
            game_id=game.pk, user=player, action={"type": "pass", "decision_id": told.decision_id}
        )
        game.refresh_from_db()
        turn = _open_decision(game)
        game_pipeline.submit_action(
            game_id=game.pk,
            user=player,
            action={"type": "play", "decision_id": turn.decision_id, "card": game.state["hands"][0][0]},
        )
    later = _open_decision(game)
    assert later.kind == "window" and later.decision_id != told.decision_id

    clock.advance(120)
    _deliver_due(clock, capture)

    [_, answer, your_move] = mails_to(player)
    assert _bound_decision(answer) == told.decision_id
    assert _bound_decision(your_move) == later.decision_id
    assert "done" not in your_move.subject


def test_a_decision_opened_after_the_answer_was_written_is_mailed(
    settings: Any,
    toy_engine: str,
    users: list,
    clock: MovableClock,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bots' task runs only after the answer has gone out (a busy queue): the answer lists no
    decision, so the window the bot's card opens is mailed."""
    settings.NOTIFY_SETTLE_SECONDS = 90
    capture, player = django_capture_on_commit_callbacks, users[0]
    game, turn_mail = _against_a_bot(toy_engine, player, clock, capture)
    held_bots: list[tuple[Any, ...]] = []
    real_publish = scheduling.publish

    def publish_holding_bots(name: str, args: tuple[Any, ...] = (), **kwargs: Any) -> bool:
        if name == scheduling.PLAY_BOTS:
            held_bots.append((name, args, kwargs))
            return True
        return real_publish(name, args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(scheduling, "publish", publish_holding_bots)
        process_reply(reply_to(turn_mail, f"play card={game.state['hands'][0][0]}"), capture)
    [_, answer] = mails_to(player)
    assert "done" in answer.subject and _bound_decision(answer) == ReplyAddress.NO_DECISION
    assert held_bots
    with capture(execute=True):
        for name, args, kwargs in held_bots:
            real_publish(name, args, **kwargs)
    opened = _open_decision(game)

    clock.advance(120)
    _deliver_due(clock, capture)

    [_, _, your_move] = mails_to(player)
    assert _bound_decision(your_move) == opened.decision_id
    assert len(mail.outbox) == 3


def test_the_answer_lists_the_decision_mailed_before_once_and_no_other_bh_6_2(
    users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """The answer to a command that leaves the decision open ("orders") lists that decision, which the
    "Your move" mail told already: once, with its choices, because a reply to the answer acts on it
    (its reply address is bound to it); it lists no other decision ("Also open for you"), as a seat owns
    one decision at a time (BB-25.5, BH-25.2), and no second "Your move" mail comes for it."""
    capture, player = django_capture_on_commit_callbacks, users[0]
    deal = {"hands": [["6", "K", "RJ*"], ["7", "8"], ["9", "10"], ["J", "Q"], ["A", "BJ*"]]}
    with capture(execute=True):
        game = play_game("baohuang", [player], 5, options={"deals": [deal, deal]})
    [your_move] = mails_to(player)
    offer = _open_decision(game)

    result = process_reply(reply_to(your_move, "orders"), capture)

    [_, answer] = mails_to(player)
    assert result.status == "applied" and "done: orders" in answer.subject
    for body in (answer.body, answer.alternatives[0][0]):
        assert body.count("Keep the marked red joker (become emperor) or pass it on.") == 1
        assert "Also open for you" not in body
    assert answer.body.count("\n  keep\n") == 1 and answer.body.count("\n  pass emperor\n") == 1
    assert _bound_decision(answer) == offer.decision_id
    assert Notification.objects.filter(user=player, decision_id=offer.decision_id).count() == 1
