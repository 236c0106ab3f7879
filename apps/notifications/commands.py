"""The play-by-email command language: one line of text <-> one wire-format action.

``parse_command`` turns the first meaningful line of a reply into an action of the rules files'
wire format (BB-22, BH-20) without ``decision_id`` (the service fills it in); ``format_command`` is
its inverse, used to print the recipient's legal choices as examples. Any game also accepts the
action itself as a JSON object on one line, and engines without a grammar take
``<type> key=value …``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from baogame import jsonlimits
from baogame.rules.core import RuleError

Action = dict[str, Any]

#: Shown in every notification's footer (and the README).
SUMMARY: dict[str, list[tuple[str, str]]] = {
    "baobei": [
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
    ],
    "baohuang": [
        ("play K K BJ", "play these cards (add 'nobeat' to ask the others not to beat)"),
        ("pass", "pass"),
        ("tribute 2 A", "give these cards as tribute"),
        ("keep / pass emperor", "keep the marked red joker / pass it on"),
        ("alone", "declare to play alone"),
        ("pledge support / pledge oppose", "pledge for or against the emperor"),
        ("nodeclare", "make no declaration"),
        ("guess 3", "guess that seat 3 is the partner"),
    ],
}
#: How each game's commands and views write positions and cards (the mail footer says it).
NOTATION: dict[str, str] = {
    "baobei": (
        "Positions are seat.slot (1.2 is seat 1, slot 2); seats and slots count from 0. "
        "Cards are named as on the page, with their value: Magpie (4)."
    ),
    "baohuang": (
        "Cards are written as on the page: 6-10, J, Q, K, A, 2, BJ / RJ (black / red joker) and "
        "BJ* / RJ* (the marked jokers); a command lists the cards it plays, in any order. "
        "Seats count from 0."
    ),
}
GENERIC_NOTATION = "Commands are the game's actions in its wire format."
GENERIC_SUMMARY = [("<type> key=value …", "the action's wire format, e.g. 'play card=3'")]


class CommandError(RuleError):
    """A line that is not a command of the game (codes: ``no_command``, ``unknown_command``,
    ``malformed_action``)."""


def notation(engine: str) -> str:
    """How ``engine``'s commands write positions and cards."""
    return NOTATION.get(engine, GENERIC_NOTATION)


def summary(engine: str) -> list[tuple[str, str]]:
    """The command language of ``engine`` as (example, meaning) pairs."""
    return SUMMARY.get(engine, GENERIC_SUMMARY) + [('{"type": …}', "any action as a JSON object")]


def parse_command(*, engine: str, text: str) -> Action:
    """The action a command line stands for (without ``decision_id``); ``CommandError`` if none."""
    line = text.strip().rstrip(".!;,").strip()
    if not line:
        raise CommandError("no_command", "no command found in the first line of your reply")
    if line.startswith("{"):
        try:
            action = jsonlimits.loads(line)
        except ValueError:  # not JSON, or nested too deep
            raise CommandError("malformed_action", "that JSON action does not parse") from None
        if not isinstance(action, dict):
            raise CommandError("malformed_action", "an action is a JSON object")
        return action
    parser = PARSERS.get(engine, _parse_generic)
    return parser(line)


def format_command(*, engine: str, action: Action) -> str:
    """The command line for ``action`` (the inverse of ``parse_command``)."""
    formatter = FORMATTERS.get(engine, _format_generic)
    return formatter({k: v for k, v in action.items() if k not in {"decision_id", "timeout"}})


# --- Bao Bei (BB-22) -------------------------------------------------------------------------------

# ASCII digits only, and few of them: "²" passes str.isdigit but not int(), and int() refuses
# thousands of digits; no seat, slot or card number of either game needs more than three.
_POS = re.compile(r"^([0-9]{1,3})[./:]([0-9]{1,3})$")
_NUMBER = re.compile(r"^[0-9]{1,3}$")


def _int(token: str, what: str) -> int:
    if not _NUMBER.match(token):
        raise CommandError("malformed_action", f"{what} must be a number, not {token[:20]!r}")
    return int(token)


def _pos(token: str) -> dict[str, int]:
    match = _POS.match(token)
    if match is None:
        raise CommandError("malformed_action", f"a position is seat.slot (like 1.2), not {token!r}")
    return {"seat": int(match[1]), "slot": int(match[2])}


def _gift(token: str) -> int | None:
    return None if token in {"-", "none", "own"} else _int(token, "a gift slot")


