"""Replies to old mails never play on a later decision; a reply of punctuation alone is refused; a
seat the bot plays still hears the results; a finished game's seat is not taken back (docs/mail.md)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from apps.games import lifecycle
from apps.games.errors import ServiceError
from apps.games.models import Decision, Game, Move, Seat
from apps.games.pipeline import submit_action
from apps.notifications import commands, outbox
from apps.notifications.mails import reply_address_for
from apps.notifications.models import InboundMessage, Notification, ReplyAddress
from apps.notifications.notify import notify_game_ended
from tests.notifications.conftest import mails_to, process_reply, reply_to

pytestmark = pytest.mark.django_db


def _start(started: Any, capture: Any) -> Game:
    with capture(execute=True):
        return started(2)


def _their_pass_and_play(game: Game, users: list, capture: Any) -> None:
    """Seat 1 passes the window on seat 0's card, then plays: a window opens for seat 0 again."""
    game.refresh_from_db()
    for move in ({"type": "pass"}, {"type": "play", "card": game.state["hands"][1][0]}):
        theirs = Decision.objects.get(game=game, seat=1).decision_id
        with capture(execute=True):
            submit_action(game_id=game.pk, user=users[1], action={**move, "decision_id": theirs})
        game.refresh_from_db()


def _i_play_by_mail_then_they_play(game: Game, users: list, capture: Any) -> Any:
    """Seat 0 plays its first card by answering its turn mail, then seat 1 passes and plays (a window
    opens for seat 0): the answer mail to seat 0's reply."""
    process_reply(reply_to(mail.outbox[0], f"play card={game.state['hands'][0][0]}"), capture)
    answer = mails_to(users[0])[-1]
    _their_pass_and_play(game, users, capture)
    return answer


def _refused_as_stale(old_mail: Any, game: Game, capture: Any) -> bool:
    """Whether a "pass" sent to ``old_mail`` now is refused with ``stale_decision`` and plays nothing."""
    moves = Move.objects.filter(game=game).count()
    late = process_reply(reply_to(old_mail, "pass"), capture)
    return (late.status, late.code) == ("refused", "stale_decision") and Move.objects.filter(
        game=game
    ).count() == moves


