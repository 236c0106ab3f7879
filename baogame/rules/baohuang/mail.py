"""Bao Huang by mail (BH-20): the command language and the text lines of a seat's view.

``parse_command`` turns a command line into a wire-format action; ``format_command`` is its
inverse. ``view_lines`` describes what ``view(state, seat)`` shows, so it never says more than the
seat may know (BH-22).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..i18n import gettext as _
from ..i18n import gettext_noop
from ..mail import (
    Action,
    CommandError,
    MailLanguage,
    aliases_for,
    count,
    number,
    player_name,
    seat_name,
    totals_text,
    words,
)
from ..text import render
from .text import deal_progress_text

SUMMARY: tuple[tuple[str, str], ...] = (
    (
        gettext_noop("play K K BJ"),
        gettext_noop("play these cards (add 'nobeat' to ask the others not to beat)"),
    ),
    (gettext_noop("pass"), gettext_noop("pass")),
    (gettext_noop("tribute 2 A"), gettext_noop("give these cards as tribute")),
    (gettext_noop("keep / pass emperor"), gettext_noop("keep the marked red joker / pass it on")),
    (gettext_noop("alone"), gettext_noop("declare to play alone")),
    (gettext_noop("pledge support / pledge oppose"), gettext_noop("pledge for or against the emperor")),
    (gettext_noop("nodeclare"), gettext_noop("make no declaration")),
    (gettext_noop("guess 3"), gettext_noop("guess that seat 3 is the partner")),
)
NOTATION = gettext_noop(
    "Cards are written as on the page: 6-10, J, Q, K, A, 2, BJ / RJ (black / red joker) and "
    "BJ* / RJ* (the marked jokers); a command lists the cards it plays, in any order. "
    "Seats count from 0."
)
#: The Chinese words of the commands (BH-20), as the mails write them; card codes are the same in both
#: languages.
SPOKEN_ZH: tuple[tuple[str, str], ...] = (
    ("pass emperor", "让位"),
    ("play", "出"),
    ("nobeat", "别压"),
    ("pass", "过"),
    ("tribute", "进贡"),
    ("keep", "留"),
    ("alone", "独保"),
    ("pledge", "表态"),
    ("support", "支持"),
    ("oppose", "反对"),
    ("nodeclare", "不表态"),
    ("guess", "猜"),
)
#: Every Chinese word read: the written ones and common synonyms.
ALIASES = aliases_for(
    SPOKEN_ZH,
    {
        "出牌": "play",
        "皇帝": "emperor",
        "当皇帝": "keep",
        "保": "support",
        "反": "oppose",
        "本墩": "trick",
        "墩": "trick",
    },
)


# --- commands ---------------------------------------------------------------------------------------


def _cards(args: list[str]) -> list[str]:
    # Unknown codes pass through upper-cased: the engine answers invalid_card, as on the web.
    return [a.upper() for a in args]


def parse_command(line: str) -> Action:  # noqa: C901 - one branch per verb
    """The action a command line stands for (BH-20); ``CommandError`` if none."""
    tokens = words(line, ALIASES)
    verb, args = tokens[0].lower(), tokens[1:]
    lowered = [a.lower() for a in args]
    if verb == "play":
        no_beat = bool(lowered) and lowered[-1] == "nobeat"
        cards = _cards(args[:-1] if no_beat else args)
        if not cards:
            raise CommandError("malformed_action", _("usage: %(usage)s") % {"usage": "play CARD … [nobeat]"})
        action: Action = {"type": "play", "cards": cards}
        if no_beat:
            action["no_beat_request"] = True
        return action
    if verb == "pass":
        if lowered in ([], ["turn"]):
            return {"type": "pass"}
        if lowered == ["emperor"]:
            return {"type": "pass_emperor"}
        raise CommandError("malformed_action", _("usage: %(usage)s") % {"usage": "pass  |  pass emperor"})
    if verb == "keep":
        if lowered in ([], ["emperor"]):
            return {"type": "keep_emperor"}
        raise CommandError("malformed_action", _("usage: %(usage)s") % {"usage": "keep"})
    if verb == "tribute":
        if not args:
            raise CommandError("malformed_action", _("usage: %(usage)s") % {"usage": "tribute CARD …"})
        return {"type": "give_tribute", "cards": _cards(args)}
    if verb == "alone":
        count(args, 0, "alone")
        return {"type": "declare_alone"}
    if verb == "pledge":
        if lowered not in (["support"], ["oppose"]):
            raise CommandError(
                "malformed_action", _("usage: %(usage)s") % {"usage": "pledge support  |  pledge oppose"}
            )
        return {"type": "pledge", "side": lowered[0]}
    if verb in {"nodeclare", "none"} or (verb == "no" and lowered in (["declaration"], ["declare"])):
        return {"type": "no_declaration"}
    if verb == "guess":
        count(args, 1, "guess SEAT")
        return {"type": "guess_partner", "seat": number(args[0], _("a seat"))}
    raise CommandError(
        "unknown_command", _("%(word)s is not a Bao Huang command") % {"word": repr(tokens[0][:20])}
    )


def format_command(action: Action) -> str:
    """The command line for ``action`` (the inverse of ``parse_command``)."""
    t = action.get("type")
    if t == "play":
        return "play " + " ".join(action["cards"]) + (" nobeat" if action.get("no_beat_request") else "")
    if t == "give_tribute":
        return "tribute " + " ".join(action["cards"])
    fixed = {
        "pass": "pass",
        "pass_emperor": "pass emperor",
        "keep_emperor": "keep",
        "declare_alone": "alone",
        "no_declaration": "nodeclare",
    }
    if t in fixed:
        return fixed[t]
    if t == "pledge":
        return f"pledge {action['side']}"
    if t == "guess_partner":
        return f"guess {action['seat']}"
    return json.dumps(action)


# --- the seat's view --------------------------------------------------------------------------------


def view_lines(view: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    """Your hand, the others' card counts, roles known to you and the current trick."""
    totals = totals_text(view.get("totals"), seat, names)
    progress = render(deal_progress_text(view), _)  # the deal's words in the reader's language
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


def deal_result_lines(event: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    """A deal's result (BH-15 to BH-17) from its public ``deal_ended`` event, as the page shows it:
    the emperor, the partner or playing alone, the outcome, the finishing order, scores and totals."""
    emperor, partner = event["emperor"], event.get("partner")
    outcome = str(event.get("result"))
    fields = {
        "deal": event["deal"],
        "emperor": seat_name(names, emperor),
        "partner": _("you") if partner == seat else seat_name(names, partner) if partner is not None else "",
        "outcome": _(OUTCOME[outcome]) if outcome in OUTCOME else outcome,
        "multiplier": event.get("multiplier", 1),
    }
    alone = bool(event.get("alone")) or partner is None
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


MAIL = MailLanguage(
    parse=parse_command,
    format=format_command,
    summary=SUMMARY,
    notation=NOTATION,
    view_lines=view_lines,
    unordered={"play": "cards", "give_tribute": "cards"},  # a set of cards, in any order (BH-20)
    result_lines=deal_result_lines,
    aliases=ALIASES,
    spoken={"zh-hans": SPOKEN_ZH},
)
