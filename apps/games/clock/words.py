"""The time controls' names as pages and forms show them, in the reader's language."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

#: The named time controls (``controls.NAMED_CONTROLS``) and ``custom``.
CONTROL_NAMES = {
    "live": pgettext_lazy("time control", "Live"),
    "daily": pgettext_lazy("time control", "Daily"),
    "relaxed": pgettext_lazy("time control", "Relaxed"),
    "weekly": pgettext_lazy("time control", "Weekly"),
    "custom": pgettext_lazy("time control", "Custom"),
}


def control_name(name: str) -> str:
    """A time control's name as pages show it (``Daily``)."""
    return str(CONTROL_NAMES.get(name, name.title()))
