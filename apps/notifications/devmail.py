"""The development mailbox at /dev/mail/ (only when ``settings.DEV_MAILBOX``, and only for requests
from this machine).

Lists the mails Django's file backend wrote under ``EMAIL_FILE_PATH`` (one ``.log`` file per
connection, messages separated by a line of 79 dashes), shows each, and answers one as if by email
reply: the reply goes through ``inbound_process``, exactly like a real one. The reply form suggests
commands of the mail's own game (``reply_suggestions``).

Who reads what: a signed-in staff user reads every mail; any other signed-in user only the mails
addressed to one of their own addresses; a signed-out visitor is sent to sign in. A mail is its
reader's keys, not only their news: its hand and choices, a link that signs them in, a reply address
that plays their seat, a password-reset or confirmation link. "Requests from this machine" does not
make its readers the developer: a tunnel or a proxy on the machine makes every visitor local, and
several people may try one development site together. Each user's own mails keep play by e-mail
working for everyone (``make run``'s ``demo`` reads and answers its own), and staff (``manage.py
createsuperuser``) see everything a developer needs: every player's mail, and the mails to addresses
nobody is signed in with yet (a sign-up's confirmation, a password reset), which are also in the files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, make_msgid, parseaddr
from pathlib import Path

from csp.decorators import csp_update
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path

from apps.games import selectors as game_selectors
from apps.sittings.mail import parse_sitting_command
from baogame import converters  # noqa: F401 - registers <id:…>

from . import bounces, commands, compose, tokens
from .inbound import inbound_process, own_addresses
from .models import InboundMessage

SEPARATOR = re.compile(rb"\n-{79}\n")
FILE_NAME = re.compile(r"^[\w.-]+\.log$")


class _Header:
    """A header of a ``StoredMail``, read as an attribute ("" when the mail has none)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, mail: StoredMail | None, owner: type | None = None) -> str:
        return "" if mail is None else mail.header(self.name)


@dataclass
class StoredMail:
    """One mail found in the mail folder."""

    file: str
    index: int
    message: EmailMessage
    mtime: float

    @property
    def key(self) -> str:
        return f"{self.file}:{self.index}"

    def header(self, name: str) -> str:
        value = self.message.get(name)
        return str(value).strip() if value is not None else ""  # a folded header may start with a space

    subject = _Header("Subject")
    to = _Header("To")
    sender = _Header("From")
    reply_to = _Header("Reply-To")
    unsubscribe = _Header("List-Unsubscribe")
    date = _Header("Date")

    def text(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))
        return part.get_content() if part is not None else ""

    def html(self) -> str:
        part = self.message.get_body(preferencelist=("html",))
        return part.get_content() if part is not None else ""


def mail_folder() -> Path:
    return Path(getattr(settings, "EMAIL_FILE_PATH", settings.VAR_DIR / "mail"))


def read_file(file: Path) -> list[EmailMessage]:
    """The messages in one file written by Django's file backend."""
    data = file.read_bytes()
    chunks = [c for c in SEPARATOR.split(b"\n" + data) if c.strip()]
    parser = BytesParser(policy=policy.default)
    return [parser.parsebytes(chunk.lstrip(b"\n")) for chunk in chunks]


def mails_list() -> list[StoredMail]:
    """Every stored mail, newest first."""
    folder = mail_folder()
    if not folder.is_dir():
        return []
    found: list[StoredMail] = []
    for file in folder.iterdir():
        if FILE_NAME.match(file.name) and file.is_file():
            mtime = file.stat().st_mtime
            found += [StoredMail(file.name, i, m, mtime) for i, m in enumerate(read_file(file))]
    return sorted(found, key=lambda m: (m.mtime, m.file, m.index), reverse=True)


def mail_get(file: str, index: int) -> StoredMail:
    if not FILE_NAME.match(file):
        raise Http404("no such mail")
    path_ = mail_folder() / file
    if not path_.is_file():
        raise Http404("no such mail")
    found = read_file(path_)
    if not 0 <= index < len(found):
        raise Http404("no such mail")
    return StoredMail(file, index, found[index], path_.stat().st_mtime)


def reply_build(original: EmailMessage, body: str) -> EmailMessage:
    """A reply to ``original`` as a mail client would send it: to its Reply-To, quoting it."""
    reply = EmailMessage()
    reply["From"] = str(original["To"])
    reply["To"] = str(original.get("Reply-To") or original["From"])
    subject = str(original.get("Subject", ""))
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Message-ID"] = make_msgid(domain="devmail.localhost")
    if original.get("Message-ID"):
        reply["In-Reply-To"] = str(original["Message-ID"])
        reply["References"] = str(original["Message-ID"])
    part = original.get_body(preferencelist=("plain",))
    quoted = "\n".join("> " + line for line in (part.get_content() if part is not None else "").splitlines())
    sender = parseaddr(str(original["From"]))[1]
    reply.set_content(f"{body.strip()}\n\nOn a recent day, {sender} wrote:\n{quoted}\n")
    return reply


#: What the development mailbox can pretend a provider reported about a mail (anymail's event types).
SIMULATED_EVENTS = {"hard bounce": "bounced", "complaint": "complained", "soft bounce": "deferred"}

#: The development mailbox answers only requests from this machine: it shows every player's mail
#: (their hands included), so a development server reachable from elsewhere must not serve it.
LOCAL_ADDRESSES = frozenset({"127.0.0.1", "::1"})


def _guard(request: HttpRequest) -> None:
    if not settings.DEV_MAILBOX:
        raise Http404("the development mailbox is off")
    if request.META.get("REMOTE_ADDR") not in LOCAL_ADDRESSES:
        raise Http404("the development mailbox answers only on this machine")


