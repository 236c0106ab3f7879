"""Bao Huang by mail (BH-20): the command language.

``parse_command`` turns a command line into a wire-format action; ``format_command`` is its
inverse. ``MAIL`` adds the text lines of a seat's view and of a deal's result (``viewtext``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..i18n import gettext as _
from ..i18n import gettext_noop, ngettext
from ..mail import Action, CommandError, MailLanguage, aliases_for, count, number, words
from .cards import CODES
from .viewtext import deal_result_lines, view_lines

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


# --- a turn's plays, too many to list (BH-10, BH-11, BH-22) -----------------------------------------

JOKERS = frozenset(CODES[10:])
#: How many examples of a play a mail shows at most.
PLAY_EXAMPLES = 3
#: A play of more cards than this is written ``play C … C`` in its pattern.
SPELLED_OUT = 6


def play_pattern(actions: Sequence[Action]) -> list[tuple[str, str]]:
    """The pattern of a play command, for the seat whose legal actions are ``actions`` (each choice
    once), in the active language: at the lead any combination of the hand (BH-10, BH-12.3), else as
    many cards as the top, each higher (BH-11; passing is legal exactly when there is a top)."""
    sizes = {len(a["cards"]) for a in actions if a.get("type") == "play"}
    nobeat = _("the same, asking the others not to beat it")
    if any(a.get("type") == "pass" for a in actions) and len(sizes) == 1:
        n = sizes.pop()
        cards = " ".join(["C"] * n) if n <= SPELLED_OUT else "C … C"
        meaning = ngettext(
            "C: a card of your hand higher than the card to beat",
            "%(count)s cards of your hand (C: a card): one rank with any jokers added, or jokers alone. "
            "Sort them and the cards to beat from low to high: each of yours must be higher than the "
            "one in the same place",
            n,
        ) % {"count": n}
        return [(f"play {cards}", meaning), (f"play {cards} nobeat", nobeat)]
    meaning = _(
        "the cards of your hand to play (C: a card), in any order: one card, or several of one rank "
        "(6 … 10, J, Q, K, A, 2) with any jokers added (BJ, RJ, BJ*, RJ*), or jokers alone"
    )
    return [("play C C …", meaning), ("play C C … nobeat", nobeat)]


def play_examples(plays: Sequence[Action]) -> list[Action]:
    """A few of ``plays`` (legal plays of the seat's own hand, each once) that show what a play may be:
    the fewest cards, the most cards of one rank, one rank with an unmarked joker, and the last (the
    highest); each without a marked joker where one can; at most ``PLAY_EXAMPLES``."""
    if not plays:
        return []

    def jokers(action: Action) -> int:
        return sum(card in JOKERS for card in action["cards"])

    def marked(action: Action) -> int:  # BJ* reveals the partner (BH-14): shown only when it must be
        return sum(card.endswith("*") for card in action["cards"])

    mixed = [a for a in plays if 0 < jokers(a) < len(a["cards"]) and not marked(a)]
    picks = [
        min(plays, key=lambda a: (len(a["cards"]), marked(a))),
        max(plays, key=lambda a: (len(a["cards"]) - jokers(a), -jokers(a), -marked(a))),
        min(mixed, key=lambda a: len(a["cards"]), default=None),
        next((a for a in reversed(plays) if not marked(a)), plays[-1]),
    ]
    out: list[Action] = []
    for pick in picks:
        if pick is not None and pick not in out:
            out.append(pick)
    return out[:PLAY_EXAMPLES]


MAIL = MailLanguage(
    parse=parse_command,
    format=format_command,
    unordered={"play": "cards", "give_tribute": "cards"},  # a set of cards, in any order (BH-20)
    view_lines=view_lines,
    result_lines=deal_result_lines,
    summary=SUMMARY,
    patterns={"play": play_pattern},
    examples={"play": play_examples},
    notation=NOTATION,
    aliases=ALIASES,
    spoken={"zh-hans": SPOKEN_ZH},
)
