"""The rules pages: how to play Bao Bei and Bao Huang, for people (the standards stay the reference)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static

from . import rulebook

#: Each game's page: its template and the data computed from its engine.
PAGES = {
    "baobei": ("rules/baobei.html", rulebook.baobei_context),
    "baohuang": ("rules/baohuang.html", rulebook.baohuang_context),
}


def rules_index(request: HttpRequest) -> HttpResponse:
    """The two games, with a line about each and a link to its rules."""
    return render(request, "rules/index.html")


def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    """One game's rules, explained for players."""
    if game not in PAGES:
        raise Http404("no rules for that game")
    template, context = PAGES[game]
    return render(request, template, {"game": game, "title": rulebook.GAMES[game], **context()})


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, asked for by browsers and feed readers that ignore the page's icon link."""
    return HttpResponseRedirect(static("img/favicon.svg"))