def _count(args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        raise CommandError("malformed_action", f"usage: {usage}")


def _bb_pluck(args: list[str], double: bool) -> Action:
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


def _bb_place(args: list[str]) -> Action:
    action: Action = {"type": "shoebill_place", "mine": None, "theirs": None}
    i = 0
    while i < len(args):
        word = args[i]
        if word in {"mine", "theirs"} and i + 1 < len(args) and args[i + 1] == "-":
            i += 2  # "mine -": explicitly no replacement
        elif word == "mine" and i + 2 < len(args):
            action["mine"] = {"card": _int(args[i + 1], "a card"), "slot": _int(args[i + 2], "a slot")}
            i += 3
        elif word == "theirs" and i + 2 < len(args):
            action["theirs"] = {"card": _int(args[i + 1], "a card"), "target": _pos(args[i + 2])}
            i += 3
        else:
            raise CommandError("malformed_action", "usage: place [mine CARD SLOT] [theirs CARD S.K]")
    return action


def _parse_baobei(line: str) -> Action:
    tokens = line.lower().replace(",", " ").split()
    commit = len(tokens) > 1 and tokens[-1] == "commit"
    if commit:
        tokens = tokens[:-1]
    verb, args = tokens[0], tokens[1:]
    action = _baobei_action(verb, args)
    if commit:
        if action["type"] == "end_turn":
            raise CommandError("malformed_action", "'commit' goes with an action before the end of your turn")
        action["commit_end_turn"] = True
    return action


def _baobei_action(verb: str, args: list[str]) -> Action:  # noqa: C901 - one branch per verb
    simple = {"draw": "draw", "discard": "discard", "pass": "pass", "decline": "decline_ability"}
    if verb in simple:
        _count(args, 0, verb)
        return {"type": simple[verb]}
    if verb == "peek" and len(args) == 2:
        return {"type": "choose_peek", "slots": [_int(a, "a slot") for a in args]}
    if verb in {"peek", "reveal"}:
        _count(args, 1, f"{verb} S.K")
        return {"type": "use_ability", "ability": verb, "target": _pos(args[0])}
    if verb == "keep":
        _count(args, 1, "keep SLOT")
        return {"type": "keep", "slot": _int(args[0], "a slot")}
    if verb == "take":
        _count(args, 1, "take SLOT")
        return {"type": "take_discard", "slot": _int(args[0], "a slot")}
    if verb in {"pluck", "double"}:
        return _bb_pluck(args, verb == "double")
    if verb == "swap" and len(args) == 1 and args[0] in {"yes", "no"}:
        return {"type": "macaw_decide", "swap": args[0] == "yes"}
    if verb in {"swap", "macaw"}:
        _count(args, 2, f"{verb} S.K S.K")
        ability = "blind_swap" if verb == "swap" else "macaw"
        return {"type": "use_ability", "ability": ability, "targets": [_pos(a) for a in args]}
    if verb == "toco":
        _count(args, 1, "toco SEAT")
        return {"type": "use_ability", "ability": "toco", "target_seat": _int(args[0], "a seat")}
    if verb == "shoebill":
        _count(args, 0, "shoebill")
        return {"type": "use_ability", "ability": "shoebill"}
    if verb == "place":
        return _bb_place(args)
    if verb in {"end", "bao"}:
        _count(args, 0, verb)
        return {"type": "end_turn", "bao": verb == "bao"}
    raise CommandError("unknown_command", f"{verb!r} is not a Bao Bei command")


def _p(pos: dict[str, int]) -> str:
    return f"{pos['seat']}.{pos['slot']}"


def _format_baobei(action: Action) -> str:  # noqa: C901 - one branch per type
    t = action.get("type")
    suffix = " commit" if action.get("commit_end_turn") else ""
    if t == "choose_peek":
        text = "peek " + " ".join(str(s) for s in action["slots"])
    elif t in {"draw", "discard", "pass"}:
        text = t
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


# --- Bao Huang (BH-20) ------------------------------------------------------------------------------

_BH_CODES = {"BJ*", "RJ*", "BJ", "RJ", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6"}


def _cards(args: list[str]) -> list[str]:
    # Unknown codes pass through upper-cased: the engine answers invalid_card, as on the web.
    return [a.upper() for a in args]


def _parse_baohuang(line: str) -> Action:  # noqa: C901 - one branch per verb
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
        _count(args, 0, "alone")
        return {"type": "declare_alone"}
    if verb == "pledge":
        if lowered not in (["support"], ["oppose"]):
            raise CommandError("malformed_action", "usage: pledge support  or  pledge oppose")
        return {"type": "pledge", "side": lowered[0]}
    if verb in {"nodeclare", "none"} or (verb == "no" and lowered in (["declaration"], ["declare"])):
        return {"type": "no_declaration"}
    if verb == "guess":
        _count(args, 1, "guess SEAT")
        return {"type": "guess_partner", "seat": _int(args[0], "a seat")}
    raise CommandError("unknown_command", f"{verb!r} is not a Bao Huang command")


def _format_baohuang(action: Action) -> str:
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


# --- any other engine: "<type> key=value …" -------------------------------------------------------


def _parse_generic(line: str) -> Action:
    tokens = line.split()
    action: Action = {"type": tokens[0].lower()}
    for token in tokens[1:]:
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise CommandError("malformed_action", f"usage: TYPE key=value …, not {token!r}")
        action[key] = int(value) if re.fullmatch(r"-?[0-9]{1,9}", value) else value
    return action


def _format_generic(action: Action) -> str:
    rest = " ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{action.get('type')} {rest}".strip()


PARSERS: dict[str, Callable[[str], Action]] = {"baobei": _parse_baobei, "baohuang": _parse_baohuang}
FORMATTERS: dict[str, Callable[[Action], str]] = {"baobei": _format_baobei, "baohuang": _format_baohuang}