def test_a_reply_to_an_old_answer_does_not_play_on_a_decision_opened_after_it(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    done = _i_play_by_mail_then_they_play(game, users, django_capture_on_commit_callbacks)  # lists nothing
    opened_since = Decision.objects.filter(game=game, seat=0).exists()  # a window on their card

    assert "done" in done.subject and opened_since
    assert _refused_as_stale(done, game, django_capture_on_commit_callbacks)


def test_an_answer_that_lists_a_decision_binds_its_replies_to_that_decision(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    _i_play_by_mail_then_they_play(game, users, django_capture_on_commit_callbacks)
    window = mails_to(users[0])[-1]

    process_reply(reply_to(window, "pass"), django_capture_on_commit_callbacks)  # closes it: my turn
    answer = mails_to(users[0])[-1]
    turn = Decision.objects.get(game=game, seat=0).decision_id
    bound = ReplyAddress.objects.order_by("-pk").filter(user=users[0]).first()
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):  # the turn is played from the page instead
        submit_action(
            game_id=game.pk,
            user=users[0],
            action={"type": "play", "decision_id": turn, "card": game.state["hands"][0][0]},
        )
    _their_pass_and_play(game, users, django_capture_on_commit_callbacks)

    assert bound is not None and bound.decision_id == turn
    assert "after this mail was sent" in answer.body  # its deadline with the time that was left
    assert _refused_as_stale(answer, game, django_capture_on_commit_callbacks)


def test_a_reply_to_a_mail_that_asks_for_no_move_plays_nothing_but_takes_seat_commands(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    address = ReplyAddress(user=users[0], game=game)
    assert address.decision_id == ""  # the model's default: an old address (the open decision)

    mail.outbox.clear()
    original = mail.EmailMessage("[baogame] round result", "A round has ended.", to=[users[0].email])
    original.reply_to = [reply_address_for(user=users[0], game=game)]  # as a result mail makes it

    move = process_reply(
        reply_to(original, f"play card={game.state['hands'][0][0]}"), django_capture_on_commit_callbacks
    )
    moved = Move.objects.filter(game=game).exists()
    order = process_reply(reply_to(original, "hand over"), django_capture_on_commit_callbacks)

    assert (move.status, move.code) == ("refused", "stale_decision")
    assert not moved
    assert order.status == "applied" and Seat.objects.get(game=game, position=0).bot_takeover


@pytest.mark.parametrize("line", [", .", "，  。", "。", ";;", "!"])
def test_a_first_line_of_punctuation_alone_is_refused_as_no_command(
    line: str, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)

    result = process_reply(reply_to(mail.outbox[0], line), django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "no_command")
    assert InboundMessage.objects.get(pk=result.inbound_id).code == "no_command"
    assert "no_command" in mails_to(users[0])[-1].subject
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.parametrize("engine", ["baobei", "baohuang"])
@pytest.mark.parametrize("line", [", .", "，  。", "、"])
def test_each_games_grammar_refuses_punctuation_alone_bb_22_bh_20(engine: str, line: str) -> None:
    with pytest.raises(commands.CommandError) as refused:
        commands.parse_command(engine=engine, text=line)

    assert refused.value.code == "no_command"


def test_the_results_go_to_a_person_whose_seat_the_bot_plays(started: Any, users: list) -> None:
    game = started(2)
    Seat.objects.filter(game=game, position=1).update(bot_takeover=True)  # handed over, or absent
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()

    notify_game_ended(game_id=game.pk)

    told = set(
        Notification.objects.filter(game=game, kind=Notification.Kind.GAME_RESULT).values_list(
            "user", flat=True
        )
    )
    assert told == {users[0].pk, users[1].pk}


def test_a_round_end_is_told_when_only_a_person_whose_seat_the_bot_plays_is_left() -> None:
    wanted, round_ended = outbox.wanted_mails(
        opened=[],
        in_person_seat=None,
        event_types=frozenset(outbox.ROUND_END_EVENTS),
        people=frozenset(),
        persons=frozenset({1}),
    )
    nobody = outbox.wanted_mails(
        opened=[],
        in_person_seat=None,
        event_types=frozenset(outbox.ROUND_END_EVENTS),
        people=frozenset(),
        persons=frozenset(),
    )

    assert (wanted, round_ended) == ([], True)
    assert nobody == ([], False)  # a game of bots alone records nothing


def test_a_finished_games_seat_is_not_taken_back(started: Any, users: list) -> None:
    game = started(2)
    Seat.objects.filter(game=game, position=0).update(bot_takeover=True)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

    with pytest.raises(ServiceError) as refused:
        lifecycle.seat_take_back(game_id=game.pk, user=users[0])

    assert refused.value.code == "game_not_active"
    assert Seat.objects.get(game=game, position=0).bot_takeover


def test_a_stale_reply_with_nothing_open_is_told_so_not_asked_for_a_correction(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    turn_mail = mail.outbox[0]
    process_reply(
        reply_to(turn_mail, f"play card={game.state['hands'][0][0]}"), django_capture_on_commit_callbacks
    )

    late = process_reply(reply_to(turn_mail, "pass"), django_capture_on_commit_callbacks)  # seat 1 is to act
    answer = mails_to(users[0])[-1]
    html = str(answer.alternatives[0][0])

    assert (late.status, late.code) == ("refused", "stale_decision")
    assert not Decision.objects.filter(game=game, seat=0).exists()
    assert "corrected command" not in answer.body and "corrected command" not in html
    assert "Nothing is waiting for your move in this game now" in answer.body
    assert "Nothing is waiting for your move in this game now" in html


def test_a_refused_move_of_a_seat_the_bot_plays_says_how_to_take_it_back(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    _start(started, django_capture_on_commit_callbacks)
    turn_mail = mail.outbox[0]
    process_reply(reply_to(turn_mail, "hand over"), django_capture_on_commit_callbacks)

    late = process_reply(reply_to(turn_mail, "pass"), django_capture_on_commit_callbacks)
    answer = mails_to(users[0])[-1]

    assert late.status == "refused"
    assert "corrected command" not in answer.body
    assert "reply “take back”" in answer.body


@pytest.mark.parametrize("line", ["pass", "no such command"])
def test_the_answer_names_a_titled_game_with_its_number_as_its_other_mails_do(
    line: str, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Two games may share a title ("Friday game"): the answer says which one, as the turn mail did."""
    game = _start(started, django_capture_on_commit_callbacks)
    Game.objects.filter(pk=game.pk).update(title="Friday game")
    process_reply(reply_to(mail.outbox[0], line), django_capture_on_commit_callbacks)
    answer = mails_to(users[0])[-1]

    assert answer.subject.startswith(f"[baogame] Friday game (#{game.pk}): ")
    assert answer.body.splitlines()[0].endswith(f" — Friday game (#{game.pk})")
