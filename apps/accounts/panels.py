"""What higher apps add to a person's profile page (the games: the reliability record, the vacation).

The accounts app sits below every other, so it never imports them: each adds a panel, a function of the
profile returning template context, from its ``AppConfig.ready()``.
"""

from __future__ import annotations

from collections.abc import Callable

from .models import Profile

Panel = Callable[[Profile], dict[str, object]]
_PANELS: list[Panel] = []


def register(panel: Panel) -> None:
    if panel not in _PANELS:
        _PANELS.append(panel)


def context_for(profile: Profile) -> dict[str, object]:
    """Every registered panel's context for ``profile``'s page."""
    context: dict[str, object] = {}
    for panel in _PANELS:
        context.update(panel(profile))
    return context
