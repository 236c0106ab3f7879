"""Bao Bei's seat view as text lines, for the mails (BB-22): ``view_lines`` describes what
``view(state, seat)`` shows, so it never says more than the seat may know (BB-20.9); ``card_label``
names a card as the game page does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import gettext as _
from ..mail import player_name, seat_name, totals_text
from .cards import CARDS


def card_label(code: str | None) -> str:
    """``Magpie (4)`` for a known card, ``face down`` otherwise (as the game page names it)."""
    if not code or code == "?" or code not in CARDS:
        return _("face down")
    return _("%(card)s (%(value)s)") % {"card": _(CARDS[code]["name"]), "value": CARDS[code]["value"]}


def _card(code: Any) -> str:
    """A card as the page names it: ``Magpie (4)``; ``face down`` when unknown, ``—`` for an empty slot."""
    if code is None:
        return "—"
    return card_label(str(code))


def view_lines(view: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    """Every display as this seat knows it, the discard, the pile and the decision."""
    totals = totals_text(view.get("totals"), seat, names)
    round_number = view.get("round")
    lines = [_("Round %(round)s; running totals: %(totals)s.") % {"round": round_number, "totals": totals}]
    for s in view.get("participants", range(len(view.get("displays", [])))):
        display = view["displays"][s]
        slots = "  ".join(f"{k}: {_card(c)}" for k, c in enumerate(display))
        lines.append(
            _("%(player)s (seat %(seat)s): %(slots)s")
            % {"player": player_name(names, s, seat, starts=True), "seat": s, "slots": slots or _("no cards")}
        )
    discard = view.get("discard") or []
    top = _card(discard[-1]) if discard else "—"
    lines.append(
        _("Discard top: %(card)s; draw pile: %(count)s cards.") % {"card": top, "count": view.get("draw")}
    )
    drawn = [_card(c) for c in view.get("drawn") or [] if c != "?"]
    if len(drawn) > 1:  # the Shoebill's two cards, numbered as its placement names them (BB-9.12)
        lines.append(
            _("You drew: %(cards)s.") % {"cards": "  ".join(f"{k}: {c}" for k, c in enumerate(drawn))}
        )
    elif drawn:
        lines.append(_("You drew: %(cards)s.") % {"cards": drawn[0]})
    if view.get("bao_caller") is not None:
        caller = seat_name(names, view["bao_caller"])
        if view.get("shield_active"):
            lines.append(_("%(player)s called BAO (Shield active).") % {"player": caller})
        else:
            lines.append(_("%(player)s called BAO.") % {"player": caller})
    return lines
