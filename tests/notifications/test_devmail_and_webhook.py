"""The development mailbox (/dev/mail/) and the anymail inbound webhook both reach inbound_process."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from anymail.inbound import AnymailInboundMessage
from anymail.signals import AnymailInboundEvent, inbound
from django.core import mail
from django.core.mail import get_connection

from apps.games.models import Game, Move
from apps.notifications import devmail
from tests.factories import GameFactory, UserFactory
from tests.notifications.conftest import mails_to, reply_to

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
    client.force_login(users[0])  # the mail's recipient

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
    client.force_login(UserFactory(is_staff=True))

    assert client.get("/dev/mail/..%2Fsecret.log/0/").status_code == 404


def test_mailbox_answers_only_requests_from_this_machine(client: Any, mail_folder: Path) -> None:
    """Its mails show players' hands: a development server reachable from elsewhere must not serve it."""
    client.force_login(UserFactory(is_staff=True))

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
    client: Any,
    mail_folder: Path,
    settings: Any,
    started: Any,
    users: list,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """After sending a reply, the mailbox shows the answer mail (once it was sent)."""
    with django_capture_on_commit_callbacks(execute=True):
        game = started(2)
    _to_files(mail_folder, list(mail.outbox))
    stored = devmail.mails_list()[0]
    card = game.state["hands"][0][0]
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    client.force_login(users[0])  # the mail's recipient

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


# --- who reads what ---------------------------------------------------------------------------------


#: An address of users[1]'s besides their account's (``EmailAddress``), in the tests that give it them.
SECOND = "second-address@example.com"


def _two_players_mails(
    mail_folder: Path, started: Any, users: list, capture: Any
) -> list[devmail.StoredMail]:
    """A toy game of users[0] and users[1] (users[0]'s turn mail), and a mail to each of users[1]'s
    addresses, as the file backend wrote them."""
    with capture(execute=True):
        started(2)
    news = [
        mail.EmailMessage(f"news {n}", "body", "site@example.com", [to])
        for n, to in enumerate([users[1].email, SECOND])
    ]
    _to_files(mail_folder, [*mail.outbox, *news])
    return devmail.mails_list()


