"""Bao Huang's emperor offer (BH-6.2) and its declarations (BH-8) share the decision kind ``declare``;
every text about an open decision says which of the two it is, by one rule (``compose.row_decision``:
the recipient's own view of their own decision): the "Your move" mail, its reminder at 75% of the time,
a mail's list of the other decisions still open, a digest's line and the calendar of deadlines. None
asks to "answer the emperor offer or the declarations" any more."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from apps.games import pipeline
from apps.games import selectors as game_selectors
from apps.games.models import Decision, Game
from apps.notifications import calendar, mails
from apps.notifications.models import Category, MailSettings, Mode, Notification
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

#: Seat 0 holds the marked red joker, so the emperor offer is seat 0's (BH-6.2); seat 1 holds the
#: marked black joker.
DEAL = {"hands": [["6", "K", "RJ*"], ["7", "8"], ["9", "10"], ["J", "Q"], ["A", "BJ*"]]}
OFFER = "Keep the marked red joker (become emperor) or pass it on."
DECLARE = "Declare (pledge, announce alone) or make no declaration."
GENERIC = "emperor offer or the declarations"


def _offered(people: list[Any], capture: Any) -> Game:
    """A Bao Huang game of ``people`` (seats 0, 1, …) and bots, seat 0 holding the emperor offer."""
    with capture(execute=True):
        return GameFactory(
            engine="baohuang", players=5, bots=5 - len(people), seated=people, options={"deals": [DEAL, DEAL]}
        )


def _declaring(people: list[Any], capture: Any) -> Game:
    """The same game once seat 0 kept the marked red joker: the declarations are open (BH-8)."""
    game = _offered(people, capture)
    with capture(execute=True):
        pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
    game.refresh_from_db()
    assert game.state["phase"] == "declare"
    return game


def _row(game: Game, seat: int = 0) -> Decision:
    row = game_selectors.seat_decisions(game=game, seat=seat).first()
    assert row is not None and row.kind == "declare"
    return row


def _note(user: Any, kind: str, game: Any = None, **fields: Any) -> Notification:
    version = 1000 + Notification.objects.filter(user=user).count()
    category = fields.pop("category", Category.TURN)
    return Notification.objects.create(
        user=user, game=game, version=version, kind=kind, category=category, **fields
    )


def _reminder(user: Any, game: Game) -> Any:
    row = _row(game)
    message = mails.build_message(
        _note(
            user,
            Notification.Kind.REMINDER,
            game,
            seat=0,
            decision_id=row.decision_id,
            decision_kind=row.kind,
        )
    )
    assert message is not None
    return message


@pytest.mark.parametrize(("phase", "wording"), [(_offered, OFFER), (_declaring, DECLARE)])
def test_the_reminder_says_which_question_it_is_bh_6_2_bh_8(
    users: list[Any], django_capture_on_commit_callbacks: Any, phase: Any, wording: str
) -> None:
    game = phase(users[:1], django_capture_on_commit_callbacks)

    reminder = _reminder(users[0], game)

    assert "reminder" in reminder.subject and wording.rstrip(".") in reminder.subject
    assert wording in reminder.body and wording in reminder.alternatives[0][0]
    assert GENERIC not in reminder.body + reminder.subject


def test_the_reminder_of_a_decision_whose_view_is_gone_falls_back_to_its_kind(
    users: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    """A row its seat's view no longer shows (it is being closed) is named by its kind alone: the rule
    reads nothing but the row's own seat's view of that very decision."""
    game = _offered(users[:1], django_capture_on_commit_callbacks)
    row = _row(game)
    Decision.objects.filter(pk=row.pk).update(decision_id="elsewhere")
    row.refresh_from_db()

    assert mails.compose.row_decision(game, row) == {"kind": "declare"}


@pytest.mark.parametrize(("phase", "wording"), [(_offered, OFFER), (_declaring, DECLARE)])
def test_the_list_of_the_other_open_decisions_says_which_question_it_is(
    users: list[Any], django_capture_on_commit_callbacks: Any, phase: Any, wording: str
) -> None:
    """A mail about one decision lists the seat's others still open ("Also open for you in this game:"),
    each named as the game page names it. (One seat owns one decision at a time in both games; a row of
    another decision with an earlier deadline stands in for a game that opens two.)"""
    game = phase(users[:1], django_capture_on_commit_callbacks)
    row = _row(game)
    Decision.objects.create(
        game=game,
        seat=0,
        decision_id="other",
        kind="turn",
        timing="turn",
        opened_at=row.opened_at,
        deadline=row.deadline - timedelta(minutes=5),
    )

    message = mails.build_message(_note(users[0], Notification.Kind.DECISION, game, seat=0))

    assert message is not None
    also = message.body.split("Also open for you in this game:", 1)[1].splitlines()[1]
    assert also.strip().startswith(f"- {wording} Deadline:")
    assert GENERIC not in message.body


@pytest.mark.parametrize(("phase", "wording"), [(_offered, OFFER), (_declaring, DECLARE)])
def test_a_digest_line_says_which_question_it_is(
    users: list[Any], django_capture_on_commit_callbacks: Any, phase: Any, wording: str
) -> None:
    game = phase(users[:1], django_capture_on_commit_callbacks)
    MailSettings.objects.update_or_create(user=users[0], defaults={"modes": {Category.TURN: Mode.DIGEST}})

    digest = mails.build_message(_note(users[0], Notification.Kind.DIGEST, category=Category.DIGEST))

    assert digest is not None and str(game.pk) in digest.body
    assert wording in digest.body and GENERIC not in digest.body


def test_the_calendar_says_which_question_each_deadline_is_for_bh_6_2_bh_8(
    users: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    """Seat 0's entry names the offer, then, once kept, the declarations; seat 1 (another person) has
    the declarations only once they open, and its entry is about its own decision."""
    offered = _offered(users[:2], django_capture_on_commit_callbacks)

    [offer] = calendar.decision_entries(user=users[0])
    assert calendar.decision_entries(user=users[1]) == []
    with django_capture_on_commit_callbacks(execute=True):
        pipeline.submit_action(game_id=offered.pk, user=users[0], action={"type": "keep_emperor"})
    [mine] = calendar.decision_entries(user=users[0])
    [theirs] = calendar.decision_entries(user=users[1])

    assert offer.summary == f"{offered}: {OFFER.rstrip('.')}"
    assert offer.description.startswith(OFFER)
    for entry in (mine, theirs):
        assert entry.summary == f"{offered}: {DECLARE.rstrip('.')}"
        assert entry.description.startswith(DECLARE)
    assert GENERIC not in calendar.feed_ics(user=users[0]).decode()
