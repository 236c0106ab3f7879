"""A calendar of deadlines: each person's secret iCalendar address (RFC 5545, the ``icalendar`` library).

The feed lists the deadlines of the person's own open decisions and the start of their leagues' next
rounds, and is built on every request, so it follows the games as they move. It names the game, the
kind of decision and its deadline — what the person's own page shows of it — and never a card: it
reads ``Decision`` rows (seat, kind, deadline), league schedules (``register_entries``: the leagues
add theirs) and, to say which question a decision is as the mails do (``compose.describe_row``: Bao
Huang's emperor offer or its declarations), the person's own view of their own decision; nothing of
anyone else's.
Calendar programs cannot log in, so the address itself is the credential; regenerating it voids the
old one.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from apps.accounts.language import mail_language
from apps.games import selectors as game_selectors
from apps.sittings import ics as sitting_ics
from apps.sittings.selectors import sittings_for_user

from .compose import describe_row
from .models import CalendarFeed

#: A decision's entry ends at its deadline and starts this long before it (a zero-length entry is
#: hidden or mis-drawn by several calendar programs).
ENTRY_LENGTH = timedelta(minutes=15)


@dataclass(frozen=True)
class Entry:
    """One calendar entry: a decision's deadline or a league round's start."""

    uid: str
    summary: str
    description: str
    starts: datetime
    ends: datetime
    url: str


#: What a higher app adds to a feed: ``source(user=..., now=...)`` returns its entries.
EntrySource = Callable[..., list[Entry]]
_SOURCES: list[EntrySource] = []


def _new_token() -> str:
    return secrets.token_urlsafe(32)


def feed_get(*, user: User) -> CalendarFeed | None:
    """The person's calendar address, or None if they have not made one."""
    return CalendarFeed.objects.filter(user=user).first()


def feed_regenerate(*, user: User) -> CalendarFeed:
    """Make the person's calendar address, or a new one that voids the old (which then answers 404)."""
    feed, _created = CalendarFeed.objects.update_or_create(user=user, defaults={"token": _new_token()})
    return feed


def feed_user(*, token: str) -> User | None:
    """Whose calendar address ``token`` is (None: unknown or regenerated since)."""
    feed = CalendarFeed.objects.filter(token=token).select_related("user").first()
    return feed.user if feed is not None and feed.user.is_active else None


def feed_url(feed: CalendarFeed) -> str:
    """The absolute address calendar programs subscribe to."""
    return settings.SITE_URL + reverse("calendar_feed", args=[feed.token])


def host() -> str:
    """The host part of entries' uids."""
    return urlsplit(settings.SITE_URL).hostname or "baogame"


def decision_entries(*, user: User) -> list[Entry]:
    """The deadlines of the person's own open decisions with a running clock.

    Seats played by the server (an absent player's seat handed to the bot) are left out: the bot
    answers there until the player takes the seat back. A stopped clock (paused game, vacation) has no
    deadline to show.
    """
    rows = game_selectors.deadlines_of_user(user=user)
    site = host()
    entries = []
    for row in rows:
        assert row.deadline is not None  # filtered above
        game = row.game
        what = describe_row(game, row)
        entries.append(
            Entry(
                uid=f"decision-{game.pk}-{row.seat}-{row.decision_id}@{site}",
                summary=_("%(game)s: %(decision)s") % {"game": game, "decision": what.rstrip(".。")},
                description=_("%(decision)s Deadline of your decision in %(game)s (%(kind)s).")
                % {"decision": what, "game": game, "kind": game.get_engine_display()},
                starts=row.deadline - ENTRY_LENGTH,
                ends=row.deadline,
                url=settings.SITE_URL + game.get_absolute_url(),
            )
        )
    return entries


def register_entries(source: EntrySource) -> None:
    """Add a source of entries to every feed (a higher app's ``ready``: the leagues' round starts)."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def sitting_entries(*, user: User, now: datetime) -> list[Entry]:
    """The agreed sittings of the person's games (``apps.sittings``), still to come or under way."""
    return [
        Entry(
            uid=sitting_ics.uid(s),
            summary=sitting_ics.summary(s),
            description=sitting_ics.description(s),
            starts=s.starts_at,
            ends=s.ends_at,
            url=sitting_ics.url(s),
        )
        for s in sittings_for_user(user=user, now=now)
    ]


def feed_ics(*, user: User, now: datetime | None = None) -> bytes:
    """The person's calendar as iCalendar bytes (one VEVENT per entry, times in UTC), in their
    language (a calendar program's fetch carries none of its own)."""
    with translation.override(mail_language(user)):
        return _feed_ics(user=user, now=now or timezone.now())


def _feed_ics(*, user: User, now: datetime) -> bytes:
    cal = Calendar()
    cal.add("prodid", "-//baogame//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", _("baogame deadlines"))
    cal.add("refresh-interval", timedelta(minutes=15), parameters={"VALUE": "DURATION"})
    entries = decision_entries(user=user)
    for source in _SOURCES:
        entries += source(user=user, now=now)
    for entry in entries + sitting_entries(user=user, now=now):
        event = Event()
        event.add("uid", entry.uid)
        event.add("dtstamp", now)
        event.add("dtstart", entry.starts)
        event.add("dtend", entry.ends)
        event.add("summary", entry.summary)
        event.add("description", entry.description)
        event.add("url", entry.url)
        cal.add_component(event)
    return cal.to_ical()
