"""The Notifications table: categories (rows) by channels (columns), each cell a mode.

This is the one place every channel asks whether to tell a person about something:
``mode_for(user, category, channel)`` returns ``"immediately"``, ``"digest"`` or ``"off"``.

* The mail column is stored in ``MailSettings.modes`` by the finer mail categories (``Category``), so
  the older per-kind settings and one-click unsubscribe links keep working: the "your move" row is the
  six decision categories (the cell shows the mode of "your turn", setting it sets all six).
* ``preferences_set``, ``quiet_hours_set`` and ``unsubscribe`` (one-click, from a mail) write the mail
  settings the older way, by mail category; ``cell_set`` writes one cell of the table.
* Push and webhook columns are stored in ``MailSettings.channel_modes``; they know immediately and off
  only. Their default is "immediately" where the person has a push subscription or a webhook endpoint,
  which the app owning that channel tells us through ``channel_endpoint`` (until one registers, the
  default is "immediately": a channel without an endpoint sends nothing anyway).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import time
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from . import tokens
from .models import Category, MailSettings, Mode

CHANNELS = ("mail", "push", "webhook")
#: Each channel's name on the page, in the reader's language.
CHANNEL_LABELS: dict[str, str | Promise] = {"mail": _("Mail"), "push": _("Push"), "webhook": _("Webhook")}
IMMEDIATELY, DIGEST, OFF = "immediately", "digest", "off"
MODES = (IMMEDIATELY, DIGEST, OFF)


@dataclass(frozen=True)
class TableCategory:
    """One row of the table: its key, label, the mail categories it covers, and its channels."""

    key: str
    label: str | Promise
    mail_categories: tuple[str, ...]
    channels: tuple[str, ...] = CHANNELS


_MOVE_CATEGORIES = (
    Category.TURN.value,
    Category.PLUCK.value,
    Category.ABILITY.value,
    Category.SETUP.value,
    Category.TRIBUTE.value,
    Category.DECLARE.value,
)

ROWS: tuple[TableCategory, ...] = (
    TableCategory("your_move", _("Your move"), _MOVE_CATEGORIES),
    TableCategory("reminders", _("Reminders before a deadline"), (Category.REMINDER.value,)),
    TableCategory("results", _("Round and game results"), (Category.RESULTS.value,)),
    TableCategory("invitations", _("Invitations"), (Category.INVITATION.value,)),
    TableCategory("league_news", _("League news"), (Category.LEAGUE.value,), channels=("mail", "push")),
)
CATEGORIES = tuple(row.key for row in ROWS)
_ROW = {row.key: row for row in ROWS}
#: Mail category -> table row.
ROW_OF_MAIL_CATEGORY = {c: row.key for row in ROWS for c in row.mail_categories}

#: Channel -> the modes its cells offer. A digest is a mail; league news is never held for one.
_CHANNEL_MODES = {"mail": MODES, "push": (IMMEDIATELY, OFF), "webhook": (IMMEDIATELY, OFF)}

#: Whether a person has somewhere to receive a channel (a push subscription, a webhook endpoint).
EndpointCheck = Callable[[Any], bool]
#: Channel -> its ``EndpointCheck`` (``channel_endpoint``).
_ENDPOINTS: dict[str, EndpointCheck] = {}


def channel_endpoint(channel: str) -> Callable[[EndpointCheck], EndpointCheck]:
    """Registers the decorated function as ``channel``'s "has this person somewhere to receive it": the
    app owning the channel decorates it in a module its ``AppConfig.ready`` imports (as a receiver)."""
    if channel not in CHANNELS or channel == "mail":
        raise ValueError(f"unknown channel {channel!r}")

    def register(has_endpoint: EndpointCheck) -> EndpointCheck:
        _ENDPOINTS[channel] = has_endpoint
        return has_endpoint

    return register


def modes_for(category: str, channel: str) -> tuple[str, ...]:
    """The modes a cell offers (empty: the cell does not apply)."""
    row = _ROW.get(category)
    if row is None or channel not in row.channels:
        return ()
    if channel == "mail" and category == "league_news":
        return (IMMEDIATELY, OFF)
    return _CHANNEL_MODES[channel]


def _from_mail(mode: str) -> str:
    return IMMEDIATELY if mode == Mode.IMMEDIATE else mode


def _to_mail(mode: str) -> str:
    return Mode.IMMEDIATE.value if mode == IMMEDIATELY else mode


def _settings(user: User) -> MailSettings:
    prefs = MailSettings.objects.filter(user=user).first()
    return prefs if prefs is not None else MailSettings(user=user)


def _mode(prefs: MailSettings, user: User, category: str, channel: str) -> str:
    if not modes_for(category, channel):
        return OFF
    if channel == "mail":
        return _from_mail(prefs.mode_for(_ROW[category].mail_categories[0]))
    stored = (prefs.channel_modes or {}).get(channel, {}).get(category)
    if stored in _CHANNEL_MODES[channel]:
        return str(stored)
    has_endpoint = _ENDPOINTS.get(channel)
    return IMMEDIATELY if has_endpoint is None or has_endpoint(user) else OFF


def mode_for(user: User, category: str, channel: str) -> str:
    """How ``user`` wants ``category`` (a row key, or a mail category) on ``channel``.

    ``"off"`` for a cell that does not apply or an unknown category or channel.
    """
    category = ROW_OF_MAIL_CATEGORY.get(category, category)
    if category not in _ROW or channel not in CHANNELS:
        return OFF
    return _mode(_settings(user), user, category, channel)


def channel_enabled(user: User, category: str, channel: str) -> bool:
    """True when ``user`` wants ``category`` (a mail category or a table row) on ``channel`` now."""
    return user.is_active and mode_for(user, category, channel) == IMMEDIATELY


def table_get(*, user: User) -> list[dict[str, Any]]:
    """The whole table: per row its key, label and, per channel, the mode and the modes offered."""
    prefs = _settings(user)
    return [
        {
            "category": row.key,
            "label": row.label,
            "cells": {
                channel: {
                    "mode": _mode(prefs, user, row.key, channel),
                    "modes": list(modes_for(row.key, channel)),
                }
                for channel in CHANNELS
                if modes_for(row.key, channel)
            },
        }
        for row in ROWS
    ]


def cell_set(*, user: User, category: str, channel: str, mode: str) -> None:
    """Set one cell; ``ValueError`` for a cell that does not apply or a mode it does not offer."""
    offered = modes_for(category, channel)
    if not offered:
        raise ValueError(f"no cell for {category!r} and {channel!r}")
    if mode not in offered:
        raise ValueError(f"{channel} for {category!r} is one of {', '.join(offered)}")
    prefs, _ = MailSettings.objects.get_or_create(user=user)
    if channel == "mail":
        prefs.modes = {**prefs.modes, **{c: _to_mail(mode) for c in _ROW[category].mail_categories}}
        prefs.save(update_fields=["modes"])
        return
    modes = dict(prefs.channel_modes or {})
    modes[channel] = {**modes.get(channel, {}), category: mode}
    prefs.channel_modes = modes
    prefs.save(update_fields=["channel_modes"])


#: Categories a user can set (the digest itself is not one).
PREFERENCE_CATEGORIES = [c for c in Category if c != Category.DIGEST]


def preferences_set(
    *,
    user: User,
    category: str | None = None,
    mode: str | None = None,
    digest_hour: int | None = None,
    live_games: bool | None = None,
) -> MailSettings:
    """Set a category's mode and/or the digest hour and live-games switch; ``ValueError`` if invalid."""
    prefs, _ = MailSettings.objects.get_or_create(user=user)
    fields: list[str] = []
    if category is not None or mode is not None:
        if category not in {c.value for c in PREFERENCE_CATEGORIES}:
            raise ValueError(f"unknown category {category!r}")
        if mode not in Mode.values:
            raise ValueError(f"unknown mode {mode!r}")
        prefs.modes = {**prefs.modes, category: mode}
        fields.append("modes")
    if digest_hour is not None:
        if not 0 <= int(digest_hour) <= 23:
            raise ValueError("the digest hour is 0-23")
        prefs.digest_hour = int(digest_hour)
        fields.append("digest_hour")
    if live_games is not None:
        prefs.live_games = bool(live_games)
        fields.append("live_games")
    if fields:
        prefs.save(update_fields=fields)
    return prefs


def quiet_hours_set(*, user: User, start: time | None, end: time | None) -> MailSettings:
    """Set the person's quiet hours (local times; both None: none); ``ValueError`` if only one is set
    or they are equal."""
    if (start is None) != (end is None) or (start is not None and start == end):
        raise ValueError("quiet hours need a start and a different end, or neither")
    prefs, _ = MailSettings.objects.get_or_create(user=user)
    prefs.quiet_start, prefs.quiet_end = start, end
    prefs.save(update_fields=["quiet_start", "quiet_end"])
    return prefs


def unsubscribe(*, token: str) -> tuple[User, str]:
    """One-click unsubscribe: switch the token's category off (the digest: every digest category).

    Raises ``signing.BadSignature`` for a forged token.
    """
    data = tokens.unsubscribe_load(token)
    user = get_user_model().objects.get(pk=data["u"])
    category = data["c"]
    prefs, _ = MailSettings.objects.get_or_create(user=user)
    if category == Category.DIGEST:
        prefs.modes = {c: (Mode.OFF if m == Mode.DIGEST else m) for c, m in prefs.modes.items()}
    else:
        prefs.modes = {**prefs.modes, category: Mode.OFF}
    prefs.save(update_fields=["modes"])
    return user, category
