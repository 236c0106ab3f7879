"""``{% sittings_panel %}``: the game page's "Sittings" panel, for the table only (empty for others)."""

from __future__ import annotations

from typing import Any

from django import template

from .. import lifecycle, selectors, services
from ..views import PANEL_TAG, panel_context

register = template.Library()


@register.inclusion_tag("sittings/_panel.html", takes_context=True)
def sittings_panel(context: dict[str, Any]) -> dict[str, Any]:
    request, game = context["request"], context["game"]
    if not selectors.may_see(game=game, user=request.user):
        return {"panel": None}
    # The game page's own request: the player is at the table now (the panel's polls keep it so).
    services.presence_seen(game=game, user=request.user)
    seat = selectors.human_seat_of(game=game, user=request.user)
    if seat is not None:
        lifecycle.arrive(game=game, position=seat)  # a sitting under way: the player joins it now
    # A refusal of the panel's own form (``views._done``): told here, where the redirect scrolls.
    error = " ".join(str(m) for m in context.get("messages") or () if PANEL_TAG in m.extra_tags.split())
    return {**panel_context(request, game, error), "csrf_token": context.get("csrf_token")}
