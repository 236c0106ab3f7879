"""Bao Huang by mail (BH-20): the command language and the text lines of a seat's view.

``parse_command`` turns a command line into a wire-format action; ``format_command`` is its
inverse. ``view_lines`` describes what ``view(state, seat)`` shows, so it never says more than the
seat may know (BH-22).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..mail import Action, CommandError, MailLanguage, count, number, seat_name, totals_text
from .text import deal_progress

SUMMARY: tuple[tuple[str, str], ...] = (
    ("play K K BJ", "play these cards (add 'nobeat' to ask the others not to beat)"),
    ("pass", "pass"),
    ("tribute 2 A", "give these cards as tribute"),
    ("keep / pass emperor", "keep the marked red joker / pass it on"),
    ("alone", "declare to play alone"),
    ("pledge support / pledge oppose", "pledge for or against the emperor"),
    ("nodeclare", "make no declaration"),
    ("guess 3", "guess that seat 3 is the partner"),
)
NOTATION = (
    "Cards are written as on the page: 6-10, J, Q, K, A, 2, BJ / RJ (black / red joker) and "
    "BJ* / RJ* (the marked jokers); a command lists the cards it plays, in any order. "
    "Seats count from 0."
)


# --- commands ---------------------------------------------------------------------------------------


def _cards(args: list[str]) -> list[str]:
    # Unknown codes pass through upper-cased: the engine answers invalid_card, as on the web.
    return [a.upper() for a in args]


def parse_command(line: str) -> Action:  # noqa: C901 - one branch per verb
    """The action a command line stands for (BH-20); ``CommandError`` if none."""
    tokens = line.replace(",", " ").split()
    verb, args = tokens[0].lower(), tokens[1:]
    lowered = [a.lower() for a in args]
    if verb == "play":
        no_beat = bool(lowered) and lowered[-1] == "nobeat"
        cards = _cards(args[:-1] if no_beat else args)
        if not cards:
            raise CommandError("malformed_action", "usage: play CARD … [nobeat]")
        action: Action = {"type": "play", "cards": cards}
        if no_beat:
            action["no_beat_request"] = True
        return action
    if verb == "pass":
        if lowered in ([], ["turn"]):
            return {"type": "pass"}
        if lowered == ["emperor"]:
            return {"type": "pass_emperor"}
        raise CommandError("malformed_action", "usage: pass  or  pass emperor")
    if verb == "keep":
        if lowered in ([], ["emperor"]):
            return {"type": "keep_emperor"}
        raise CommandError("malformed_action", "usage: keep")
    if verb == "tribute":
        if not args:
            raise CommandError("malformed_action", "usage: tribute CARD …")
        return {"type": "give_tribute", "cards": _cards(args)}
    if verb == "alone":
        count(args, 0, "alone")
        return {"type": "declare_alone"}
    if verb == "pledge":
        if lowered not in (["support"], ["oppose"]):
            raise CommandError("malformed_action", "usage: pledge support  or  pledge oppose")
        return {"type": "pledge", "side": lowered[0]}
    if verb in {"nodeclare", "none"} or (verb == "no" and lowered in (["declaration"], ["declare"])):
        return {"type": "no_declaration"}
    if verb == "guess":
        count(args, 1, "guess SEAT")
        return {"type": "guess_partner", "seat": number(args[0], "a seat")}
    raise CommandError("unknown_command", f"{verb!r} is not a Bao Huang command")


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
    lines = [f"{deal_progress(view)}; totals: {totals_text(view.get('totals'), seat, names)}."]
    if view.get("hand") is not None:
        lines.append(f"Your hand ({len(view['hand'])}): {' '.join(view['hand']) or 'empty'}")
    counts = view.get("counts") or []
    held = ", ".join(f"{seat_name(names, s)}: {n}" for s, n in enumerate(counts))
    lines.append(f"Cards held: {held}.")
    if view.get("emperor") is not None:
        lines.append(f"Emperor: {seat_name(names, view['emperor'])}.")
    if view.get("partner") is not None:
        lines.append(f"Partner: {seat_name(names, view['partner'])}.")
    if view.get("multiplier", 1) != 1:
        lines.append(f"Multiplier: x{view['multiplier']}.")
    trick = trick_text(view.get("trick") or [], names)
    if trick:
        lines.append(f"Trick so far: {trick}.")
    top = view.get("top")
    if top:
        lines.append(f"To beat: {' '.join(top['cards'])} by {seat_name(names, top['seat'])}.")
    return lines


def trick_text(trick: list[Any], names: Sequence[str]) -> str:
    """The plays and passes of the trick so far, in order (BH-10, BH-11): ``Lark (seat 2) 9 9, …``."""
    parts = []
    for entry in trick:
        if not isinstance(entry, dict) or "seat" not in entry:
            continue
        cards = entry.get("cards")
        what = " ".join(cards) if cards and entry.get("type") != "pass" else "passes"
        parts.append(f"{seat_name(names, entry['seat'])} {what}")
    return ", ".join(parts)


OUTCOME = {"won": "won", "lost": "lost", "draw": "drew (second place)"}


def deal_result_lines(event: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    """A deal's result (BH-15 to BH-17) from its public ``deal_ended`` event, as the page shows it:
    the emperor, the partner or playing alone, the outcome, the finishing order, scores and totals."""
    emperor, partner = event["emperor"], event.get("partner")
    who = "you, the emperor," if emperor == seat else f"the emperor {seat_name(names, emperor)}"
    if event.get("alone") or partner is None:
        side = "played alone"
    else:
        side = f"played with {'you' if partner == seat else seat_name(names, partner)} as partner"
    outcome = OUTCOME.get(str(event.get("result")), str(event.get("result")))
    lines = [
        f"Deal {event['deal']}: {who} {side} and {outcome} (multiplier x{event.get('multiplier', 1)})."
    ]
    order = event.get("finished") or []
    if order:
        lines.append("Finishing order: " + ", ".join(f"{i + 1}. {names[s] if s < len(names) else s}"
                                                     for i, s in enumerate(order)) + ".")
    scores = event.get("scores")
    if isinstance(scores, list):
        lines.append("Scores this deal: " + ", ".join(
            f"{'You' if s == seat else (names[s] if s < len(names) else f'Seat {s}')} {v:+d}"
            for s, v in enumerate(scores)) + ".")
    lines.append(f"Totals: {totals_text(event.get('totals'), seat, names)}.")
    return lines


MAIL = MailLanguage(
    parse=parse_command,
    format=format_command,
    summary=SUMMARY,
    notation=NOTATION,
    view_lines=view_lines,
    unordered={"play": "cards", "give_tribute": "cards"},  # a set of cards, in any order (BH-20)
    result_lines=deal_result_lines,
)
