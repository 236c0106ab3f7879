"""Receivers: game signals (sent on commit) and anymail's inbound signal.

A notification problem must never break a move, so the game receivers only enqueue a task, through
``baogame.celery.publish``, which logs any failure to do so.
"""

from __future__ import annotations

from typing import Any

from anymail.signals import inbound, tracking
from django.dispatch import receiver

from apps.games.signals import game_ended, move_applied
from baogame.celery import publish


@receiver(move_applied, dispatch_uid="notifications.move_applied")
def on_move_applied(
    sender: Any,
    *,
    game_id: int,
    version: int,
    move_id: int | None,
    opened: list[list[Any]],
    in_person_seat: int | None = None,
    event_types: frozenset[str] = frozenset(),
    people: frozenset[int] | None = None,
    **kwargs: Any,
) -> None:
    """Enqueue the decision and round-result mails of a move, when it calls for any.

    Only seats a person plays are mailed (``people``), so a move of an all-bot game queues nothing. A
    player who has just moved in person is not mailed about the decisions their own move opened for
    them: the page, the API reply or the answer to their mail shows those already (a reminder still
    comes near the deadline). No task is queued when nobody else has a new decision and no round ended.
    """
    from .services import ROUND_END_EVENTS

    wanted = [
        list(o)
        for o in opened
        if (in_person_seat is None or o[0] != in_person_seat) and (people is None or o[0] in people)
    ]
    round_ended = bool(event_types & ROUND_END_EVENTS) and (people is None or bool(people))
    if not wanted and not round_ended:
        return
    publish("apps.notifications.tasks.notify_move_applied", (game_id, version, move_id, wanted))


@receiver(game_ended, dispatch_uid="notifications.game_ended")
def on_game_ended(sender: Any, *, game_id: int, people: frozenset[int] | None = None, **kwargs: Any) -> None:
    """Enqueue the final-result mails (none when nobody but bots plays the game)."""
    if people is not None and not people:
        return
    publish("apps.notifications.tasks.notify_game_ended", (game_id,))


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
