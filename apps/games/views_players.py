"""A player's public page, ``/players/<username>/``: readable by anybody, signed out included."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from . import players
from .errors import ServiceError


def player_detail(request: HttpRequest, username: str) -> HttpResponse:
    """Who the player is, their reliability record, their games the viewer may see and (the leagues
    app's panel) their public leagues; 404 for an unknown name or a closed account."""
    try:
        profile = players.player_profile(username=username, viewer=request.user)
    except ServiceError as exc:
        raise Http404(exc.message) from None
    return render(request, "games/player.html", {"player": profile})
