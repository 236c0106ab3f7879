"""Mail replies "sitting yes" / "sitting no" answer the game's latest proposed sitting."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from apps.games.models import Move
from apps.sittings import services as sitting_services
from apps.sittings.mail import parse_sitting_command
from apps.sittings.models import ProposedTime, Sitting
from tests.notifications.conftest import mails_to, process_reply, reply_to

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("line", "parsed"),
    [
        ("sitting yes", (True, None)),
        ("Sitting NO.", (False, None)),
        ("sitting yes 2", (True, 2)),
        ("pass", None),
    ],
)
def test_sitting_commands_parse(line: str, parsed: Any) -> None:
    assert parse_sitting_command(line) == parsed


def test_a_sitting_yes_reply_accepts_the_latest_proposal_and_makes_no_move(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    turn_mail = mail.outbox[0]
    replier = turn_mail_user(turn_mail, users)
    proposer = next(u for u in users[:2] if u != replier)
    sitting_services.proposal_create(game=game, user=proposer, times=[timezone.now() + timedelta(days=1)])

    result = process_reply(reply_to(turn_mail, "sitting yes"), django_capture_on_commit_callbacks)

    assert result.status == "applied"
    assert Sitting.objects.filter(game=game).count() == 1
    assert not Move.objects.filter(game=game).exists()
    assert any("done" in m.subject for m in mails_to(replier))


def test_a_sitting_reply_without_an_open_proposal_is_refused_with_its_code(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        started(2)

    result = process_reply(reply_to(mail.outbox[0], "sitting no"), django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "no_open_proposal")
    assert not ProposedTime.objects.exists()


def turn_mail_user(message: Any, users: list) -> Any:
    return next(u for u in users if u.email in message.to)
