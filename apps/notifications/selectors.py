"""Reads: mail preferences, the games a digest lists, processed inbound mail."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from apps.games.models import Game
from apps.games.selectors import game_list_awaiting

from . import preferences
from .models import Category, MailSettings, Mode, Notification


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
