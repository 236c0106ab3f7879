"""The table talk of a game page (``table_talk``): its lines, polled, a seated person's message, and a
reader's report of a message to the site's staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from apps.accounts.http import HtmxHttpRequest
from baogame.rules.core import RuleError

from . import table_talk
from .errortext import refusal
from .models import Game
from .views import visible_game


@require_http_methods(["GET", "POST"])
def game_talk(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """GET: the talk's lines (the panel polls them). POST: a seated person writes one; an htmx post gets
    the panel back (with the refusal, if any), a plain form goes back to the game page."""
    game, seat = visible_game(request, public_id, seats="plain")
    if request.method == "GET":
        return render(
            request, "games/_talk_lines.html", {"game": game, **table_talk.lines_context(game, request.user)}
        )
    away = _sign_in_first(request, game)
    if away is not None:
        return away
    user = cast(User, request.user)  # signed in (above)
    error = _refusal_of(
        lambda: table_talk.message_post(game=game, user=user, text=request.POST.get("text", ""))
    )
    # A refused message stays in the box, to mend rather than to type again.
    draft = request.POST.get("text", "") if error else ""
    if request.htmx:
        panel = table_talk.panel_context(game, seat, request.user, draft=draft)
        return render(request, "games/_table_talk.html", {"game": game, "talk_error": error, **panel})
    if error:
        messages.error(request, error)
        table_talk.draft_keep(request.session, game=game, text=draft)
    return redirect(game.get_absolute_url() + "#table-talk")


@require_POST
def game_talk_report(request: HtmxHttpRequest, public_id: str, message_id: int) -> HttpResponse:
    """A reader reports a message to the site's staff: an htmx post gets the lines back (the message now
    marked as reported, or the refusal), a plain form goes back to the game page with a word of thanks."""
    game, _ = visible_game(request, public_id, seats="plain")
    away = _sign_in_first(request, game)
    if away is not None:
        return away
    user = cast(User, request.user)  # signed in (above)
    error = _refusal_of(lambda: table_talk.message_report(game=game, user=user, message_id=message_id))
    if request.htmx:
        context = {"game": game, "report_error": error, **table_talk.lines_context(game, request.user)}
        return render(request, "games/_talk_lines.html", context)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, gettext("Thank you: the site's staff will read that message."))
    return redirect(game.get_absolute_url() + "#table-talk")


def _sign_in_first(request: HtmxHttpRequest, game: Game) -> HttpResponse | None:
    """For somebody not signed in: back to the game page (htmx) or to the sign-in page; else None."""
    if request.user.is_authenticated:
        return None
    if request.htmx:
        return HttpResponseClientRedirect(game.get_absolute_url())
    return redirect_to_login(game.get_absolute_url())


def _refusal_of(act: Callable[[], object]) -> str:
    """Do ``act``: its refusal in the viewer's words, or "" when it was done."""
    try:
        act()
    except RuleError as exc:
        return refusal(exc)
    return ""
