"""Reads: mail preferences, the games a digest lists, processed inbound mail (what its answers told)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from apps.games.models import Game
from apps.games.selectors import game_list_awaiting

from . import preferences
from .models import Category, InboundMessage, MailSettings, Mode, Notification


def mail_settings_for(*, user: User) -> MailSettings:
    """The user's mail settings (unsaved defaults when they never set any)."""
    prefs = MailSettings.objects.filter(user=user).first()
    return prefs if prefs is not None else MailSettings(user=user)


def preferences_get(*, user: User) -> dict[str, Any]:
    """Every mail category's mode, the Notifications table, the digest hour (local), whether live
    games send mail, and the quiet hours (local ``HH:MM``, or None)."""
    prefs = mail_settings_for(user=user)
    quiet = None
    if prefs.quiet_start is not None and prefs.quiet_end is not None:
        quiet = {"start": f"{prefs.quiet_start:%H:%M}", "end": f"{prefs.quiet_end:%H:%M}"}
    return {
        "table": preferences.table_get(user=user),
        "channels": list(preferences.CHANNELS),
        "quiet_hours": quiet,
        "categories": {c.value: prefs.mode_for(c.value) for c in Category if c != Category.DIGEST},
        "digest_hour": prefs.digest_hour,
        "live_games": prefs.live_games,
        "modes": list(Mode.values),
    }


def mails_given_up(*, user: User) -> int:
    """How many of the user's mails failed every attempt (the mail server refused them or never
    answered) and will not be tried again: the notifications page says so."""
    return Notification.objects.filter(
        user=user, status=Notification.Status.FAILED, attempts__gte=Notification.MAX_ATTEMPTS
    ).count()


def digest_games(*, user: User) -> list[Game]:
    """The games waiting for the user that a digest lists (live games only when switched on)."""
    prefs = mail_settings_for(user=user)
    games = game_list_awaiting(user=user).prefetch_related("seats")
    return [g for g in games if g.control != "live" or prefs.live_games]


def decisions_told_in_answers(*, user: User, game: Game, decision_ids: set[str]) -> bool:
    """Whether ``user`` was already told of every one of these open decisions: each was listed, with
    its choices, in an answer to one of their mail commands in ``game``
    (``InboundMessage.shown_decision_id``), a decision the bots opened before the answer was written.

    The one rule for "already told", shared by the "Your move" mail and the Web Push notice: neither
    repeats such decisions (a reminder near the deadline still comes). Nothing open (an empty set) is
    not "told". Decision ids are never reused within a game."""
    if not decision_ids:
        return False
    told = InboundMessage.objects.filter(user=user, game=game, shown_decision_id__in=decision_ids)
    return set(told.values_list("shown_decision_id", flat=True)) == decision_ids


def decisions_told_since(*, user: User, since: datetime) -> set[tuple[int, str]]:
    """The decisions (game id, decision id) that answers to ``user``'s mail commands sent since
    ``since`` listed with their choices (what the mail after their quiet hours does not list again)."""
    told = InboundMessage.objects.filter(user=user, answered_at__gte=since, game__isnull=False)
    return set(told.exclude(shown_decision_id="").values_list("game_id", "shown_decision_id"))
