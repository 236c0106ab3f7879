"""Bao Huang's seat view and deal results as text lines, for the mails (BH-20): ``view_lines``
describes what ``view(state, seat)`` shows, so it never says more than the seat may know (BH-22).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import gettext as _
from ..i18n import gettext_noop, ngettext
from ..mail import player_name, seat_name, totals_text
from ..text import render
from .text import deal_progress_text


def view_lines(view: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    """Your hand, the others' card counts, roles known to you and the current trick."""
    totals = totals_text(view.get("totals"), seat, names)
    progress = render(deal_progress_text(view), _, ngettext)  # the deal's words in the reader's language
    lines = [_("%(progress)s; totals: %(totals)s.") % {"progress": progress, "totals": totals}]
    if view.get("hand") is not None:
        hand = " ".join(view["hand"]) or _("empty")
        lines.append(_("Your hand (%(count)s): %(cards)s") % {"count": len(view["hand"]), "cards": hand})
    counts = view.get("counts") or []
    held = ", ".join(f"{seat_name(names, s)}: {n}" for s, n in enumerate(counts))
    lines.append(_("Cards held: %(counts)s.") % {"counts": held})
    if view.get("emperor") is not None:
        lines.append(_("Emperor: %(player)s.") % {"player": seat_name(names, view["emperor"])})
    if view.get("partner") is not None:
        lines.append(_("Partner: %(player)s.") % {"player": seat_name(names, view["partner"])})
    if view.get("multiplier", 1) != 1:
        lines.append(_("Multiplier: x%(multiplier)s.") % {"multiplier": view["multiplier"]})
    trick = trick_text(view.get("trick") or [], names)
    if trick:
        lines.append(_("Trick so far: %(plays)s.") % {"plays": trick})
    top = view.get("top")
    if top:
        lines.append(
            _("To beat: %(cards)s by %(player)s.")
            % {"cards": " ".join(top["cards"]), "player": seat_name(names, top["seat"])}
        )
    return lines


def trick_text(trick: list[Any], names: Sequence[str]) -> str:
    """The plays and passes of the trick so far, in order (BH-10, BH-11): ``Lark (seat 2) 9 9, …``."""
    parts = []
    for entry in trick:
        if not isinstance(entry, dict) or "seat" not in entry:
            continue
        cards = entry.get("cards")
        what = " ".join(cards) if cards and entry.get("type") != "pass" else _("passes")
        parts.append(f"{seat_name(names, entry['seat'])} {what}")
    return ", ".join(parts)


OUTCOME = {
    "won": gettext_noop("won"),
    "lost": gettext_noop("lost"),
    "draw": gettext_noop("drew (second place)"),
}
#: A draw with a partner: the imperial place points sum to 0 (BH-16.6), nobody came "second".
PARTNERED_DRAW = gettext_noop("drew")


def outcome_text(result: str, alone: bool) -> str:
    """A deal's result (BH-16.6) as the words after "the emperor … (and)": won, lost, drew; only a lone
    emperor draws by coming second."""
    if result == "draw" and not alone:
        return _(PARTNERED_DRAW)
    return _(OUTCOME[result]) if result in OUTCOME else result


def deal_result_lines(event: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    """A deal's result (BH-15 to BH-17) from its public ``deal_ended`` event, as the page shows it:
    the emperor, the partner or playing alone, the outcome, the finishing order, scores and totals."""
    emperor, partner = event["emperor"], event.get("partner")
    outcome = str(event.get("result"))
    alone = bool(event.get("alone")) or partner is None
    fields = {
        "deal": event["deal"],
        "emperor": seat_name(names, emperor),
        "partner": _("you") if partner == seat else seat_name(names, partner) if partner is not None else "",
        "outcome": outcome_text(outcome, alone),
        "multiplier": event.get("multiplier", 1),
    }
    if emperor == seat:
        sentence = (
            _("Deal %(deal)s: you, the emperor, played alone and %(outcome)s (multiplier x%(multiplier)s).")
            if alone
            else _(
                "Deal %(deal)s: you, the emperor, played with %(partner)s as partner and %(outcome)s "
                "(multiplier x%(multiplier)s)."
            )
        )
    else:
        sentence = (
            _(
                "Deal %(deal)s: the emperor %(emperor)s played alone and %(outcome)s "
                "(multiplier x%(multiplier)s)."
            )
            if alone
            else _(
                "Deal %(deal)s: the emperor %(emperor)s played with %(partner)s as partner and %(outcome)s "
                "(multiplier x%(multiplier)s)."
            )
        )
    lines = [sentence % fields]
    order = event.get("finished") or []
    if order:
        finishing = ", ".join(f"{i + 1}. {player_name(names, s)}" for i, s in enumerate(order))
        lines.append(_("Finishing order: %(order)s.") % {"order": finishing})
    scores = event.get("scores")
    if isinstance(scores, list):
        points = ", ".join(f"{player_name(names, s, seat)} {v:+d}" for s, v in enumerate(scores))
        lines.append(_("Scores this deal: %(scores)s.") % {"scores": points})
    lines.append(_("Totals: %(totals)s.") % {"totals": totals_text(event.get("totals"), seat, names)})
    return lines
