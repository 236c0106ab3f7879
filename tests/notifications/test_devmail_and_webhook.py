"""The development mailbox (/dev/mail/) and the anymail inbound webhook both reach inbound_process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from anymail.inbound import AnymailInboundMessage
from anymail.signals import AnymailInboundEvent, inbound
from django.core import mail
from django.core.mail import get_connection

from apps.games.models import Move
from apps.notifications import devmail
from tests.notifications.conftest import reply_to

pytestmark = pytest.mark.django_db


@pytest.fixture
def mail_folder(tmp_path: Path, settings: Any) -> Path:
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.DEV_MAILBOX = True
    return tmp_path


def _to_files(folder: Path, messages: list[Any]) -> None:
    """Write outbox mails the way Django's file backend does (one file, 79-dash separators)."""
    connection = get_connection("django.core.mail.backends.filebased.EmailBackend", file_path=str(folder))
    connection.send_messages(messages)


def test_file_backend_output_is_split_into_its_mails(
    mail_folder: Path, started: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        started(3)
        started(2)
    _to_files(mail_folder, list(mail.outbox))

    found = devmail.mails_list()

    assert sorted(m.subject for m in found) == sorted(m.subject for m in mail.outbox)
    assert all(m.reply_to and "Your move" in m.text() for m in found)


def test_mailbox_lists_shows_and_answers_a_mail(
    client: Any, mail_folder: Path, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    _to_files(mail_folder, list(mail.outbox))
    stored = devmail.mails_list()[0]
    card = game.state["hands"][0][0]

    listing = client.get("/dev/mail/")
    page = client.get(f"/dev/mail/{stored.file}/{stored.index}/")
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/dev/mail/{stored.file}/{stored.index}/", {"body": f"play card={card}"})

    assert listing.status_code == 200 and stored.subject in listing.content.decode()
    assert page.status_code == 200 and "Answer by email" in page.content.decode()
    assert answer.status_code == 302
    assert Move.objects.get(game=game).action["card"] == card


def test_a_long_subject_in_other_letters_is_listed_as_it_was_sent(mail_folder: Path) -> None:
    """A subject that is folded as encoded words (a non-ASCII one, as a league table's) is shown whole,
    without the leading space its folding leaves."""
    subject = "[baogame] Demo league · season 1 · round 1 · table 2 (#4): Choose the two cards to look at"
    _to_files(mail_folder, [mail.EmailMessage(subject, "body", "site@example.com", ["wren@example.com"])])

    [found] = devmail.mails_list()

    assert found.subject == subject


def test_mailbox_refuses_paths_outside_its_folder(client: Any, mail_folder: Path) -> None:
    assert client.get("/dev/mail/..%2Fsecret.log/0/").status_code == 404


def test_mailbox_answers_only_requests_from_this_machine(client: Any, mail_folder: Path) -> None:
    """Its mails show players' hands: a development server reachable from elsewhere must not serve it."""
    assert client.get("/dev/mail/", REMOTE_ADDR="192.0.2.7").status_code == 404
    assert client.get("/dev/mail/", REMOTE_ADDR="::1").status_code == 200


def test_mailbox_is_off_without_dev_mailbox(client: Any, mail_folder: Path, settings: Any) -> None:
    settings.DEV_MAILBOX = False

    assert client.get("/dev/mail/").status_code == 404


def test_anymail_inbound_signal_plays_the_reply(
    started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    raw = reply_to(mail.outbox[0], f"play card={game.state['hands'][0][0]}").as_bytes()
    message = AnymailInboundMessage.parse_raw_mime_bytes(raw)

    with django_capture_on_commit_callbacks(execute=True):
        inbound.send(
            sender=object,
            event=AnymailInboundEvent(event_type="inbound", message=message),
            esp_name="Mailgun",
        )

    assert Move.objects.filter(game=game).count() == 1


def test_inbound_webhook_refuses_unauthenticated_posts(client: Any, settings: Any) -> None:
    settings.ANYMAIL = {"WEBHOOK_SECRET": "user:secret", "MAILGUN_WEBHOOK_SIGNING_KEY": "key"}

    response = client.post("/mail/inbound/", {"body-mime": "From: x@y\n\ndraw"})

    assert response.status_code in {400, 401, 403}


def test_a_reply_from_the_mailbox_shows_the_answer_it_produced(
    client: Any, mail_folder: Path, settings: Any, started: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """After sending a reply, the mailbox shows the answer mail (once it was sent)."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    _to_files(mail_folder, list(mail.outbox))
    stored = devmail.mails_list()[0]
    card = game.state["hands"][0][0]
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"

    with django_capture_on_commit_callbacks(execute=False) as sends:  # the worker has not sent it yet
        posted = client.post(f"/dev/mail/{stored.file}/{stored.index}/", {"body": f"play card={card}"})
    waiting = client.get(posted.url)
    for send in sends:
        send()
    shown = client.get(posted.url, follow=True)

    assert "/dev/mail/answer/" in posted.url
    assert waiting.status_code == 200 and b"on its way" in waiting.content
    assert b'http-equiv="refresh"' in waiting.content
    page = shown.content.decode()
    assert shown.redirect_chain and f"done: play card={card}" in page
    assert "Done" in page
