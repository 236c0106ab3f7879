"""Play by email: one function, ``inbound_process``, for the webhook, ``ingest_mail`` and /dev/mail/.

A reply is accepted only at a signed, unexpired reply address (``tokens``), from an address of the
user it names, and once per Message-ID. Its first meaningful line is a command (``commands``) that
is submitted through ``submit_action`` for the decision the answered mail was about; the sender gets
an answer mail (``mails.answer_message``) saying what happened or why it was refused, with the same
error code as the web.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from email import policy
from email.message import Message
from email.utils import getaddresses
from functools import partial
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _

from apps.accounts.language import mail_language
from apps.games import orders as game_orders
from apps.games import selectors as game_selectors
from apps.games.errortext import code_detail, error_detail
from apps.games.models import Game
from apps.games.pipeline import submit_action
from apps.games.selectors import seat_of
from apps.sittings import services as sitting_services
from apps.sittings.mail import parse_sitting_command
from baogame.rules.core import RuleError
from baogame.rules.registry import get_game_type

from . import clock, commands, compose, mails, mailtext, seat_commands, tokens
from .models import InboundMessage, ReplyAddress

log = logging.getLogger(__name__)

#: Actions that answer no decision (BH-18.4).
FREE_ACTIONS = {"guess_partner"}


@dataclass
class InboundResult:
    """What happened to one inbound mail."""

    status: str  # applied | refused | duplicate | ignored
    code: str = ""
    detail: str = ""
    inbound_id: int | None = None
    action: dict[str, Any] | None = None
    events: list[str] = field(default_factory=list)


def message_id_of(message: Message) -> str:
    """The Message-ID, or a digest of the whole message when it has none."""
    value = str(message.get("Message-ID") or "").strip()
    if value:
        return value[:255]
    return f"<{hashlib.sha256(message.as_bytes()).hexdigest()}@no-message-id>"


def recipients_of(message: Message) -> list[str]:
    """Every address the mail was sent to (envelope recipient first)."""
    found: list[str] = []
    envelope = getattr(message, "envelope_recipient", None)
    if envelope:
        found.append(str(envelope))
    headers = [
        str(v) for name in ("Delivered-To", "X-Original-To", "To", "Cc") for v in message.get_all(name, [])
    ]
    found += [addr for _, addr in getaddresses(headers) if addr]
    return found


def sender_address(message: Message) -> str | None:
    """The one sender address of the mail's single ``From`` header, or None when it is not exactly one.

    The header is parsed strictly (``email.headerregistry``): a second ``From`` header, a list of
    addresses, group syntax or any parsing defect (``bob@x <mallory@evil>``) gives None. The display
    name is never read: ``"bob@x" <mallory@evil>`` is mallory's mail.
    """
    values = message.get_all("From", [])
    if len(values) != 1:
        return None
    value: Any = values[0]
    # A message parsed with the default policy holds header objects already parsed, whose defects say
    # what the parser had to drop (their str() no longer shows it); compat32 messages hold strings.
    try:
        header: Any = value if hasattr(value, "groups") else policy.default.header_factory("From", str(value))
    except Exception:  # a header the parser cannot read at all is no sender
        return None
    groups = header.groups
    if header.defects or len(groups) != 1 or groups[0].display_name is not None:
        return None
    addresses = groups[0].addresses
    if len(addresses) != 1 or not addresses[0].username or not addresses[0].domain:
        return None
    return addresses[0].addr_spec


def _sender_matches(message: Message, user: User) -> bool:
    """Whether the mail comes from exactly one address, and it is one of the user's.

    Addresses are compared case-insensitively as a whole: allauth stores (and matches) every address
    lowercased, so the case of a local part is not known to us, and no other account can hold an
    address that differs from this user's only by case.
    """
    sender = sender_address(message)
    if sender is None:
        return False
    return sender.lower() in own_addresses(user)


def own_addresses(user: User) -> set[str]:
    """The user's addresses (the account's and every one allauth holds for it), lowercased."""
    return {user.email.lower()} | {
        e.lower() for e in EmailAddress.objects.filter(user=user).values_list("email", flat=True)
    }


def _resolve(message: Message) -> tuple[tokens.ReplyTarget | None, RuleError | None]:
    """The first verified reply address the mail was sent to, or the reason none was valid."""
    error: RuleError | None = None
    for address in recipients_of(message):
        if not tokens.is_reply_address(address):
            continue
        try:
            return tokens.reply_address_parse(address), None
        except RuleError as exc:
            error = error if error is not None and error.code == "reply_expired" else exc
    return None, error or RuleError("forged_address", "the mail was not sent to a reply address")


def inbound_process(*, message: Message) -> InboundResult:
    """Process one inbound mail: verify its address, parse its command, submit it, answer it."""
    message_id = message_id_of(message)
    if InboundMessage.objects.filter(message_id=message_id).exists():
        return InboundResult("duplicate", "replayed", "this message was already processed")
    target, error = _resolve(message)
    user = None
    if target is not None:
        user = get_user_model().objects.filter(pk=target.user_id, is_active=True).first()
        if user is None:
            error = RuleError("forged_address", "this reply address is not valid")
    if error is not None and error.code == "reply_expired":
        # The signature was good, so we know whom to tell; the game is taken from the address.
        expired_target = _expired_target(message)
        if expired_target is not None:
            user = get_user_model().objects.filter(pk=expired_target.user_id).first()
            target = expired_target
    if user is not None and not _sender_matches(message, user):
        return _refuse(
            message_id,
            None,
            target,
            "sender_mismatch",
            "the sender is not the player this address belongs to",
            answer=False,
        )
    if error is not None:
        answer = error.code == "reply_expired" and user is not None
        with translation.override(mail_language(user)):  # what the answer will say, in their language
            detail = code_detail(error.code, error.message) if answer else error.message
        return _refuse(message_id, user, target, error.code, detail, answer=answer)
    assert target is not None and user is not None
    with translation.override(mail_language(user)):  # a refusal's detail is written for its answer
        return _apply(message, message_id, target, user)


def _expired_target(message: Message) -> tokens.ReplyTarget | None:
    for address in recipients_of(message):
        if tokens.is_reply_address(address):
            try:
                return tokens.reply_address_parse(address, now=0)
            except RuleError:
                continue
    return None


def _apply(message: Message, message_id: str, target: tokens.ReplyTarget, user: User) -> InboundResult:
    reply = ReplyAddress.objects.filter(pk=target.nonce, user=user, game_id=target.game_id).first()
    game = game_selectors.game_get(target.game_id)
    if reply is None or game is None:
        return _refuse(
            message_id,
            user,
            target,
            "reply_expired",
            code_detail("reply_expired", "this reply address is no longer valid; answer a newer mail"),
            answer=True,
        )
    line = mailtext.first_meaningful_line(mailtext.body_text(message))
    try:
        with transaction.atomic():
            record = _new_record(message_id, user, game, reply_address=reply, command=line[:200])
            action: dict[str, Any] | None = None
            sitting = parse_sitting_command(line)
            if sitting is not None:
                return _answer_without_move(record, partial(_sitting_answer, game, user, sitting))
            seat_command = seat_commands.parse_seat_command(line)
            if seat_command is not None:
                return _answer_without_move(
                    record, partial(seat_commands.carry_out, game=game, user=user, command=seat_command)
                )
            try:
                order = commands.order_command(engine=game.engine, text=line)
                if order is not None:  # a standing order: set, revoked or listed; the answer lists them
                    record.detail = _order_apply(game, user, order)
                    record.status = InboundMessage.Status.APPLIED
                    record.save(update_fields=["status", "detail"])
                    _answer_on_commit(record.pk)
                    return InboundResult("applied", "", record.detail, record.pk, None)
                action = commands.parse_command(engine=game.engine, text=line)
                action = _with_decision(game, user, reply, action)
                result = submit_action(
                    game_id=game.pk, user=user, action=action, key=f"mail:{_digest(message_id)}"
                )
            except RuleError as exc:
                record.code, record.detail = exc.code, error_detail(exc)
                record.action = action
                record.save(update_fields=["code", "detail", "action"])
                _answer_on_commit(record.pk)
                return InboundResult("refused", exc.code, record.detail, record.pk, record.action)
            record.status, record.action = InboundMessage.Status.APPLIED, action
            record.move_seq = result.move.seq if result.move else None
            record.save(update_fields=["status", "action", "move_seq"])
            _answer_on_commit(record.pk)
            events = [compose.describe_event(game.engine, e) for e in result.events]
            return InboundResult("applied", "", "", record.pk, action, events)
    except IntegrityError:
        return InboundResult("duplicate", "replayed", "this message was already processed")


def _answer_without_move(record: InboundMessage, carry_out: Callable[[], str]) -> InboundResult:
    """A command that makes no move (a sitting answer, ``hand over`` / ``take back``): carried out, its
    words (if any) kept for the answer mail, or refused with its code."""
    try:
        detail = carry_out()
    except RuleError as exc:
        record.code, record.detail = exc.code, error_detail(exc)
        record.save(update_fields=["code", "detail"])
        _answer_on_commit(record.pk)
        return InboundResult("refused", exc.code, record.detail, record.pk)
    record.status, record.detail = InboundMessage.Status.APPLIED, detail
    record.save(update_fields=["status", "detail"])
    _answer_on_commit(record.pk)
    return InboundResult("applied", "", detail, record.pk)


def _sitting_answer(game: Game, user: User, command: tuple[bool, int | None]) -> str:
    """``sitting yes`` / ``sitting no``: answer the game's latest proposed sitting."""
    accept, index = command
    sitting_services.answer_latest(game=game, user=user, accept=accept, index=index)
    return ""


