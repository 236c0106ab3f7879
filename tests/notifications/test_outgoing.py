"""Outgoing mail: who gets which notification, its parts and headers, at most once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.utils import timezone

from apps.accounts.models import Profile
from apps.games import autoplay as game_autoplay
from apps.games import clock as game_clock
from apps.games import lifecycle as game_lifecycle
from apps.games import pipeline as game_pipeline
from apps.games.models import Decision, Game, Move, Seat
from apps.notifications import mails, notify, preferences, send
from apps.notifications.models import Category, Mode, Notification
from tests.notifications.conftest import mails_to

pytestmark = pytest.mark.django_db


def _play(game: Game, user: Any, action: dict, capture: Any) -> None:
    with capture(execute=True):
        game_pipeline.submit_action(game_id=game.pk, user=user, action=action)


def _turn_id(game: Game) -> str:
    game.refresh_from_db()
    return Decision.objects.get(game=game).decision_id


def test_turn_mail_goes_only_to_the_seat_that_must_act(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        started(3)

    assert [m.to for m in mail.outbox] == [[users[0].email]]
    note = Notification.objects.get()
    assert (note.kind, note.category, note.status) == ("decision", Category.TURN, Notification.Status.SENT)


def test_window_mail_goes_to_every_eligible_seat(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(3)
    mail.outbox.clear()

    _play(
        game,
        users[0],
        {"type": "play", "decision_id": _turn_id(game), "card": game.state["hands"][0][0]},
        django_capture_on_commit_callbacks,
    )

    assert sorted(m.to[0] for m in mail.outbox if "Snap or pass" in m.subject) == [
        users[1].email,
        users[2].email,
    ]
    assert set(Notification.objects.filter(category=Category.PLUCK).values_list("user", flat=True)) == {
        users[1].pk,
        users[2].pk,
    }


def test_mail_has_text_html_reply_to_and_one_click_unsubscribe(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)

    message = mail.outbox[0]
    html = message.alternatives[0]
    assert html[1] == "text/html" and "Your choices" in html[0]
    assert message.reply_to[0].startswith(f"g{game.pk}.u{users[0].pk}.")
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")
    assert "/mail/unsubscribe/" in message.extra_headers["List-Unsubscribe"]
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/mail/go/" in message.body
    assert "Commands" in message.body  # the command language in the footer


def test_deadline_is_shown_in_the_users_time_zone(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    users[0].profile.time_zone = "Asia/Tokyo"
    users[0].profile.save()

    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)

    deadline = timezone.localtime(
        Decision.objects.get(game=game).deadline, timezone.get_fixed_timezone(9 * 60)
    )
    assert f"{deadline:%H:%M} (Japan Time)" in mail.outbox[0].body


def test_live_games_send_nothing_by_default(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        started(2, control="live")

    assert mail.outbox == []


def test_live_games_send_mail_when_switched_on(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    preferences.preferences_set(user=users[0], live_games=True)

    with django_capture_on_commit_callbacks(execute=True):
        started(2, control="live")

    assert len(mails_to(users[0])) == 1


def test_category_switched_off_sends_nothing(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    preferences.preferences_set(user=users[0], category="turn", mode=Mode.OFF)

    with django_capture_on_commit_callbacks(execute=True):
        started(2)

    assert mail.outbox == []
    assert not Notification.objects.exists()


def test_digest_category_queues_instead_of_sending(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    preferences.preferences_set(user=users[0], category="turn", mode=Mode.DIGEST)

    with django_capture_on_commit_callbacks(execute=True):
        started(2)

    assert mail.outbox == []
    assert Notification.objects.get().status == Notification.Status.QUEUED_DIGEST


def _play_to_the_end(game: Game, users: list) -> None:
    """Both people play the toy game to its end: their first card, or pass."""
    while game.status == Game.Status.ACTIVE:
        decision = Decision.objects.filter(game=game).first()
        user = users[decision.seat]
        view = game.state
        action = (
            {"type": "play", "decision_id": decision.decision_id, "card": view["hands"][decision.seat][0]}
            if decision.kind == "turn"
            else {"type": "pass", "decision_id": decision.decision_id}
        )
        game_pipeline.submit_action(game_id=game.pk, user=user, action=action)
        game.refresh_from_db()


def test_game_result_goes_to_every_human_seat(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
        game_autoplay.play_bots(game.pk)  # nobody is a bot: nothing happens
        _play_to_the_end(game, users)

    results = [m for m in mail.outbox if "final result" in m.subject]
    assert sorted(m.to[0] for m in results) == [users[0].email, users[1].email]
    assert all(m.reply_to == [] for m in results)
    # It cannot be answered, so it lists no mail commands (a turn mail does: test_mail_language).
    assert not [m for m in results if "Commands:" in m.body or "Commands:" in m.alternatives[0][0]]


def test_game_result_mail_names_the_players_as_the_pages_do(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """The standings name each player with the seat number the mail commands use, never "Seat 1"."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
        _play_to_the_end(game, users)

    body = next(m.body for m in mail.outbox if "final result" in m.subject and m.to == [users[0].email])
    assert f"{users[0].username} (seat 0) (you):" in body
    assert f"{users[1].username} (seat 1):" in body
    assert "Seat 1" not in body


