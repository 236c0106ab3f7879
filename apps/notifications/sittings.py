"""Mails about sittings: the proposal of times (recorded as a notification of its own, built by
``mails``), the invitation (with an .ics of the agreed sittings), the reminder 15 minutes
before, the calendar update of a sitting that ended early (its .ics entry again: the same UID, a higher
SEQUENCE, the new end) and the cancellation of sittings whose game ended before them (the same UIDs, a
higher SEQUENCE, METHOD:CANCEL), the last two sent like the invitation and under its preference. The
sittings app claims each (sitting, person, kind) once and asks for delivery through ``sitting_message``;
the person's mail preferences for invitations and reminders apply."""

from __future__ import annotations

import logging
import math
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.accounts.language import mail_language
from apps.sittings import ics
from apps.sittings.models import Sitting, SittingProposal, SittingReminder
from apps.sittings.signals import sitting_message, sitting_proposed

from .compose import local_time, user_zone
from .mails import compose_mail, game_link
from .models import Category
from .notify import notify_sitting_proposed
from .preferences import OFF, mode_for

log = logging.getLogger(__name__)

#: The mails that carry a calendar file, sent under the "Invitations" preference.
CALENDAR_KINDS = (SittingReminder.Kind.INVITATION, SittingReminder.Kind.UPDATE, SittingReminder.Kind.CANCEL)


@receiver(sitting_proposed, dispatch_uid="notifications.sitting_proposed")
def on_sitting_proposed(sender: Any, *, proposal: SittingProposal, **kwargs: Any) -> None:
    """In the proposal's transaction: record the mail of every other person at the table, sent once it
    commits (the sweep sends one whose task is lost; quiet hours and the digest hold it as any
    invitation). A failure is logged and rolls back only its savepoint: the proposal stands."""
    try:
        with transaction.atomic():
            notify_sitting_proposed(proposal=proposal)
    except Exception:
        log.exception("could not record the mails of sitting proposal %s", proposal.pk)


@receiver(sitting_message, dispatch_uid="notifications.sitting_message")
def on_sitting_message(
    sender: Any, *, sitting: Sitting, user_id: int, kind: str, series: list[Sitting], **kwargs: Any
) -> None:
    if kind not in (*CALENDAR_KINDS, SittingReminder.Kind.MAIL):
        return
    user = get_user_model().objects.filter(pk=user_id, is_active=True).select_related("profile").first()
    if user is None or not user.email:
        return
    invitation = kind == SittingReminder.Kind.INVITATION
    category = Category.INVITATION if kind in CALENDAR_KINDS else Category.REMINDER
    if mode_for(user, category, "mail") == OFF:
        return
    with translation.override(mail_language(user)):  # the recipient's language, not the request's
        if kind == SittingReminder.Kind.UPDATE:
            _send_update_mail(sitting=sitting, user=user)
        elif kind == SittingReminder.Kind.CANCEL:
            _send_cancel_mail(series=series, user=user)
        else:
            _send_sitting_mail(
                sitting=sitting, user=user, series=series, invitation=invitation, category=category
            )


def _send_update_mail(*, sitting: Sitting, user: Any) -> None:
    """The sitting ended early: its calendar entry again, with its new end."""
    _send(
        user=user,
        game=sitting.game,
        subject=_("[baogame] %(game)s: the sitting ended early") % {"game": sitting.game},
        context={
            "update": True,
            "started": local_time(sitting.starts_at, user),
            "ended": f"{timezone.localtime(sitting.ends_at, user_zone(user)):%H:%M}",
        },
        category=Category.INVITATION,
        calendar=ics.sittings_ics([sitting], now=timezone.now(), sequence=1),
    )


def _send_cancel_mail(*, series: list[Sitting], user: Any) -> None:
    """The game ended before these sittings: their calendar entries, cancelled."""
    _send(
        user=user,
        game=series[0].game,
        subject=_("[baogame] %(game)s: the game is over, its sittings are cancelled")
        % {"game": series[0].game},
        context={"cancel": True, "times": _times(series, user)},
        category=Category.INVITATION,
        calendar=ics.sittings_ics(series, now=timezone.now(), sequence=1, cancel_for=user.email),
    )


def _times(series: list[Sitting], user: Any) -> list[str]:
    """Each sitting's time in the person's zone: its start, and its end's time of day."""
    zone = user_zone(user)
    return [
        _("%(start)s to %(end)s")
        % {"start": local_time(s.starts_at, user), "end": f"{timezone.localtime(s.ends_at, zone):%H:%M}"}
        for s in series
    ]


def _send_sitting_mail(
    *, sitting: Sitting, user: Any, series: list[Sitting], invitation: bool, category: str
) -> None:
    subject = (
        _("[baogame] %(game)s: sitting agreed") % {"game": sitting.game}
        if invitation
        else _("[baogame] %(game)s: the sitting starts at %(when)s")
        % {"game": sitting.game, "when": local_time(sitting.starts_at, user)}
    )
    _send(
        user=user,
        game=sitting.game,
        subject=subject,
        context={
            "invitation": invitation,
            "times": _times(series, user),
            # A sitting agreed less than 15 minutes ahead is reminded at once: say how soon it is.
            "minutes": max(1, math.ceil((sitting.starts_at - timezone.now()).total_seconds() / 60)),
        },
        category=category,
        calendar=ics.sittings_ics(series, now=timezone.now()) if invitation else None,
    )


def _send(
    *,
    user: Any,
    game: Any,
    subject: str,
    context: dict[str, Any],
    category: str,
    calendar: bytes | None,
) -> None:
    """A sitting mail of ``game``: its subject cut to 200 characters, the ``sitting`` template with the
    game's name and link beside ``context``, and the calendar file ``sitting.ics`` when there is one."""
    message = compose_mail(
        user=user,
        subject=subject[:200],
        template="sitting",
        context={"game_name": str(game), "link": game_link(game, user), **context},
        category=category,
    )
    if calendar is not None:
        message.attach("sitting.ics", calendar, "text/calendar")
    message.send()
