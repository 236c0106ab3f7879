"""Template filters of the league pages."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]``, or None when absent (dicts keyed by user id in the standings)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None
