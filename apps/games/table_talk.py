"""Table talk: short messages the players of a game write to each other, as across a real table.

Only a seated person writes (a bot seat has nothing to say; a spectator only reads), before, during
and after play ("good game"). Whoever may see the game reads it: on a public game that is anyone,
which the panel says. A message is what its writer typed and nothing else, so the server adds no
hidden information to it; what a player chooses to say about their own cards is table talk, as at a
real table. Talk is not mailed: it waits on the game page (and in the API) for the next look. A
``#12`` in a message names line 12 of the game's history, the same line for every reader: history
numbers count the public moves only (``numbering``); the page links it to that line.

Whoever may read a message, other than its writer, may report it to the site's staff as abusive
(``message_report``), once; the staff read the reports in the admin, where they remove a message. A
message's first report tells the apps above (``signals.talk_message_reported``), which mail the staff.
A report hides nothing by itself (a few people could otherwise silence a player), and nobody but the
staff learns who reported what.

Refusals: ``not_seated`` (403) for someone without a seat, ``invalid_talk`` for an empty or too long
message or one with control characters, ``talk_too_fast`` (429) after ``BURST`` messages in a minute;
for a report, ``no_such_message`` (404) for a message not of this game and ``own_message`` for one's
own.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString

from baogame.errors import ServiceError

from . import numbering, selectors, signals
from .models import Game, TableMessage, TalkReport

#: The longest message, in characters.
LONGEST = 500
#: The session key of a refused message kept for the game page (``draft_keep``), and how much of it:
#: enough to shorten a message that was too long, not a place to store text.
DRAFT_KEY = "talk_draft"
DRAFT_LONGEST = 8 * LONGEST
#: How many messages one person may write in one game within a minute.
BURST = 5
#: How many of the newest messages the page and the API show.
SHOWN = 50


def message_post(*, game: Game, user: User, text: str) -> TableMessage:
    """``user``'s message to the table of ``game`` (see the module for the refusals)."""
    seat = selectors.seat_of(game, user)
    if seat is None:
        raise ServiceError("not_seated", "only the game's players write at its table", status=403)
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()  # a form's line breaks are CR LF
    if not text or len(text) > LONGEST or _has_control_characters(text):
        raise ServiceError("invalid_talk", f"a message is 1 to {LONGEST} characters of text")
    now = timezone.now()
    recent = TableMessage.objects.filter(game=game, user=user, created_at__gt=now - timedelta(minutes=1))
    if recent.count() >= BURST:
        raise ServiceError("talk_too_fast", f"at most {BURST} messages a minute", status=429)
    return TableMessage.objects.create(game=game, user=user, seat=seat.position, text=text, created_at=now)


def messages_shown(game: Game) -> list[TableMessage]:
    """The game's newest ``SHOWN`` messages, oldest first, with their writers' names."""
    newest = (
        TableMessage.objects.filter(game=game).select_related("user__profile").order_by("-created_at", "-pk")
    )
    return list(reversed(newest[:SHOWN]))


#: Characters that turn the direction of the text around them, which could make a message read as
#: something else.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@transaction.atomic
def message_report(*, game: Game, user: User, message_id: int) -> bool:
    """``user`` (who may see ``game``: the caller checked) reports the game's message ``message_id`` to
    the site's staff; True when this is their first report of it, False when they had reported it
    already (nothing more is recorded).

    The message's first report, whoever makes it, sends ``signals.talk_message_reported`` once it
    commits (the staff get one mail); a second or later report sends nothing, so that a message many
    people report does not flood the staff's mailboxes: the admin counts its reports. The message's row
    is locked first, so that of two first reports made at once exactly one is the first.
    """
    # Ordered by the key alone: the model's ordering joins the game, whose row FOR UPDATE would lock too.
    rows = TableMessage.objects.select_for_update().filter(game=game, pk=message_id).order_by("pk")
    message = rows.only("pk", "user_id").first()
    if message is None:
        raise ServiceError("no_such_message", "this game has no such message", status=404)
    if message.user_id == user.pk:
        raise ServiceError("own_message", "you cannot report your own message")
    _, created = TalkReport.objects.get_or_create(message=message, reporter=user)
    if created and TalkReport.objects.filter(message=message).count() == 1:
        transaction.on_commit(
            partial(
                signals.talk_message_reported.send,
                sender=TableMessage,
                message_id=message.pk,
                game_id=game.pk,
            )
        )
    return created


