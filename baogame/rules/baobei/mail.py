"""Bao Bei by mail (BB-22): the command language and the text lines of a seat's view.

``parse_command`` turns a command line into a wire-format action (without ``decision_id``);
``format_command`` is its inverse. ``view_lines`` describes what ``view(state, seat)`` shows, so it
never says more than the seat may know (BB-20.9).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ..mail import Action, CommandError, MailLanguage, count, number, seat_name, totals_text
from .cards import CARDS

SUMMARY: tuple[tuple[str, str], ...] = (
    ("peek 2 3", "setup: look at your slots 2 and 3"),
    ("draw", "draw from the pile"),
    ("take 3", "take the discard into your slot 3"),
    ("keep 2 / discard", "keep the drawn card in slot 2 / discard it"),
    ("pluck 1.2 gift 4", "pluck seat 1 slot 2, giving your slot 4 (own target: no gift)"),
    ("double 0.1 2.3 gift - 4", "double pluck; '-' = no gift for an own target"),
    ("pass", "pass a plucking window"),
    ("peek 2.0 / reveal 2.0", "White / Brown Pelican on seat 2 slot 0"),
    ("swap 0.1 2.0 / macaw 1.2 3.0", "Cuckoo blind swap / Macaw look"),
    ("toco 2 / shoebill / decline", "Toco on seat 2 / use the Shoebill / decline the ability"),
    ("swap yes / swap no", "after the Macaw look"),
    ("place mine 0 2 theirs 1 0.1", "Shoebill: card 0 to your slot 2, card 1 to seat 0 slot 1"),
    ("end / bao", "end your turn / call BAO"),
    ("… commit", "add 'commit' to end your turn automatically afterwards"),
)
NOTATION = (
    "Positions are seat.slot (1.2 is seat 1, slot 2); seats and slots count from 0. "
    "Cards are named as on the page, with their value: Magpie (4)."
)

# Seat and slot: ASCII digits only, three at most (see ``mail.number``).
_POS = re.compile(r"^([0-9]{1,3})[./:]([0-9]{1,3})$")


# --- commands ---------------------------------------------------------------------------------------


def _pos(token: str) -> dict[str, int]:
    match = _POS.match(token)
    if match is None:
        raise CommandError("malformed_action", f"a position is seat.slot (like 1.2), not {token!r}")
    return {"seat": int(match[1]), "slot": int(match[2])}


def _gift(token: str) -> int | None:
    return None if token in {"-", "none", "own"} else number(token, "a gift slot")


def _pluck(args: list[str], double: bool) -> Action:
    gifts_at = args.index("gift") if "gift" in args else len(args)
    targets = [_pos(t) for t in args[:gifts_at]]
    gift_tokens = args[gifts_at + 1 :]
    if double and len(targets) != 2:
        raise CommandError("malformed_action", "usage: double S.K S.K [gift G G]")
    if not targets or len(targets) > 2:
        raise CommandError("malformed_action", "usage: pluck S.K [gift G]")
    gifts = [_gift(t) for t in gift_tokens] if gifts_at < len(args) else [None] * len(targets)
    kind = "double" if len(targets) == 2 else "single"
    return {"type": "pluck", "kind": kind, "targets": targets, "gifts": gifts}


def _place(args: list[str]) -> Action:
    action: Action = {"type": "shoebill_place", "mine": None, "theirs": None}
    i = 0
    while i < len(args):
        word = args[i]
        if word in {"mine", "theirs"} and i + 1 < len(args) and args[i + 1] == "-":
            i += 2  # "mine -": explicitly no replacement
        elif word == "mine" and i + 2 < len(args):
            action["mine"] = {"card": number(args[i + 1], "a card"), "slot": number(args[i + 2], "a slot")}
            i += 3
        elif word == "theirs" and i + 2 < len(args):
            action["theirs"] = {"card": number(args[i + 1], "a card"), "target": _pos(args[i + 2])}
            i += 3
        else:
            raise CommandError("malformed_action", "usage: place [mine CARD SLOT] [theirs CARD S.K]")
    return action


def parse_command(line: str) -> Action:
    """The action a command line stands for (BB-22); ``CommandError`` if none."""
    tokens = line.lower().replace(",", " ").split()
    commit = len(tokens) > 1 and tokens[-1] == "commit"
    if commit:
        tokens = tokens[:-1]
    verb, args = tokens[0], tokens[1:]
    action = _action(verb, args)
    if commit:
        if action["type"] == "end_turn":
            raise CommandError("malformed_action", "'commit' goes with an action before the end of your turn")
        action["commit_end_turn"] = True
    return action


def _action(verb: str, args: list[str]) -> Action:  # noqa: C901 - one branch per verb
    simple = {"draw": "draw", "discard": "discard", "pass": "pass", "decline": "decline_ability"}
    if verb in simple:
        count(args, 0, verb)
        return {"type": simple[verb]}
    if verb == "peek" and len(args) == 2:
        return {"type": "choose_peek", "slots": [number(a, "a slot") for a in args]}
    if verb in {"peek", "reveal"}:
        count(args, 1, f"{verb} S.K")
        return {"type": "use_ability", "ability": verb, "target": _pos(args[0])}
    if verb == "keep":
        count(args, 1, "keep SLOT")
        return {"type": "keep", "slot": number(args[0], "a slot")}
    if verb == "take":
        count(args, 1, "take SLOT")
        return {"type": "take_discard", "slot": number(args[0], "a slot")}
    if verb in {"pluck", "double"}:
        return _pluck(args, verb == "double")
    if verb == "swap" and len(args) == 1 and args[0] in {"yes", "no"}:
        return {"type": "macaw_decide", "swap": args[0] == "yes"}
    if verb in {"swap", "macaw"}:
        count(args, 2, f"{verb} S.K S.K")
        ability = "blind_swap" if verb == "swap" else "macaw"
        return {"type": "use_ability", "ability": ability, "targets": [_pos(a) for a in args]}
    if verb == "toco":
        count(args, 1, "toco SEAT")
        return {"type": "use_ability", "ability": "toco", "target_seat": number(args[0], "a seat")}
    if verb == "shoebill":
        count(args, 0, "shoebill")
        return {"type": "use_ability", "ability": "shoebill"}
    if verb == "place":
        return _place(args)
    if verb in {"end", "bao"}:
        count(args, 0, verb)
        return {"type": "end_turn", "bao": verb == "bao"}
    raise CommandError("unknown_command", f"{verb!r} is not a Bao Bei command")


def _p(pos: dict[str, int]) -> str:
    return f"{pos['seat']}.{pos['slot']}"


def format_command(action: Action) -> str:  # noqa: C901 - one branch per type
    """The command line for ``action`` (the inverse of ``parse_command``)."""
    t = action.get("type")
    suffix = " commit" if action.get("commit_end_turn") else ""
    if t == "choose_peek":
        text = "peek " + " ".join(str(s) for s in action["slots"])
    elif t in {"draw", "discard", "pass"}:
        text = str(t)
    elif t == "decline_ability":
        text = "decline"
    elif t == "keep":
        text = f"keep {action['slot']}"
    elif t == "take_discard":
        text = f"take {action['slot']}"
    elif t == "pluck":
        verb = "double" if action["kind"] == "double" else "pluck"
        text = f"{verb} " + " ".join(_p(p) for p in action["targets"])
        if any(g is not None for g in action["gifts"]):
            text += " gift " + " ".join("-" if g is None else str(g) for g in action["gifts"])
    elif t == "use_ability":
        ability = action["ability"]
        if ability in {"peek", "reveal"}:
            text = f"{ability} {_p(action['target'])}"
        elif ability in {"blind_swap", "macaw"}:
            verb = "swap" if ability == "blind_swap" else "macaw"
            text = f"{verb} " + " ".join(_p(p) for p in action["targets"])
        elif ability == "toco":
            text = f"toco {action['target_seat']}"
        else:
            text = "shoebill"
    elif t == "macaw_decide":
        text = "swap yes" if action["swap"] else "swap no"
    elif t == "shoebill_place":
        parts = ["place"]
        if action.get("mine"):
            parts += ["mine", str(action["mine"]["card"]), str(action["mine"]["slot"])]
        if action.get("theirs"):
            parts += ["theirs", str(action["theirs"]["card"]), _p(action["theirs"]["target"])]
        text = " ".join(parts)
    elif t == "end_turn":
        return "bao" if action.get("bao") else "end"
    else:
        return json.dumps(action)
    return text + suffix


# --- the seat's view --------------------------------------------------------------------------------


def card_label(code: str | None) -> str:
    """``Magpie (4)`` for a known card, ``face down`` otherwise (as the game page names it)."""
    if not code or code == "?" or code not in CARDS:
        return "face down"
    return f"{CARDS[code]['name']} ({CARDS[code]['value']})"


def _card(code: Any) -> str:
    """A card as the page names it: ``Magpie (4)``; ``face down`` when unknown, ``—`` for an empty slot."""
    if code is None:
        return "—"
    return card_label(str(code))


def view_lines(view: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    """Every display as this seat knows it, the discard, the pile and the decision."""
    lines = [f"Round {view.get('round')}; running totals: {totals_text(view.get('totals'), seat, names)}."]
    for s in view.get("participants", range(len(view.get("displays", [])))):
        display = view["displays"][s]
        who = "You" if s == seat else (names[s] if s < len(names) else f"Seat {s}")
        slots = "  ".join(f"{k}: {_card(c)}" for k, c in enumerate(display))
        lines.append(f"{who} (seat {s}): {slots or 'no cards'}")
    discard = view.get("discard") or []
    top = _card(discard[-1]) if discard else "—"
    lines.append(f"Discard top: {top}; draw pile: {view.get('draw')} cards.")
    drawn = [_card(c) for c in view.get("drawn") or [] if c != "?"]
    if drawn:
        lines.append(f"You drew: {', '.join(drawn)}.")
    if view.get("bao_caller") is not None:
        shield = " (Shield active)" if view.get("shield_active") else ""
        lines.append(f"{seat_name(names, view['bao_caller'])} called BAO{shield}.")
    return lines


MAIL = MailLanguage(
    parse=parse_command,
    format=format_command,
    summary=SUMMARY,
    notation=NOTATION,
    view_lines=view_lines,
    unordered={"choose_peek": "slots"},  # the two slots of a setup peek
)