def _order_apply(game: Game, user: User, order: tuple[Any, ...]) -> str:
    """Carry out a standing-order command of a reply; the user's orders now, in words (for the answer,
    which goes to the user alone). ``RuleError`` for a refused order."""
    verb = order[0]
    if verb == "arm":
        held = game_orders.arm(game_id=game.pk, user=user, kind=order[1], params=order[2])
    elif verb == "revoke":
        held = game_orders.revoke(game_id=game.pk, user=user, kind=order[1])
    elif verb == "clear":
        held = game_orders.revoke(game_id=game.pk, user=user)
    else:
        held = game_orders.mine(game=game, user=user)
    if not held:
        return _("You have no standing orders in this game.")
    return _("Your standing orders: %(orders)s.") % {"orders": "; ".join(o["text"] for o in held)}


def _with_decision(game: Game, user: User, reply: ReplyAddress, action: dict[str, Any]) -> dict[str, Any]:
    """Bind the action to the decision the answered mail was about (or the user's open decision).

    A reply acts on that decision only: a JSON command naming another ``decision_id`` is refused with
    ``stale_decision``, even when the decision it names is open now.
    """
    if action.get("type") in FREE_ACTIONS:
        return action
    if reply.decision_id == ReplyAddress.NO_DECISION:
        raise RuleError("stale_decision", "this mail asked for no move; answer the newest mail about a move")
    seat = seat_of(game, user)
    open_rows = game_selectors.seat_decisions(game=game, seat=seat.position if seat is not None else None)
    decision_id = reply.decision_id
    if not decision_id:  # an address made before every mail named its decision: the open one
        row = open_rows.order_by("deadline").first()
        decision_id = row.decision_id if row is not None else ""
    given = action.get("decision_id")
    if given is not None and given != decision_id:
        raise RuleError("stale_decision", "this mail was about another decision; answer the newest mail")
    if not get_game_type(game.engine).decision_ids:  # BH-19.1: the service checks staleness itself
        if not decision_id or not open_rows.filter(decision_id=decision_id).exists():
            raise RuleError("stale_decision", "the decision this mail was about is no longer open")
        return action
    if not decision_id:
        raise RuleError("stale_decision", "you have no open decision in this game")
    return {**action, "decision_id": decision_id}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:48]


