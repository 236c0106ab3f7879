"""The rules pages: how to play Bao Bei and Bao Huang, for people (the standards stay the reference)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext, gettext_noop

from baogame.rules.registry import get_game_type

from .presenters import presenter_for
from .rulebook import rules_template

#: The games' names as the pages show them, marked for translation (``GameType.display_name``).
GAME_NAMES = (gettext_noop("Bao Bei"), gettext_noop("Bao Huang"))


def rules_index(request: HttpRequest) -> HttpResponse:
    """The two games, with a line about each and a link to its rules."""
    return render(request, rules_template("rules/index.html"))


def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    """One game's rules, explained for players."""
    page = presenter_for(game).rules_page()  # each game's presenter: its template and engine data
    if page is None:
        raise Http404("no rules for that game")
    template, context = page
    title = gettext(get_game_type(game).display_name)  # the games' names: GAME_NAMES
    return render(request, rules_template(template), {"game": game, "title": title, **context})


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, asked for by browsers and feed readers that ignore the page's icon link."""
    return HttpResponseRedirect(static("img/favicon.svg"))