def test_a_signed_out_visitor_is_asked_to_sign_in_and_reads_no_mail(
    client: Any, mail_folder: Path, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """A mail holds its reader's hand, a sign-in link and a reply address that plays their seat: being on
    this machine is not enough to read it (a tunnel or proxy makes every visitor local)."""
    stored = _two_players_mails(mail_folder, started, users, django_capture_on_commit_callbacks)[0]

    pages = [
        client.get("/dev/mail/"),
        client.get(f"/dev/mail/{stored.file}/{stored.index}/"),
        client.post(f"/dev/mail/{stored.file}/{stored.index}/", {"body": "pass"}),
        client.get("/dev/mail/answer/1/"),
    ]

    for page in pages:
        assert page.status_code == 302 and page.url.startswith("/accounts/login/?next=/dev/mail/")
    assert not Move.objects.exists()


def test_a_user_reads_only_the_mails_to_their_own_addresses(
    client: Any, mail_folder: Path, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """users[1] lists and opens their own mails (to any of their addresses); users[0]'s mail is not
    listed for them, and opening or answering it by its address is a 404."""
    stored = _two_players_mails(mail_folder, started, users, django_capture_on_commit_callbacks)
    EmailAddress.objects.create(user=users[1], email=SECOND, verified=True)
    theirs = [m for m in stored if users[0].email in m.to]
    mine = [m for m in stored if users[0].email not in m.to]
    assert theirs and mine
    client.force_login(users[1])

    listing = client.get("/dev/mail/").content.decode()
    opened = [client.get(f"/dev/mail/{m.file}/{m.index}/").status_code for m in mine]
    foreign = client.get(f"/dev/mail/{theirs[0].file}/{theirs[0].index}/")
    answered = client.post(f"/dev/mail/{theirs[0].file}/{theirs[0].index}/", {"body": "pass"})

    assert users[1].email in listing and SECOND in listing
    assert users[0].email not in listing
    assert "a staff user sees every mail" in listing
    assert opened == [200] * len(mine)
    assert foreign.status_code == 404 and answered.status_code == 404
    assert not Move.objects.exists()


def test_a_staff_user_reads_every_mail(
    client: Any, mail_folder: Path, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    stored = _two_players_mails(mail_folder, started, users, django_capture_on_commit_callbacks)
    client.force_login(UserFactory(is_staff=True))

    listing = client.get("/dev/mail/").content.decode()

    assert all(m.subject in listing for m in stored)
    assert "a staff user sees every mail" not in listing
    assert all(client.get(f"/dev/mail/{m.file}/{m.index}/").status_code == 200 for m in stored)


def test_the_answer_page_of_a_reply_is_its_senders_alone(
    client: Any, mail_folder: Path, started: Any, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    [stored] = [
        m
        for m in _two_players_mails(mail_folder, started, users, django_capture_on_commit_callbacks)
        if m.reply_to
    ]
    client.force_login(users[0])  # the mail's recipient
    posted = client.post(f"/dev/mail/{stored.file}/{stored.index}/", {"body": "orders"})
    client.force_login(users[1])

    assert "/dev/mail/answer/" in posted.url and client.get(posted.url).status_code == 404


def _reply_form(client: Any, stored: devmail.StoredMail) -> str:
    page = client.get(f"/dev/mail/{stored.file}/{stored.index}/").content.decode()
    return page.split("<textarea", 1)[1].split("</form>", 1)[0]


def test_the_reply_form_suggests_commands_of_the_mails_own_game(
    client: Any, mail_folder: Path, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """A Bao Huang mail's form suggests its recipient's choices ("keep", "pass emperor"), a Bao Bei
    mail's the setup peek; never Bao Bei's "draw" on a Bao Huang mail."""
    deal = {"hands": [["6", "K", "RJ*"], ["7", "8"], ["9", "10"], ["J", "Q"], ["A", "BJ*"]]}
    with django_capture_on_commit_callbacks(execute=True):
        GameFactory(engine="baohuang", players=5, bots=4, seated=[users[0]], options={"deals": [deal]})
        GameFactory(engine="baobei", players=3, bots=2, seated=[users[1]])
    _to_files(mail_folder, [*mails_to(users[0]), *mails_to(users[1])])
    stored = devmail.mails_list()
    bao_huang = next(m for m in stored if users[0].email in m.to and m.reply_to)
    bao_bei = next(m for m in stored if users[1].email in m.to and m.reply_to)
    client.force_login(UserFactory(is_staff=True))

    huang, bei = _reply_form(client, bao_huang), _reply_form(client, bao_bei)

    assert 'placeholder="keep"' in huang and "<code>pass emperor</code>" in huang
    assert 'placeholder="peek ' in bei
    assert "draw" not in huang


def test_a_mail_whose_decision_has_passed_suggests_the_games_commands(
    client: Any, mail_folder: Path, users: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Once the game has moved on, the recipient's choices are not the mail's: the game's own example
    commands are suggested instead (Bao Huang's "play K K BJ", "pass", …)."""
    deal = {"hands": [["6", "K", "RJ*"], ["7", "8"], ["9", "10"], ["J", "Q"], ["A", "BJ*"]]}
    with django_capture_on_commit_callbacks(execute=True):
        game = GameFactory(
            engine="baohuang",
            players=5,
            bots=4,
            seated=[users[0]],
            options={"deals": [deal], "deal_limit": 1},
        )
    _to_files(mail_folder, mails_to(users[0]))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    [stored] = [m for m in devmail.mails_list() if m.reply_to]
    client.force_login(users[0])

    form = _reply_form(client, stored)

    assert 'placeholder="play K K BJ"' in form and "<code>pass</code>" in form and "draw" not in form


@pytest.mark.parametrize(
    ("text", "suggested"),
    [
        (
            "Or reply to this mail with “sitting yes” or “sitting no” on the first line.\n"
            "“sitting yes 2” or “sitting no 2” answers time 2 alone.",
            ["sitting yes", "sitting no", "sitting yes 2", "sitting no 2"],
        ),
        ("或者回复本邮件，在第一行写“约局 是”或“约局 否”。", ["约局 是", "约局 否"]),
    ],
)
def test_a_sitting_proposals_form_suggests_the_answers_it_asks_for(text: str, suggested: list[str]) -> None:
    """docs/playing.md "Sittings": a proposal's mail asks for "sitting yes" / "sitting no" (in its
    reader's words); the development mailbox's reply form suggests those, not the game's moves."""
    message = EmailMessage()
    message.set_content(f"demo proposes to play together at live speed.\n\n{text}\n")
    stored = devmail.StoredMail(file="m.log", index=0, message=message, mtime=0.0)

    assert devmail.reply_suggestions(stored) == suggested
