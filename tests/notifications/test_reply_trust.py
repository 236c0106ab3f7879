"""Who may play by e-mail and on what: one exact sender, the decision the mail was about."""

from __future__ import annotations

import json
from email import policy
from email.parser import BytesParser
from typing import Any

import pytest
from django.core import mail

from apps.games import pipeline
from apps.games.models import Decision, Move
from apps.notifications.inbound import inbound_process
from baogame.rules.registry import get_engine
from tests.notifications.conftest import reply_to

pytestmark = pytest.mark.django_db


def _start(started: Any, capture: Any) -> Any:
    with capture(execute=True):
        return started(2)


def _process(message: Any, capture: Any) -> Any:
    with capture(execute=True):
        return inbound_process(message=message)


def _reply_from(game: Any, sender: str) -> Any:
    message = reply_to(mail.outbox[0], f"play card={game.state['hands'][0][0]}")
    message.replace_header("From", sender)
    return message


@pytest.mark.parametrize(
    "sender",
    [
        "{me} <mallory@evil.example>",
        '"{me}" <mallory@evil.example>',
        "{me}, mallory@evil.example",
        "mallory@evil.example, {me}",
        "friends: {me};",
        "friends: {me}, mallory@evil.example;",
        "{me})<mallory@evil.example>",
    ],
    ids=["unquoted-name", "quoted-name", "list", "list-reversed", "group", "group-of-two", "bracket-trick"],
)
def test_a_from_header_that_is_not_exactly_the_players_address_is_refused(
    started: Any, users: list, django_capture_on_commit_callbacks: Any, sender: str
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    message = _reply_from(game, sender.format(me=users[0].email))

    result = _process(message, django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "sender_mismatch")
    assert not Move.objects.filter(game=game).exists()


def test_two_from_headers_are_refused(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    raw = _reply_from(game, users[0].email).as_bytes()
    raw = raw.replace(b"From: ", b"From: mallory@evil.example\nFrom: ", 1)

    result = _process(BytesParser(policy=policy.compat32).parsebytes(raw), django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "sender_mismatch")


def test_the_players_address_with_a_display_name_and_other_case_is_accepted(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    local, domain = users[0].email.split("@")
    message = _reply_from(game, f'"Bob the player" <{local}@{domain.upper()}>')

    result = _process(message, django_capture_on_commit_callbacks)

    assert result.status == "applied"


def _seat0_owns_a_later_decision(game: Any, users: list) -> str:
    """Play on until seat 0 owns a new decision; its id."""
    for _ in range(10):
        game.refresh_from_db()
        rows = list(Decision.objects.filter(game=game))
        mine = [r for r in rows if r.seat == 0]
        if mine and Move.objects.filter(game=game).exists():
            return mine[0].decision_id
        row = rows[0]
        legal = get_engine(game.engine).legal_actions(game.state, row.seat)
        pipeline.submit_action(game_id=game.pk, user=users[row.seat], action=legal[0])
    raise AssertionError("seat 0 never got a new decision")


def test_json_command_naming_the_current_decision_in_an_old_mail_is_stale(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """A reply acts only on the decision its mail was about, whatever decision_id its JSON names."""
    game = _start(started, django_capture_on_commit_callbacks)
    old_mail = mail.outbox[0]
    current = _seat0_owns_a_later_decision(game, users)
    moves = Move.objects.filter(game=game).count()
    command = json.dumps({"type": "pass", "decision_id": current})

    result = _process(reply_to(old_mail, command), django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "stale_decision")
    assert Move.objects.filter(game=game).count() == moves


def test_json_command_naming_another_decision_than_its_open_mail_is_stale(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    card = game.state["hands"][0][0]
    command = json.dumps({"type": "play", "decision_id": "d99", "card": card})

    result = _process(reply_to(mail.outbox[0], command), django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "stale_decision")
    assert not Move.objects.filter(game=game).exists()


def test_json_command_without_decision_id_acts_on_the_mails_open_decision(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    game = _start(started, django_capture_on_commit_callbacks)
    command = json.dumps({"type": "play", "card": game.state["hands"][0][0]})

    result = _process(reply_to(mail.outbox[0], command), django_capture_on_commit_callbacks)

    assert result.status == "applied"


@pytest.mark.parametrize("parse_policy", [policy.compat32, policy.default], ids=["compat32", "default"])
def test_a_raw_mail_with_a_name_before_another_address_is_refused(
    started: Any, users: list, django_capture_on_commit_callbacks: Any, parse_policy: Any
) -> None:
    """As the webhook and ``ingest_mail`` receive it: bytes parsed with either policy."""
    game = _start(started, django_capture_on_commit_callbacks)
    message = _reply_from(game, users[0].email)
    raw = message.as_bytes().replace(
        f"From: {users[0].email}".encode(), f"From: {users[0].email} <mallory@evil.example>".encode()
    )

    result = _process(BytesParser(policy=parse_policy).parsebytes(raw), django_capture_on_commit_callbacks)

    assert (result.status, result.code) == ("refused", "sender_mismatch")
