"""A player's public page, ``/players/<username>/``: readable by anybody, signed out included."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from . import players
from .errors import ServiceError


def player_detail(request: HttpRequest, username: str) -> HttpResponse:
    """Who the player is, their reliability record, their games the viewer may see and (the leagues
    app's panel) their public leagues; 404 for an unknown name or a closed account.

    A name typed in another case (``/players/Demo/`` for ``demo``) finds the player, as signing in
    does, and redirects to the page under its own spelling, so that each page has one address. The
    redirect is temporary: the account may be closed later, and a cached permanent one would outlive
    it."""
    try:
        user = players.player_get(username=username)
    except ServiceError as exc:
        raise Http404(exc.message) from None
    if user.get_username() != username:
        return redirect("games:player", user.get_username())
    profile = players.player_profile(user=user, viewer=request.user)
    return render(request, "games/player.html", {"player": profile})
