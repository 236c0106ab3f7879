"""The "if I miss a sitting" order by mail: a move mail offers ``sitting bot on / off`` only where the
table can have sittings, and against bots alone the reply is refused with ``table_of_one`` (as a
proposed sitting is there), nothing stored."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.models import Game
from apps.notifications.inbound import inbound_process
from tests.factories import GameFactory, UserFactory
from tests.notifications.conftest import mails_to, reply_to

pytestmark = pytest.mark.django_db

#: Seat 0 holds the Red Joker: the emperor offer (BH-6.2) is its first decision, so it is mailed at once.
HANDS = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]


def _start(capture: Any, people: int) -> tuple[Game, list[Any]]:
    """A Bao Huang game of ``people`` people (the first seats) and bots; seat 0 has had its move mail."""
    users = [UserFactory() for _ in range(people)]
    with capture(execute=True):
        game = GameFactory(
            engine="baohuang", players=5, bots=5 - people, seated=users, options={"deals": [{"hands": HANDS}]}
        )
    return game, users


def _move_mail(user: Any) -> Any:
    return [m for m in mails_to(user) if m.reply_to][-1]


def test_a_move_mail_against_bots_does_not_offer_sitting_bot(django_capture_on_commit_callbacks: Any) -> None:
    _, (person,) = _start(django_capture_on_commit_callbacks, 1)

    mail = _move_mail(person)

    assert "autopass on" in mail.body  # the other order commands are still listed
    assert "sitting bot on" not in mail.body and "sitting bot on" not in mail.alternatives[0][0]


def test_a_move_mail_at_a_table_of_people_offers_sitting_bot(django_capture_on_commit_callbacks: Any) -> None:
    _, users = _start(django_capture_on_commit_callbacks, 2)

    assert "sitting bot on / sitting bot off" in _move_mail(users[0]).body


def test_sitting_bot_on_by_mail_against_bots_is_refused_with_table_of_one(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, (person,) = _start(django_capture_on_commit_callbacks, 1)

    with django_capture_on_commit_callbacks(execute=True):
        result = inbound_process(message=reply_to(_move_mail(person), "sitting bot on"))

    assert (result.status, result.code) == ("refused", "table_of_one")
    assert not game.seats.get(user=person).sitting_bot
    answer = [m for m in mails_to(person) if "refused (table_of_one)" in m.subject]
    assert len(answer) == 1 and "sitting bot on" not in answer[0].body.split("Commands:")[-1]
