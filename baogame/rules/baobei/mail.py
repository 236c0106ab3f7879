"""Bao Bei by mail (BB-22): the command language.

``parse_command`` turns a command line into a wire-format action (without ``decision_id``);
``format_command`` is its inverse. ``MAIL`` adds the text lines of a seat's view (``viewtext``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from ..i18n import gettext as _
from ..i18n import gettext_noop
from ..mail import Action, CommandError, MailLanguage, Patterns, aliases_for, count, number, words
from .viewtext import view_lines

SUMMARY: tuple[tuple[str, str], ...] = (
    (gettext_noop("peek 2 3"), gettext_noop("setup: look at your slots 2 and 3")),
    (gettext_noop("draw"), gettext_noop("draw from the pile")),
    (gettext_noop("take 3"), gettext_noop("take the discard into your slot 3")),
    (gettext_noop("keep 2 / discard"), gettext_noop("keep the drawn card in slot 2 / discard it")),
    (
        gettext_noop("pluck 1.2 gift 4"),
        gettext_noop("pluck seat 1 slot 2, giving your slot 4 (own target: no gift)"),
    ),
    (gettext_noop("double 0.1 2.3 gift - 4"), gettext_noop("double pluck; '-' = no gift for an own target")),
    (gettext_noop("pass"), gettext_noop("pass a plucking window")),
    (gettext_noop("peek 2.0 / reveal 2.0"), gettext_noop("White / Brown Pelican on seat 2 slot 0")),
    (gettext_noop("swap 0.1 2.0 / macaw 1.2 3.0"), gettext_noop("Cuckoo blind swap / Macaw look")),
    (
        gettext_noop("toco 2 / shoebill / decline"),
        gettext_noop("Toco on seat 2 / use the Shoebill / decline the ability"),
    ),
    (gettext_noop("swap yes / swap no"), gettext_noop("after the Macaw look")),
    (
        gettext_noop("place mine 0 2 theirs 1 0.1"),
        gettext_noop("Shoebill: card 0 to your slot 2, card 1 to seat 0 slot 1"),
    ),
    (gettext_noop("end / bao"), gettext_noop("end your turn / call BAO")),
    (gettext_noop("… commit"), gettext_noop("add 'commit' to end your turn automatically afterwards")),
)
#: A plucking window (or a drawn card) allows hundreds of plucks: a mail writes them as patterns.
PATTERNS: dict[str, Patterns] = {
    "pluck": (
        (
            gettext_noop("pluck S.K gift G"),
            gettext_noop(
                "pluck the card at seat S, slot K, giving your slot G for it "
                "(a card of your own display takes no gift: pluck S.K)"
            ),
        ),
        (
            gettext_noop("double S.K S.K gift G G"),
            gettext_noop("pluck two cards at once, a gift for each ('-' for a card of your own display)"),
        ),
    ),
    "shoebill_place": (
        (
            "place mine C K theirs C S.K",  # its words are said in the reader's language
            gettext_noop(
                "drawn card C (0 or 1) replaces your card in slot K, the other replaces the card at "
                "seat S, slot K; leave out a part that is not possible"
            ),
        ),
    ),
}
#: The abilities whose targets a mail may have to write as a pattern (BB-9.7 to BB-9.10).
ABILITY_PATTERNS: dict[str, tuple[str, str]] = {
    "peek": ("peek S.K", gettext_noop("look at the face-down card at seat S, slot K; only you see it")),
    "reveal": ("reveal S.K", gettext_noop("show the face-down card at seat S, slot K to everyone")),
    "blind_swap": (
        "swap S.K S.K",
        gettext_noop("swap two face-down cards of two different seats without looking at them"),
    ),
    "macaw": (
        "macaw S.K S.K",
        gettext_noop("look at two face-down cards of two different seats, then decide whether to swap them"),
    ),
}


def ability_pattern(actions: Sequence[Action]) -> list[tuple[str, str]]:
    """The pattern of the ability the seat may use (its legal ``actions``), in the active language."""
    abilities = {a.get("ability") for a in actions if a.get("type") == "use_ability"}
    return [(cmd, _(meaning)) for ability, (cmd, meaning) in ABILITY_PATTERNS.items() if ability in abilities]


NOTATION = gettext_noop(
    "Positions are seat.slot (1.2 is seat 1, slot 2); seats and slots count from 0. "
    "Cards are named as on the page, with their value: Magpie (4)."
)
#: The Chinese words of the commands (BB-22), as the mails write them; positions and numbers are the
#: same in both languages.
SPOKEN_ZH: tuple[tuple[str, str], ...] = (
    ("peek", "看"),
    ("draw", "摸"),
    ("take", "拿"),
    ("keep", "留"),
    ("discard", "弃"),
    ("pluck", "抓"),
    ("double", "双抓"),
    ("gift", "赠"),
    ("pass", "过"),
    ("reveal", "翻"),
    ("swap", "换"),
    ("macaw", "鹦鹉"),
    ("toco", "巨嘴鸟"),
    ("shoebill", "鲸头鹳"),
    ("decline", "放弃"),
    ("place", "放"),
    ("mine", "我"),
    ("theirs", "他"),
    ("end", "结束"),
    ("bao", "叫宝"),
    ("commit", "并结束"),
    ("yes", "是"),
    ("no", "否"),
)
#: Every Chinese word read: the written ones and common synonyms.
ALIASES = aliases_for(
    SPOKEN_ZH,
    {
        "看牌": "peek",
        "摸牌": "draw",
        "弃牌": "discard",
        "翻牌": "reveal",
        "金刚鹦鹉": "macaw",
        "鞭笞巨嘴鸟": "toco",
        "抢": "pluck",
        "双抢": "double",
        "送": "gift",
        "无": "-",
    },
)

# Seat and slot: ASCII digits only, three at most (see ``mail.number``).
_POS = re.compile(r"^([0-9]{1,3})[./:]([0-9]{1,3})$")


# --- commands ---------------------------------------------------------------------------------------


def _pos(token: str) -> dict[str, int]:
    match = _POS.match(token)
    if match is None:
        raise CommandError(
            "malformed_action",
            _("a position is seat.slot (like 1.2), not %(token)s") % {"token": repr(token)},
        )
    return {"seat": int(match[1]), "slot": int(match[2])}


def _gift(token: str) -> int | None:
    return None if token in {"-", "none", "own"} else number(token, _("a gift slot"))


def _pluck(args: list[str], double: bool) -> Action:
    gifts_at = args.index("gift") if "gift" in args else len(args)
    targets = [_pos(t) for t in args[:gifts_at]]
    gift_tokens = args[gifts_at + 1 :]
    if double and len(targets) != 2:
        raise CommandError("malformed_action", _("usage: %(usage)s") % {"usage": "double S.K S.K [gift G G]"})
    if not targets or len(targets) > 2:
        raise CommandError("malformed_action", _("usage: %(usage)s") % {"usage": "pluck S.K [gift G]"})
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
            card, slot = number(args[i + 1], _("a card")), number(args[i + 2], _("a slot"))
            action["mine"] = {"card": card, "slot": slot}
            i += 3
        elif word == "theirs" and i + 2 < len(args):
            action["theirs"] = {"card": number(args[i + 1], _("a card")), "target": _pos(args[i + 2])}
            i += 3
        else:
            raise CommandError(
                "malformed_action",
                _("usage: %(usage)s") % {"usage": "place [mine CARD SLOT] [theirs CARD S.K]"},
            )
    return action


def parse_command(line: str) -> Action:
    """The action a command line stands for (BB-22); ``CommandError`` if none."""
    tokens = [word.lower() for word in words(line, ALIASES)]
    commit = len(tokens) > 1 and tokens[-1] == "commit"
    if commit:
        tokens = tokens[:-1]
    verb, args = tokens[0], tokens[1:]
    action = _action(verb, args)
    if commit:
        if action["type"] == "end_turn":
            raise CommandError(
                "malformed_action", _("'commit' goes with an action before the end of your turn")
            )
        action["commit_end_turn"] = True
    return action


def _action(verb: str, args: list[str]) -> Action:  # noqa: C901 - one branch per verb
    simple = {"draw": "draw", "discard": "discard", "pass": "pass", "decline": "decline_ability"}
    if verb in simple:
        count(args, 0, verb)
        return {"type": simple[verb]}
    if verb == "peek" and len(args) == 2:
        return {"type": "choose_peek", "slots": [number(a, _("a slot")) for a in args]}
    if verb in {"peek", "reveal"}:
        count(args, 1, f"{verb} S.K")
        return {"type": "use_ability", "ability": verb, "target": _pos(args[0])}
    if verb == "keep":
        count(args, 1, "keep SLOT")
        return {"type": "keep", "slot": number(args[0], _("a slot"))}
    if verb == "take":
        count(args, 1, "take SLOT")
        return {"type": "take_discard", "slot": number(args[0], _("a slot"))}
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
        return {"type": "use_ability", "ability": "toco", "target_seat": number(args[0], _("a seat"))}
    if verb == "shoebill":
        count(args, 0, "shoebill")
        return {"type": "use_ability", "ability": "shoebill"}
    if verb == "place":
        return _place(args)
    if verb in {"end", "bao"}:
        count(args, 0, verb)
        return {"type": "end_turn", "bao": verb == "bao"}
    raise CommandError("unknown_command", _("%(word)s is not a Bao Bei command") % {"word": repr(verb[:20])})


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


MAIL = MailLanguage(
    parse=parse_command,
    format=format_command,
    # the two slots of a setup peek, the two cards a Cuckoo swaps or a Macaw looks at: one choice either way
    unordered={"choose_peek": "slots", "use_ability": "targets"},
    view_lines=view_lines,
    summary=SUMMARY,
    patterns={**PATTERNS, "use_ability": ability_pattern},
    notation=NOTATION,
    aliases=ALIASES,
    spoken={"zh-hans": SPOKEN_ZH},
)
