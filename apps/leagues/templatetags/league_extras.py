"""Template filters of the league pages."""

from __future__ import annotations

from typing import Any

from django import template

from .. import selectors

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]``, or None when absent (dicts keyed by user id in the standings)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.inclusion_tag("leagues/_player_leagues.html")
def player_leagues(user: Any) -> dict[str, Any]:
    """A player's page's "Leagues" panel: the public leagues they are an active member of, with their
    rating in each (``selectors.leagues_of_player``)."""
    return {"rows": selectors.leagues_of_player(user=user)}
