"""Each control's worst case in words, for the forms and docs: how long a game can last at most if
every seat always lets its bank run out (``controls.worst_case``).

The decisions per seat are the most that one seat met in the pace benchmark's games without standing
orders (``python manage.py bench_pace --games 40 --seed 1001``, the same with ``--game baobei
--players 3``):
147 in a one-deal Bao Huang game (a deal asks a seat about 30 on average, but one deal can ask many
more, and a shared lead plays on, BH-17.6) and 136 in a normal Bao Bei game of 3 (§2.3). An
average deal's 30 would state a fifth of the real worst case.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from baogame import wording

from .controls import Control, worst_case
from .words import control_name

#: (what, decisions per seat, seats) of the games the sentence names.
SHAPES = (
    (gettext_lazy("a one-deal Bao Huang game"), 147, 5),
    (gettext_lazy("a normal Bao Bei game of 3"), 136, 3),
)


def days(span: timedelta) -> str:
    """``160 days``, ``5 hours``: a worst case at a glance."""
    hours = span.total_seconds() / 3600
    if hours < 48:
        return ngettext("%(n)s hour", "%(n)s hours", round(hours)) % {"n": round(hours)}
    return ngettext("%(n)s day", "%(n)s days", round(hours / 24)) % {"n": round(hours / 24)}


def worst_case_sentence(control: Control) -> str:
    """``"Daily: a one-deal Bao Huang game can last at most 745 days, a normal Bao Bei game of 3 at
    most 414 days."``"""
    first, *others = SHAPES
    parts = [
        _("%(what)s can last at most %(days)s")
        % {"what": first[0], "days": days(worst_case(control, first[1], first[2]))}
    ]
    parts += [
        _("%(what)s at most %(days)s") % {"what": what, "days": days(worst_case(control, n, seats))}
        for what, n, seats in others
    ]
    return _("%(control)s: %(parts)s.") % {
        "control": control_name(control.name),
        "parts": wording.clauses(parts),
    }