def _new_record(message_id: str, user: User | None, game: Game | None, **fields: Any) -> InboundMessage:
    """The record of one inbound mail (``IntegrityError`` when its Message-ID was processed before).

    Every record starts refused; applying the mail's command turns it to applied.
    """
    return InboundMessage.objects.create(
        message_id=message_id, user=user, game=game, status=InboundMessage.Status.REFUSED, **fields
    )


def _refuse(
    message_id: str,
    user: User | None,
    target: tokens.ReplyTarget | None,
    code: str,
    detail: str,
    *,
    answer: bool,
) -> InboundResult:
    """Record a mail refused before its command was read (``answer``: tell the sender why)."""
    game = game_selectors.game_get(target.game_id) if target is not None and user is not None else None
    try:
        with transaction.atomic():
            record = _new_record(message_id, user, game, code=code, detail=detail)
    except IntegrityError:
        return InboundResult("duplicate", "replayed", "this message was already processed")
    if answer:
        _answer_on_commit(record.pk)
    return InboundResult("refused", code, detail, record.pk)


def _answer_on_commit(inbound_id: int) -> None:
    from baogame.celery import publish

    transaction.on_commit(partial(publish, "apps.notifications.tasks.send_answer", (inbound_id,)))


def answer_send(*, inbound_id: int) -> bool:
    """Send the answer to one processed inbound mail, at most once.

    Once it is sent, the decision whose choices it lists is recorded, so that the mail about that
    decision, still waiting its settle time (the bots played at once), is not sent as well. Recorded
    after sending, not before: an answer that failed to go out leaves that mail to tell the player
    (a rare duplicate, when that mail is sent during the answer's own sending, rather than no mail).
    """
    sent_at = clock.now()  # the notifications' clock: what an answer told is weighed against quiet hours
    if InboundMessage.objects.filter(pk=inbound_id, answered_at=None).update(answered_at=sent_at) != 1:
        return False
    record = InboundMessage.objects.select_related("user__profile", "game", "reply_address").get(
        pk=inbound_id
    )
    message = mails.answer_message(record)
    if message is None:
        return False
    message.send()
    if record.shown_decision_id:
        InboundMessage.objects.filter(pk=record.pk).update(shown_decision_id=record.shown_decision_id)
    return True
