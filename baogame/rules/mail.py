"""What the games' mail languages share: one command line <-> one wire-format action, and text lines.

Each game writes its own in ``<game>/mail.py`` as a ``MailLanguage``: ``parse`` turns a command line
into an action of the rules files' wire format (BB-22, BH-20) without ``decision_id``, ``format`` is
its inverse (the recipient's legal choices are printed with it), ``summary`` and ``notation`` are the
mail footer's help, ``patterns`` and ``examples`` write a kind of choice too many to list,
``view_lines`` describes a seat's ``view()`` as text, and ``unordered`` says which lists of an action
are sets (the recipient's choices are listed once). Pure Python: the notifications app does the rest
(JSON lines, the decision, sending).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import RuleError
from .i18n import gettext as _

Action = dict[str, Any]
#: A kind of choice's pattern: (pattern, meaning) pairs marked with ``gettext_noop``, or a function of
#: that kind's legal actions giving the pairs in the active language.
Patterns = Sequence[tuple[str, str]] | Callable[[Sequence[Action]], Sequence[tuple[str, str]]]


class CommandError(RuleError):
    """A line that is not a command of the game (codes: ``no_command``, ``unknown_command``,
    ``malformed_action``). Its message is written in the active language (the mail's reader's)."""

    localized = True


@dataclass(frozen=True)
class MailLanguage:
    """One game's mail commands and view lines."""

    #: A command line (stripped, not empty) -> its action; ``CommandError`` if it is none.
    parse: Callable[[str], Action]
    #: An action (without ``decision_id`` and ``timeout``) -> its command line.
    format: Callable[[Action], str]
    #: The commands as (example, meaning) pairs, for the mail footer and the README.
    summary: tuple[tuple[str, str], ...]
    #: How the commands and view lines write positions and cards.
    notation: str
    #: ``(view, seat, names)`` -> the seat's picture of the game as text lines (names: labels by seat).
    view_lines: Callable[[dict[str, Any], int | None, Sequence[str]], list[str]]
    #: Action type -> its field whose order means nothing: two legal actions that differ only in that
    #: order are one choice in a mail's list of choices.
    unordered: Mapping[str, str] = field(default_factory=dict)
    #: ``(round-end event, seat, names)`` -> the round's result as text lines (outcome, scores,
    #: totals); None: the event's one sentence says it all.
    result_lines: Callable[[dict[str, Any], int | None, Sequence[str]], list[str]] | None = None
    #: Action type -> its commands' pattern as (pattern, meaning) pairs, for a kind of choice too many
    #: to list (Bao Bei's plucks, Bao Huang's plays): a mail shows a few of them as examples, then the
    #: pattern. A callable builds the pairs from that type's legal actions (a Bao Huang play that must
    #: beat the top says how many cards); its meanings are translated already, a tuple's are not.
    patterns: Mapping[str, Patterns] = field(default_factory=dict)
    #: Action type -> the examples a mail shows of that type's legal actions (each choice once), when
    #: they are written as a pattern; without one, the longest action of each variant (``kind``).
    examples: Mapping[str, Callable[[Sequence[Action]], list[Action]]] = field(default_factory=dict)
    #: The other language's words for the commands' words (``过`` -> ``pass``): ``words`` reads them.
    aliases: Mapping[str, str] = field(default_factory=dict)
    #: Language code -> (English words, their words) pairs: a command line as that language writes it
    #: (``say``); every pair must read back through ``aliases``.
    spoken: Mapping[str, Sequence[tuple[str, str]]] = field(default_factory=dict)

    def say(self, line: str, language: str | None) -> str:
        """The command ``line`` in ``language``'s words (cards, numbers and JSON unchanged)."""
        pairs = self.spoken.get((language or "").lower())
        if not pairs or line.lstrip().startswith("{"):
            return line
        return say(line, pairs)


def say(line: str, pairs: Sequence[tuple[str, str]]) -> str:
    """``line`` with each English phrase of ``pairs`` (whole words, the longest first) replaced."""
    phrases = sorted(((english.split(), theirs) for english, theirs in pairs), key=lambda p: -len(p[0]))
    tokens, out, i = line.split(), [], 0
    while i < len(tokens):
        for english, theirs in phrases:
            if [t.lower() for t in tokens[i : i + len(english)]] == english:
                out.append(theirs)
                i += len(english)
                break
        else:
            out.append(tokens[i])
            i += 1
    return " ".join(out)


#: Words every game (and the sitting and standing-order commands) reads in Chinese too. Card codes,
#: numbers and positions are written the same in both languages.
COMMON_ALIASES: Mapping[str, str] = {
    "过": "pass",
    "不要": "pass",
    "留": "keep",
    "留下": "keep",
    "是": "yes",
    "好": "yes",
    "否": "no",
    "不": "no",
    "开": "on",
    "关": "off",
}