@dataclass(frozen=True)
class ReportedMessage:
    """A reported message as the staff are told of it: the message (with its game and its writer) and
    how many people have reported it so far; never who they are."""

    message: TableMessage
    reports: int


def reported_message(*, message_id: int) -> ReportedMessage | None:
    """The message ``message_id`` and its count of reports; None once it is gone (removed)."""
    message = TableMessage.objects.select_related("game", "user__profile").filter(pk=message_id).first()
    if message is None:
        return None
    return ReportedMessage(message=message, reports=TalkReport.objects.filter(message=message).count())


def staff_told(*, message_id: int) -> None:
    """Record that the staff were mailed about the message's first report (``reports_untold`` leaves
    it out from now on)."""
    TableMessage.objects.filter(pk=message_id, staff_told_at=None).update(staff_told_at=timezone.now())


def reports_untold(*, reported_before: datetime) -> list[int]:
    """The messages whose first report was made before ``reported_before`` and whose staff's mail is
    not recorded as sent (its task lost, or still failing), oldest first."""
    untold = TableMessage.objects.filter(staff_told_at=None, reports__created_at__lt=reported_before)
    return list(untold.order_by("pk").values_list("pk", flat=True).distinct())


def reported_by(user: User | AnonymousUser | None, messages: list[TableMessage]) -> set[int]:
    """The ids of those messages that ``user`` has reported (none for an anonymous viewer)."""
    if user is None or not user.is_authenticated or not messages:
        return set()
    ids = [m.pk for m in messages]
    return set(
        TalkReport.objects.filter(reporter=user, message_id__in=ids).values_list("message_id", flat=True)
    )


def lines_context(game: Game, user: User | AnonymousUser | None) -> dict[str, object]:
    """The talk's lines as a viewer sees them: the messages shown (each with ``html``, its text with
    every ``#N`` linked to line N of the full history), and those the viewer reported."""
    talk = messages_shown(game)
    for message in talk:
        message.html = linked_text(game, message.text)  # type: ignore[attr-defined]
    return {"talk": talk, "reported": reported_by(user, talk)}


def linked_text(game: Game, text: str) -> SafeString:
    """A message's text for the page: ``#N`` links to line N of the game's full history, a number
    every viewer gives the same line (``numbering``); only the public moves so far are linked, which
    everyone may count, so a link tells nobody anything that is hidden."""
    history = reverse("games:history", args=[game.public_id])
    return numbering.linked_references(text, last=game.public_version, href=lambda n: f"{history}#line-{n}")


def panel_context(
    game: Game, seat: object | None, user: User | AnonymousUser | None = None, draft: str = ""
) -> dict[str, object]:
    """The game page's table-talk panel: the messages shown (and those ``user`` reported), whether
    the viewer may write, and ``draft``: the viewer's own refused message, kept in the box to mend."""
    return {
        **lines_context(game, user),
        "may_talk": seat is not None,
        "talk_longest": LONGEST,
        "talk_draft": draft,
    }


def draft_keep(session: SessionBase, *, game: Game, text: str) -> None:
    """Keep a refused message (a plain form's, without htmx) for the game page the refusal goes back to."""
    session[DRAFT_KEY] = {"game": game.public_id, "text": text[:DRAFT_LONGEST]}


def draft_take(session: SessionBase, *, game: Game) -> str:
    """The refused message kept for this game's page, once; "" when there is none."""
    kept = session.pop(DRAFT_KEY, None)
    return kept["text"] if isinstance(kept, dict) and kept.get("game") == game.public_id else ""


def _has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a control character other than a line break, or a direction control."""
    return any((unicodedata.category(c) == "Cc" and c != "\n") or c in _BIDI_CONTROLS for c in text)
