"""Sittings as iCalendar events (RFC 5545): the invitation mail's attachment and the calendar feed's
entries. They name the game and its time only: nothing of the cards."""

from __future__ import annotations

from datetime import datetime
from email.utils import parseaddr
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from .models import Sitting


def uid(sitting: Sitting) -> str:
    """A sitting's stable calendar uid, the same in the invitation and in the feed."""
    host = urlsplit(settings.SITE_URL).hostname or "baogame"
    return f"sitting-{sitting.pk}@{host}"


def summary(sitting: Sitting) -> str:
    """The entry's title, in the active language (the recipient's, for a mail)."""
    return _("%(game)s: sitting (%(engine)s)") % {
        "game": sitting.game,
        "engine": sitting.game.get_engine_display(),
    }


def description(sitting: Sitting) -> str:
    """The entry's text, in the active language (the recipient's, for a mail)."""
    return _(
        "An agreed sitting of %(game)s: the table plays together at live speed. "
        "Open the game page to join: %(url)s"
    ) % {"game": sitting.game, "url": url(sitting)}


def url(sitting: Sitting) -> str:
    return settings.SITE_URL + sitting.game.get_absolute_url()


def sittings_ics(
    sittings: list[Sitting], *, now: datetime, sequence: int = 0, cancel_for: str | None = None
) -> bytes:
    """A calendar file with one event per sitting (times in UTC; calendar programs show them local).

    The invitation's entries have ``SEQUENCE`` 0. A sitting changes at most once after it: it ends early
    (once) or is cancelled (its game ended before it), never both, so its change has ``SEQUENCE`` 1 and
    the same ``UID``, and a calendar program that took in the invitation replaces or removes the entry.
    The update of an early end is published like the invitation, with its new end (``ends_at`` is set
    to the moment it ended). ``cancel_for`` (the recipient's address) makes the file a cancellation
    (``METHOD:CANCEL``, each event ``STATUS:CANCELLED``, with the organiser and that attendee that
    RFC 5546 asks of a cancellation)."""
    cal = Calendar()
    cal.add("prodid", "-//baogame//sittings//EN")
    cal.add("version", "2.0")
    cal.add("method", "CANCEL" if cancel_for else "PUBLISH")
    for sitting in sittings:
        event = Event()
        event.add("uid", uid(sitting))
        event.add("dtstamp", now)
        event.add("sequence", sequence)
        event.add("dtstart", sitting.starts_at)
        event.add("dtend", sitting.ends_at)
        event.add("summary", summary(sitting))
        event.add("description", description(sitting))
        event.add("url", url(sitting))
        if cancel_for:
            event.add("status", "CANCELLED")
            event.add("organizer", f"mailto:{parseaddr(settings.DEFAULT_FROM_EMAIL)[1]}")
            event.add("attendee", f"mailto:{cancel_for}")
        cal.add_component(event)
    return cal.to_ical()