def aliases_for(spoken: Sequence[tuple[str, str]], synonyms: Mapping[str, str]) -> dict[str, str]:
    """A game's ``MailLanguage.aliases``: the words every game reads, the reading side of its ``spoken``
    pairs (their word -> the English words), then the game's own ``synonyms``."""
    return {**COMMON_ALIASES, **{theirs: english for english, theirs in spoken}, **synonyms}


# A Chinese word written against a card code or a number ("出K K", "看2 3") is two words.
_HAN, _LATIN = r"[\u3400-\u9fff]", r"[0-9A-Za-z*.\-]"
_SCRIPT_CHANGE = re.compile(f"(?<={_HAN})(?={_LATIN})|(?<={_LATIN})(?={_HAN})")
#: Full-width punctuation a Chinese keyboard types, as its ASCII twin (a comma separates cards).
_FULL_WIDTH = str.maketrans({"，": ",", "、": ",", "。": ".", "！": "!", "；": ";", "：": ":", "．": "."})


def normalize(line: str) -> str:
    """``line`` with full-width punctuation as ASCII (what a Chinese keyboard types)."""
    return line.translate(_FULL_WIDTH)


def words(line: str, aliases: Mapping[str, str] = COMMON_ALIASES) -> list[str]:
    """The words of a command line, each Chinese command word as its English one (``过`` -> ``pass``).

    Commas separate words like spaces; a Chinese word glued to a card code or number is split off
    from it. Other words are left as written (the parsers decide about case).
    """
    text = _SCRIPT_CHANGE.sub(" ", normalize(line).replace(",", " "))
    return " ".join(aliases.get(word, aliases.get(word.lower(), word)) for word in text.split()).split()


def help_lines(summary: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """``summary``'s (example, meaning) pairs in the active language (examples are commands too)."""
    return [(_(example), _(meaning)) for example, meaning in summary]


def pattern_lines(pattern: Patterns, actions: Sequence[Action]) -> list[tuple[str, str]]:
    """A kind of choice's pattern as (pattern, meaning) pairs in the active language, for a seat whose
    legal actions are ``actions`` (each choice once)."""
    if callable(pattern):
        return list(pattern(actions))
    return help_lines(pattern)


# ASCII digits only, and few of them: "²" passes str.isdigit but not int(), and int() refuses
# thousands of digits; no seat, slot or card number of either game needs more than three.
_NUMBER = re.compile(r"^[0-9]{1,3}$")


def number(token: str, what: str) -> int:
    """``token`` as a small number; ``CommandError`` naming ``what`` it should be otherwise."""
    if not _NUMBER.match(token):
        raise CommandError(
            "malformed_action",
            _("%(what)s must be a number, not %(token)s") % {"what": what, "token": repr(token[:20])},
        )
    return int(token)


def count(args: list[str], n: int, usage: str) -> None:
    """``CommandError`` showing ``usage`` unless there are exactly ``n`` arguments."""
    if len(args) != n:
        raise CommandError("malformed_action", _("usage: %(usage)s") % {"usage": usage})


def plain(value: Any) -> str:
    """A value of a view or an event as text: lists in brackets, ``—`` for nothing."""
    if isinstance(value, list):
        return "[" + ", ".join(plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {plain(v)}" for k, v in value.items()) + "}"
    return "—" if value is None else str(value)


def totals_text(totals: Any, seat: int | None, names: Sequence[str]) -> str:
    """The running totals by player, as the scores table shows them: ``you 12, Kestrel (bot) 30``
    (``you`` for the mail's reader, within the sentence that holds the list; ``Seat 2`` past the names
    given). Anything but a list of totals is shown as ``plain`` shows it."""
    if not isinstance(totals, list):
        return plain(totals)
    return ", ".join(f"{player_name(names, s, seat)} {plain(total)}" for s, total in enumerate(totals))


def player_name(names: Sequence[str], seat: int, reader: int | None = None, *, starts: bool = False) -> str:
    """A player as a mail names them: the mail's reader ``you`` (``You`` where the name ``starts`` a
    sentence or line: in a list, as in "Totals: ann 3, you 5", it does not), the others their label,
    else ``Seat 2``."""
    if seat == reader:
        return _("You") if starts else _("you")
    return names[seat] if 0 <= seat < len(names) else _("Seat %(seat)s") % {"seat": seat}


def seat_name(names: Sequence[str], seat: int) -> str:
    """A player's label with their seat number (the mail's commands use seat numbers)."""
    if 0 <= seat < len(names):
        return _("%(name)s (seat %(seat)s)") % {"name": names[seat], "seat": seat}
    return _("Seat %(seat)s") % {"seat": seat}