def test_round_end_event_mails_the_round_result(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """``round_ended`` (Bao Bei) or ``deal_ended`` (Bao Huang) in a move's events: a round result."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    move = Move.objects.create(
        game=game,
        seq=99,
        seat=0,
        action={},
        events=[{"type": "round_ended", "visible_to": "all", "round": 1}],
    )

    with django_capture_on_commit_callbacks(execute=True):
        made = notify.notify_move_applied(game_id=game.pk, version=99, move_id=move.pk, opened=[])

    assert made == 2
    assert sorted(m.to[0] for m in mail.outbox if "round result" in m.subject) == [
        users[0].email,
        users[1].email,
    ]


def test_a_burst_of_closed_turns_and_a_round_end_is_mailed_as_the_round_result_not_the_final_one(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Turn mails of one burst wait together with the round result of the move that ended the round;
    when none of those turns is open any more at sending time, the mail is the round's result. The
    game goes on: it is not "the game is over" (a Bao Huang deal ended mid-game did that)."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)  # seat 0 owes the first turn; seat 1 owes nothing now
    turn = Notification.objects.create(
        user=users[1], game=game, version=7, kind="decision", category=Category.TURN, seat=1
    )
    ended = Notification.objects.create(
        user=users[1], game=game, version=8, kind="round_result", category=Category.RESULTS, seat=1
    )

    message = mails.build_message(turn, [turn.pk, ended.pk])

    assert message is not None and not game.is_over
    assert message.subject.endswith(": round result")
    assert "A round has ended" in message.body
    assert "final result" not in message.subject and "The game is over" not in message.body


@pytest.mark.parametrize("with_a_turn", [False, True])
def test_a_round_result_still_waiting_when_the_game_ends_is_not_sent_the_game_result_says_it_all(
    with_a_turn: bool, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """A round result waits the settle time; if the game ends meanwhile (the bots or timeouts play the
    next round out), its mail would come after the final result and show the last round's result under
    the earlier round's name. The final result already tells it: nothing is sent, as when the game ends
    in the move that ends the round."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    turn = Notification.objects.create(
        user=users[1], game=game, version=7, kind="decision", category=Category.TURN, seat=1
    )
    ended = Notification.objects.create(
        user=users[1], game=game, version=8, kind="round_result", category=Category.RESULTS, seat=1
    )
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    ended.refresh_from_db()
    turn.refresh_from_db()

    message = mails.build_message(turn, [turn.pk, ended.pk]) if with_a_turn else mails.build_message(ended)

    assert message is None


