"""When a notification may go out: a burst waits the settle time, quiet hours hold the rest.

``notify`` asks this when it records a notification, ``send`` again when it is about to send one
(the person may have set quiet hours meanwhile).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User

from apps.games import selectors as game_selectors
from apps.games.models import Game

from . import compose, quiet, selectors
from .models import Notification

#: Kinds that wait the settle time and go out together, one mail per person and game.
BURST_KINDS = frozenset({Notification.Kind.DECISION, Notification.Kind.ROUND_RESULT})


def settle_seconds(*, game: Game | None, seat: int | None, now: datetime) -> float:
    """``NOTIFY_SETTLE_SECONDS``, but never more than a quarter of the time left to the seat's nearest
    deadline in ``game`` (so the mail always comes well before the reminder, at 75% of the time)."""
    settle = float(settings.NOTIFY_SETTLE_SECONDS)
    if game is None or seat is None:
        return settle
    nearest = game_selectors.seat_nearest_deadline(game=game, seat=seat)
    if nearest is not None:
        settle = min(settle, max(0.0, (nearest - now).total_seconds() / 4))
    return settle


def deadline_of(game: Game | None, seat: int | None, decision_id: str) -> datetime | None:
    """The deadline of the seat's open decision ``decision_id``, or None (no such decision, no clock)."""
    if game is None or seat is None:
        return None
    row = game_selectors.seat_decision(game=game, seat=seat, decision_id=decision_id).only("deadline").first()
    return row.deadline if row is not None else None


def hold_for_quiet(*, user: User, kind: str, due: datetime, deadline: datetime | None) -> datetime | None:
    """When quiet hours hold a mail due at ``due``: their end; None when it may go out."""
    ends = quiet.quiet_until(selectors.mail_settings_for(user=user), compose.user_zone(user), due)
    if ends is None or kind == Notification.Kind.DIGEST:
        return None
    if kind == Notification.Kind.REMINDER and quiet.reminder_may_break(deadline, ends):
        return None
    return ends
