"""Helpers for the notification tests: games with human seats, replies to mails."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest
from django.core import mail

from apps.games.models import Game
from apps.notifications.inbound import inbound_process
from tests.factories import GameFactory


def play_game(engine: str, users: list[Any], players: int, **kwargs: Any) -> Game:
    """A started game with ``users`` in the first seats (the rest bots)."""
    return GameFactory(engine=engine, players=players, bots=players - len(users), seated=users, **kwargs)


def mails_to(user: Any) -> list[Any]:
    """The mails in the outbox addressed to ``user``."""
    return [m for m in mail.outbox if user.email in m.to]


def reply_to(
    original: Any,
    body: str,
    *,
    sender: str | None = None,
    message_id: str | None = None,
    html_only: bool = False,
) -> EmailMessage:
    """A reply to an outbox mail, as a mail client would send it (quoting the original)."""
    reply = EmailMessage()
    reply["From"] = sender or original.to[0]
    reply["To"] = original.reply_to[0]
    reply["Subject"] = f"Re: {original.subject}"
    reply["Message-ID"] = message_id or make_msgid(domain="client.example")
    quoted = "\n".join("> " + line for line in original.body.splitlines())
    if html_only:
        reply.set_content(f"<div>{body}</div><blockquote>{original.body}</blockquote>", subtype="html")
    else:
        reply.set_content(f"{body}\n\nOn Mon, 2 Jun 2025 at 10:00, baogame wrote:\n{quoted}\n")
    return reply


def process_reply(message: Any, capture: Any) -> Any:
    """``inbound_process`` of a reply, with its on-commit work run (the answer mail is sent)."""
    with capture(execute=True):
        return inbound_process(message=message)


@pytest.fixture
def started(toy_engine: str, users: list[Any]) -> Callable[..., Game]:
    """Start a toy game of ``n`` humans (mails of the start collected in the outbox)."""

    def start(n: int = 2, **kwargs: Any) -> Game:
        return play_game(toy_engine, users[:n], n, **kwargs)

    return start


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """The six users of ``users`` are hashed with MD5 here: these tests are about mail, not passwords."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