def test_invitation_is_sent_once(
    toy_engine: str, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = game_lifecycle.game_create(creator=users[0], engine=toy_engine, players=2, options={})

    with django_capture_on_commit_callbacks(execute=True):
        notify.notify_invitation(game_id=game.pk, user=users[3])
        notify.notify_invitation(game_id=game.pk, user=users[3])

    assert len(mails_to(users[3])) == 1
    assert "invited" in mails_to(users[3])[0].subject


def test_an_invitation_names_its_creator_by_the_name_they_show_not_their_username(
    toy_engine: str, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """As every other mail and page names a player: the username is how they sign in, not their name."""
    Profile.objects.filter(user=users[0]).update(display_name="Captain Heron")
    game = game_lifecycle.game_create(creator=users[0], engine=toy_engine, players=2, options={})

    with django_capture_on_commit_callbacks(execute=True):
        notify.notify_invitation(game_id=game.pk, user=users[3])

    [sent] = mails_to(users[3])
    html, _ = sent.alternatives[0]
    for text in (sent.body, html):
        assert "Captain Heron invites you to play" in text
        assert users[0].username not in text


def test_reminder_at_75_percent_of_the_time_once(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    mail.outbox.clear()
    decision = Decision.objects.get(game=game)
    span = decision.deadline - decision.opened_at

    with django_capture_on_commit_callbacks(execute=True):
        early = notify.reminders_send_due(now=decision.opened_at + span * 0.7)
        due = notify.reminders_send_due(now=decision.opened_at + span * 0.8)
        again = notify.reminders_send_due(now=decision.opened_at + span * 0.9)

    assert (early, due, again) == (0, 1, 0)
    assert [m.to[0] for m in mail.outbox] == [users[0].email]
    assert "reminder" in mail.outbox[0].subject
    assert Decision.objects.get(pk=decision.pk).reminded_at is not None


def test_decision_closed_before_sending_is_skipped(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with mock.patch("apps.notifications.tasks.send_notification.delay"):
        with django_capture_on_commit_callbacks(execute=True):
            game = started(2)
        game_pipeline.submit_action(
            game_id=game.pk,
            user=users[0],
            action={"type": "play", "decision_id": _turn_id(game), "card": game.state["hands"][0][0]},
        )
    note = Notification.objects.get(user=users[0])

    sent = send.notification_send(notification_id=note.pk)

    assert sent is False
    assert Notification.objects.get(pk=note.pk).status == Notification.Status.SKIPPED


def test_retried_send_after_a_failure_sends_exactly_once(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """The first attempt fails (recorded with its error); the retry sends; later retries send nothing."""
    with (
        mock.patch("apps.notifications.tasks.send_notification.delay"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        started(2)
    note = Notification.objects.get()

    with (
        mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=OSError("smtp down")),
        pytest.raises(send.SendFailed),
    ):
        send.notification_send(notification_id=note.pk)
    failed = Notification.objects.get(pk=note.pk)
    first = send.notification_send(notification_id=note.pk)
    second = send.notification_send(notification_id=note.pk)

    assert (failed.status, failed.last_error) == (Notification.Status.FAILED, "OSError: smtp down")
    assert (first, second) == (True, False)
    assert len(mail.outbox) == 1
    assert Notification.objects.get(pk=note.pk).attempts == 2


def test_the_send_task_retries_failed_sends_with_backoff() -> None:
    """Retries and backoff sit on the task decorator (a real worker reschedules; eager mode cannot)."""
    from apps.notifications.tasks import send_notification

    assert send.SendFailed in send_notification.autoretry_for
    assert send_notification.retry_backoff and send_notification.max_retries >= 3


def test_a_duplicate_notification_is_not_recorded_twice(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    decision = Decision.objects.get(game=game)

    with django_capture_on_commit_callbacks(execute=True):
        again = notify.notify_move_applied(
            game_id=game.pk, version=0, move_id=None, opened=[[0, decision.kind, decision.decision_id]]
        )

    assert again == 0
    assert len(mail.outbox) == 1


def test_concurrent_claims_send_once(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Two workers holding the same task: the conditional update lets only one through."""
    with (
        mock.patch("apps.notifications.tasks.send_notification.delay"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        started(2)
    note = Notification.objects.get()
    Notification.objects.filter(pk=note.pk).update(
        status=Notification.Status.SENDING, claimed_at=timezone.now()
    )

    assert send.notification_send(notification_id=note.pk) is False
    assert mail.outbox == []


def test_expired_reply_nonces_are_deleted(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    from apps.notifications.models import ReplyAddress

    with django_capture_on_commit_callbacks(execute=True):
        started(2)

    assert (
        mails.expire_reply_addresses(now=timezone.now() + timedelta(days=31))
        == ReplyAddress.objects.count() + 1
    )


def _window_id(game: Game) -> str:
    return Decision.objects.get(game=game, kind="window").decision_id


def _open_window(game: Game, users: list, capture: Any) -> None:
    """Seat 0 plays its first card: the window opens for seat 1."""
    card = game.state["hands"][0][0]
    _play(game, users[0], {"type": "play", "decision_id": _turn_id(game), "card": card}, capture)


def _decision_mails(user: Any) -> list[Any]:
    return [m for m in mails_to(user) if "reminder" not in m.subject]


def test_no_mail_for_the_decision_a_players_own_move_opened_for_them(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Seat 1 passes the window in person; the turn that opens for seat 1 is shown by the page, the API
    reply or the answer mail, so no separate decision mail (and no task) is sent."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    _open_window(game, users, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    with mock.patch("apps.notifications.tasks.notify_move_applied.delay") as queued:
        passing = {"type": "pass", "decision_id": _window_id(game)}
        _play(game, users[1], passing, django_capture_on_commit_callbacks)

    assert Decision.objects.get(game=game).seat == 1  # seat 1's turn is open
    assert queued.call_count == 0
    assert not Notification.objects.filter(user=users[1], decision_kind="turn").exists()


def test_a_timeout_mails_the_owner_of_the_decision_it_opened(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Seat 1 let the window run out: the turn it now owns is news to them."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    _open_window(game, users, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    Decision.objects.filter(game=game).update(deadline=timezone.now() - timedelta(seconds=1))

    with django_capture_on_commit_callbacks(execute=True):
        game_clock.settle_game(game.pk)

    assert [m.to[0] for m in _decision_mails(users[1])] == [users[1].email]
    assert Notification.objects.filter(user=users[1], decision_kind="turn").count() == 1


def test_an_automatic_window_pass_mails_the_owner_of_the_turn_it_opened(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Seat 1 does not wait for windows: the server passes for it, so its new turn is mailed."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
        game_lifecycle.seat_set_skip_pluck_windows(game_id=game.pk, user=users[1], value=True)
    mail.outbox.clear()

    _open_window(game, users, django_capture_on_commit_callbacks)

    assert Decision.objects.get(game=game).seat == 1
    assert Notification.objects.filter(user=users[1], decision_kind="turn").count() == 1
    assert [m.to[0] for m in _decision_mails(users[1])] == [users[1].email]


def test_a_mail_for_a_seat_its_player_no_longer_holds_is_not_sent(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Built at send time from the seat's view: after a substitution it would show the new player's."""
    with (
        mock.patch("apps.notifications.tasks.send_notification.delay"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game = started(2)
    note = Notification.objects.get(user=users[0])
    Seat.objects.filter(game=game, position=note.seat).update(user=users[4])

    sent = send.notification_send(notification_id=note.pk)

    assert sent is False and mail.outbox == []
    assert Notification.objects.get(pk=note.pk).status == Notification.Status.SKIPPED
