"""A league game's title: stored in one form, shown in the reader's language.

A table's game is created with the title ``"<league> · season 2 · round 3 · table 1"`` (``stored``): the
API gives it as it is, and it reads the same for everybody. Pages and mails show it through ``shown``,
which says "season", "round" and "table" in the reader's language; ``apps.games.leagues_link`` asks it
for every game's title (a title of any other form is shown as it is).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext

_STORED = re.compile(r"(?P<league>.+) · season (?P<season>\d+) · round (?P<round>\d+) · table (?P<table>\d+)")


def stored(*, league: str, season: int, round_number: int, table: int) -> str:
    """The title a table's game is created with."""
    return f"{league} · season {season} · round {round_number} · table {table}"


def shown(title: str) -> str:
    """``title`` for the reader: a table's title in their language, any other as it is."""
    found = _STORED.fullmatch(title)
    if found is None:
        return title
    return gettext("%(league)s · season %(season)s · round %(round)s · table %(table)s") % found.groupdict()
