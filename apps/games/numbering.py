"""History line numbers that are the same for every viewer (BB-30.5, BB-30.6).

A game's history shows each viewer the public record and that viewer's own private lines. The
decision, for every place that numbers history lines (the game page, the full history page, the
replay's move list, the game's record, the API's history and move replies, webhooks and references
``#N`` in table talk):

* **A number counts the public moves only.** A public move's number is ``Move.public_seq``: its
  place among the moves everyone may know of, fixed when the move is written and never changed.
  Every seat, a spectator and everyone after the end give the same line the same number, so "see
  #12" in table talk means the same line for all of them.
* **A hidden answer has no number.** An answer to a simultaneous decision that stays open and shows
  nothing to anybody else (``Move.hidden``: a pass or a pluck-less answer in a Bao Bei plucking window,
  a setup peek that is not the last) is shown to its own seat alone, as "your answer", beside the
  public line it follows (``follows``: that line's number, 0 before the first); a pass has no event,
  so it has no line at all, not even for its own seat. It never takes a number, not even when the
  decision closes: what becomes public then (who passed, the peeked slots) is told by the closing
  move, a public move with its own next number, so no earlier number changes.
* Hence no viewer can infer another seat's hidden answer from the numbers: they are 1, 2, 3, …
  whatever anybody answered in secret; a viewer's own answers add no number and leave no gap. (A
  number could be missing from a viewer's list only for a public move with no event that viewer may
  see: a move everybody knows of, since ``Game.public_version`` counts it for everyone.)

The viewer's own count (the API's ``seq`` and ``version``: the public moves plus the viewer's own
hidden answers) stays what it was: a cursor for ``history/?after=`` and for noticing change, not a
number to cite.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def line_number(*, public_seq: int, hidden: bool) -> int | None:
    """The number of a move's history lines, the same for every viewer; None for a hidden answer."""
    return None if hidden else public_seq


#: ``#12`` in table talk: a reference to history line 12 (not inside a word, not ``&#12``).
REFERENCE_RE = re.compile(r"(?<![\w&#])#(?P<number>[1-9][0-9]{0,6})(?![\w])")


def references(text: str) -> list[int]:
    """The history line numbers a table-talk message refers to (``#N``), in order."""
    return [int(m.group("number")) for m in REFERENCE_RE.finditer(text)]


def linked_references(text: str, *, last: int, href: Callable[[int], str]) -> SafeString:
    """``text`` escaped, each ``#N`` with ``1 <= N <= last`` (the game's public moves so far) a link to
    ``href(N)``, line breaks as ``<br>``. A higher number is left as written: it names no line yet."""
    out: list[str] = []
    end = 0
    for match in REFERENCE_RE.finditer(text):
        number = int(match.group("number"))
        if number > last:
            continue
        out.append(escape(text[end : match.start()]))
        out.append(f'<a href="{escape(href(number))}" class="line-ref">#{number}</a>')
        end = match.end()
    out.append(escape(text[end:]))
    return mark_safe("".join(out).replace("\n", "<br>"))
