"""Display names: unique without regard to case, and never another user's username.

A name that someone else shows, or someone else logs in with, would let one player pass for another
in a game, a league table or the audit log. The database holds the first rule too (a unique index on
the lower-cased name); usernames live in another table, so the second is checked here.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext, pgettext_lazy

from .models import Profile

#: A server bot's name with what marks it as a bot, "Heron (bot)" (``games.models.bot_seat_name``);
#: people's display names may not end like that in any of the site's languages (``bot_name_problem``).
BOT_SEAT_NAME = pgettext_lazy("bot seat name", "%(name)s (bot)")

#: What a closed account's username starts with (``accounts.closing``): nobody else's name may, so a
#: closed account's new name is always free and nobody passes for a closed account.
CLOSED_PREFIX = "closed-"

#: The stable code of a refused display name (the API's errors and the forms' messages carry it).
TAKEN = "display_name_taken"


def one_line(name: str) -> str:
    """A chosen name as it is kept: every run of white space (a line break, a tab) one space, none at
    either end. A name is shown on one line, and goes into mail subjects, where a line break would make
    the header invalid."""
    return " ".join(name.split())


def display_name_problem(*, name: str, user: Any | None) -> str | None:
    """Why ``user`` (None: an account not created yet) may not show as ``name``, in the active language;
    None when it may."""
    name = name.strip()
    if not name:
        return None
    others = get_user_model().objects.all() if user is None else get_user_model().objects.exclude(pk=user.pk)
    if others.filter(username__iexact=name).exists():
        return gettext("“%(name)s” is another player's username (%(code)s)") % {"name": name, "code": TAKEN}
    profiles = Profile.objects.all() if user is None else Profile.objects.exclude(user=user)
    if profiles.filter(display_name__iexact=name).exists():
        problem = gettext("another player already shows as “%(name)s” (%(code)s)")
        return problem % {"name": name, "code": TAKEN}
    return None


def username_problem(*, username: str) -> str | None:
    """Why a new account may not take ``username``: it is a closed account's kind of name, or another
    player shows as that name."""
    if kept := _closed_kind(username):
        return kept
    if Profile.objects.filter(display_name__iexact=username.strip()).exists():
        return gettext("another player shows as “%(name)s” (%(code)s)") % {"name": username, "code": TAKEN}
    return None


def bot_name_problem(*, name: str) -> str | None:
    """Why a person (or a person's bot account) may not show as ``name``: it ends as the server's bots'
    names do in one of the site's languages ("(bot)", "（机器人）"), so it would pass for one of them on
    a page in that language, or it starts as a closed account's name does. None when it may."""
    if kept := _closed_kind(name):
        return kept
    folded = name.strip().casefold()
    for suffix in _bot_suffixes():
        if folded.endswith(suffix.casefold()):
            reserved = gettext("Names ending in “%(suffix)s” are kept for the server's bots.")
            return reserved % {"suffix": suffix}
    return None


def _bot_suffixes() -> list[str]:
    """What ends a server bot's name, in each of the site's languages: "(bot)", "（机器人）"."""
    suffixes = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            suffixes.append(str(BOT_SEAT_NAME).replace("%(name)s", "").strip())
    return suffixes


def _closed_kind(name: str) -> str | None:
    """Why ``name`` is kept: it starts as closed accounts' names do (``CLOSED_PREFIX``)."""
    if name.strip().casefold().startswith(CLOSED_PREFIX):
        return gettext("Names starting with “%(prefix)s” are kept for closed accounts.") % {
            "prefix": CLOSED_PREFIX
        }
    return None