class Reader:
    """Who reads the mailbox, and which mails they may read (the module's docstring says why)."""

    def __init__(self, user: User) -> None:
        self.everything = user.is_staff
        self.addresses = set() if self.everything else own_addresses(user)

    def may_read(self, mail: StoredMail) -> bool:
        """Staff: every mail; anybody else: a mail addressed to one of their own addresses."""
        if self.everything:
            return True
        to = {address.lower() for _, address in getaddresses(mail.message.get_all("To") or [])}
        return bool((to - {""}) & self.addresses)


def _reader(request: HttpRequest) -> Reader | None:
    """The signed-in reader (None: sign in first)."""
    _guard(request)
    user = request.user
    return Reader(user) if isinstance(user, User) and user.is_authenticated else None


def mailbox(request: HttpRequest) -> HttpResponse:
    """The mails the reader may read, newest first."""
    reader = _reader(request)
    if reader is None:
        return redirect_to_login(request.get_full_path())
    mails = [m for m in mails_list() if reader.may_read(m)]
    context = {"mails": mails, "folder": mail_folder(), "everything": reader.everything}
    return render(request, "notifications/devmail_list.html", context)


#: How many commands the reply form suggests.
SUGGESTIONS = 6


def reply_suggestions(mail: StoredMail) -> list[str]:
    """Commands that fit a reply to ``mail``: the sitting answers it asks for (a proposal's "sitting
    yes", in its reader's words), else the choices its recipient has in its game now (those the mail
    lists while its decision is open), else the example commands of that game (Bao Bei's ``peek 2 3``,
    Bao Huang's ``play K K BJ`` …); none for a mail that is about no game."""
    asked = _sitting_answers(mail.text())
    if asked:
        return asked[:SUGGESTIONS]
    target = tokens.reply_address_target(parseaddr(mail.reply_to)[1])
    game = game_selectors.game_get(target.game_id) if target is not None else None
    if target is None or game is None:
        return []
    seats = game_selectors.seats_with_people(game)
    seat = next((s.position for s in seats if s.user_id == target.user_id), None)
    if seat is not None and not game.is_over:
        # commands as they are typed: a pattern's line ("pluck S.K gift G") has a meaning beside it
        choices = [c.command for c in compose.choices(game, seat) if c.command and not c.meaning]
        if choices:
            return choices[:SUGGESTIONS]
    return [example for example, _meaning in commands.summary(game.engine)][:SUGGESTIONS]


def _sitting_answers(text: str) -> list[str]:
    """The sitting answers a mail quotes for its reader to reply (“sitting yes”, “约局 是 2”)."""
    return [quoted for quoted in _QUOTED.findall(text) if parse_sitting_command(quoted) is not None]


#: A phrase in curly quotes, as mails quote the commands to reply with.
_QUOTED = re.compile(r"“([^”\n]{1,30})”")


# The mail's own HTML (inline styles) is shown in a sandboxed frame; django-csp types its decorator
# for views of the request alone.
@csp_update({"style-src": ["'unsafe-inline'"]})  # type: ignore[arg-type]
def mail_detail(request: HttpRequest, file: str, index: int) -> HttpResponse:
    """One mail the reader may read, and a form to answer it by email."""
    reader = _reader(request)
    if reader is None:
        return redirect_to_login(request.get_full_path())
    mail = mail_get(file, index)
    if not reader.may_read(mail):
        raise Http404("no such mail")
    if request.method == "POST" and request.POST.get("simulate") in SIMULATED_EVENTS:
        event_type = SIMULATED_EVENTS[request.POST["simulate"]]
        recipient = parseaddr(str(mail.message["To"]))[1]
        bounces.tracking_event_record(event_type=event_type, recipient=recipient, description="simulated")
        messages.info(request, f"Simulated a {request.POST['simulate']} for {recipient}.")
        return redirect("devmail_list")
    if request.method == "POST":
        result = inbound_process(message=reply_build(mail.message, request.POST.get("body", "")))
        text = f"Reply processed: {result.status}" + (
            f" ({result.code}: {result.detail})" if result.code else ""
        )
        messages.info(request, text)
        if result.inbound_id is None:  # a duplicate or an ignored mail gets no answer
            return redirect("devmail_list")
        return redirect("devmail_answer", inbound_id=result.inbound_id)
    context = {"mail": mail, "simulated_events": SIMULATED_EVENTS, "suggestions": reply_suggestions(mail)}
    return render(request, "notifications/devmail_detail.html", context)


def answer_find(message_id: str) -> StoredMail | None:
    """The stored answer to the inbound mail ``message_id`` (its In-Reply-To), if it was sent yet."""
    return next((m for m in mails_list() if m.header("In-Reply-To") == message_id), None)


def mail_answer(request: HttpRequest, inbound_id: int) -> HttpResponse:
    """After a reply: the answer it produced, once the worker has sent it (the page reloads till then);
    only for the reply's sender, or staff."""
    reader = _reader(request)
    if reader is None:
        return redirect_to_login(request.get_full_path())
    record = InboundMessage.objects.filter(pk=inbound_id).first()
    if record is None or not (reader.everything or record.user_id == request.user.pk):
        raise Http404("no such reply")
    found = answer_find(record.message_id)
    if found is not None:
        return redirect("devmail_detail", file=found.file, index=found.index)
    return render(request, "notifications/devmail_waiting.html", {"record": record})


urlpatterns = [
    path("", mailbox, name="devmail_list"),
    path("answer/<id:inbound_id>/", mail_answer, name="devmail_answer"),
    path("<str:file>/<id:index>/", mail_detail, name="devmail_detail"),
]
