"""Receivers: game signals (sent on commit) and anymail's inbound signal.

A notification problem must never break a move, so the game receivers only enqueue a task, through
``baogame.celery.publish``, which logs any failure to do so; the one receiver that runs inside the
move's transaction (``move_recorded``) writes a single outbox row, so that a lost task is queued again.
A seat handed to the bot is rare: its receiver records the player's mail row in the hand-over's own
transaction (in a savepoint), and the sweep sends a row whose task was lost; a seat that left a
sitting's live play records its player's "your move" mail, and a seat taken at an open table its
creator's mail, the same way. A table-talk message's first report queues the staff's mail
(``moderation``).
"""

from __future__ import annotations

import logging
from typing import Any

from anymail.signals import inbound, tracking
from django.db import transaction
from django.dispatch import receiver

from apps.accounts.closing import account_closing
from apps.games.signals import (
    RecordedMove,
    game_ending,
    recorded_move_receiver,
    seat_handed_to_bot,
    seat_left_live,
    seat_taken,
    talk_message_reported,
)
from baogame.celery import publish

from . import outbox
from .moderation import MAIL_TALK_REPORT
from .notify import notify_left_live, notify_seat_taken, notify_seat_to_bot

logger = logging.getLogger(__name__)


@recorded_move_receiver("notifications.move_recorded")
def on_move_recorded(move: RecordedMove) -> None:
    """In the move's transaction: record the move's mails in the outbox, when it calls for any (its
    INSERT joins the round trip of ``move.statements``).

    Only seats a person plays are mailed (``move.people``), so a move of an all-bot game records and
    queues nothing; neither does a move after which nobody else has a new decision and no round ended.
    ``outbox.record`` queues ``notify_move_applied`` on commit; the sweep queues it again if it is lost.
    """
    wanted, round_ended = outbox.wanted_mails(
        opened=move.opened,
        in_person_seat=move.in_person_seat,
        event_types=move.event_types,
        people=move.people,
        persons=move.persons,
    )
    if wanted or round_ended:
        outbox.record(
            game_id=move.game_id,
            version=move.version,
            move_id=move.move_id,
            opened=wanted,
            statements=move.statements,
        )


@receiver(seat_handed_to_bot, dispatch_uid="notifications.seat_handed_to_bot")
def on_seat_handed_to_bot(sender: Any, *, game_id: int, seat: int, version: int, **kwargs: Any) -> None:
    """In the transaction that hands an absent player's seat to the bot: record the player's mail (they
    take the seat back with one click), sent once it commits. A failure is logged and rolls back only
    its savepoint: the hand-over itself stands."""
    try:
        with transaction.atomic():
            notify_seat_to_bot(game_id=game_id, seat=seat, version=version)
    except Exception:
        logger.exception("could not record the seat-to-bot mail of game %s seat %s", game_id, seat)


@receiver(seat_left_live, dispatch_uid="notifications.seat_left_live")
def on_seat_left_live(
    sender: Any, *, game_id: int, seat: int, version: int, opened: list[list[Any]], **kwargs: Any
) -> None:
    """In the settlement that put a live seat whose player left a sitting back on its own clock: record
    the player's "your move" mail, sent once it commits (the sweep sends it if its task is lost). A
    failure is logged and rolls back only its savepoint: the seat's return to its own clock stands."""
    try:
        with transaction.atomic():
            notify_left_live(game_id=game_id, version=version, opened=opened)
    except Exception:
        logger.exception("could not record the left-a-sitting mail of game %s seat %s", game_id, seat)


@receiver(seat_taken, dispatch_uid="notifications.seat_taken")
def on_seat_taken(sender: Any, *, game_id: int, position: int, seats_free: int, **kwargs: Any) -> None:
    """In the transaction that seats somebody at an open table or by an invitation link: record the
    creator's mail, sent once it commits (the sweep sends it if its task is lost). The last seat starts
    the game, whose own mails (the first decisions) tell the table: none for it. A failure is logged and
    rolls back only its savepoint: the seat stays taken."""
    if seats_free == 0:
        return
    try:
        with transaction.atomic():
            notify_seat_taken(game_id=game_id, position=position)
    except Exception:
        logger.exception("could not record the seat-taken mail of game %s seat %s", game_id, position)


@receiver(game_ending, dispatch_uid="notifications.game_ending")
def on_game_ending(
    sender: Any,
    *,
    game_id: int,
    people: frozenset[int] | None = None,
    persons: frozenset[int] | None = None,
    **kwargs: Any,
) -> None:
    """In the end's transaction: the final-result mails' outbox row (none when no person holds a seat:
    ``persons``, the seats a person holds, played by the bot for them or not; else ``people``), queued
    when the end commits."""
    if not outbox.results_wanted(people=people, persons=persons):
        return
    outbox.record_game_end(game_id=game_id)


@receiver(talk_message_reported, dispatch_uid="notifications.talk_message_reported")
def on_talk_message_reported(sender: Any, *, message_id: int, **kwargs: Any) -> None:
    """A table-talk message's first report has committed: queue the staff's mail about it."""
    publish(MAIL_TALK_REPORT, (message_id,))


@receiver(inbound, dispatch_uid="notifications.anymail_inbound")
def on_inbound(sender: Any, event: Any, esp_name: str, **kwargs: Any) -> None:
    """An inbound mail from the ESP's (signature-verified) webhook: play by email."""
    from .inbound import inbound_process

    inbound_process(message=event.message)


@receiver(tracking, dispatch_uid="notifications.tracking")
def on_tracking(sender: Any, event: Any, esp_name: str, **kwargs: Any) -> None:
    """A provider's delivery event (``/mail/tracking/``): hard bounces and complaints stop our mail."""
    from .bounces import tracking_event_record

    tracking_event_record(
        event_type=str(event.event_type or ""),
        recipient=str(event.recipient or ""),
        reject_reason=event.reject_reason,
        description=str(event.description or ""),
    )


@receiver(account_closing, dispatch_uid="notifications.account_closing")
def on_account_closing(sender: Any, *, user: Any, **kwargs: Any) -> None:
    """A closed account's mails not sent yet (waiting, retried or held for a digest) and its calendar
    feed go: nothing is mailed to it, and its feed's address answers nothing."""
    from .models import CalendarFeed, Notification

    unsent = [Notification.Status.PENDING, Notification.Status.FAILED, Notification.Status.QUEUED_DIGEST]
    Notification.objects.filter(user=user, status__in=unsent).delete()
    CalendarFeed.objects.filter(user=user).delete()
