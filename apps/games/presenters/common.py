"""Helpers shared by the presenters: action buttons, history sentences with players' names."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from apps.games.sentences import localize
from baogame import jsonlimits
from baogame.rules.registry import ENGINES
from baogame.rules.text import COMMA, join

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class BoardInput:
    """What a presenter draws a board from: only what the seat may know (see ``presenters.present``)."""

    view: dict[str, Any]
    seat: int | None
    names: list[str]
    legal: list[dict[str, Any]] | None
    events: list[dict[str, Any]]
    committed: bool
    #: The fields of the seat's own form that the engine has just refused (``posted_choices``), to show
    #: its choices again; empty otherwise. The seat's own input only, never more of the game.
    posted: dict[str, list[str]] | None = None


#: A refused form's fields that are not choices: the form's token and key, a button's JSON action.
NOT_CHOICES = {"csrfmiddlewaretoken", "idempotency_key", "action"}


def posted_choices(data: Any) -> dict[str, list[str]]:
    """The choices of a posted action form (``QueryDict``), to select them again when it is refused.

    Bounded (a few short values per field) since a page's session keeps them until the next look. A
    button posts its decision inside its JSON action: that ``decision_id`` is kept as a form's is.
    """
    choices = {
        name: [str(value)[:40] for value in data.getlist(name)[:12]]
        for name in list(data)[:20]
        if name not in NOT_CHOICES
    }
    try:
        button_decision = jsonlimits.loads(data.get("action") or "{}").get("decision_id")
    except (ValueError, AttributeError):
        button_decision = None
    if isinstance(button_decision, str) and "decision_id" not in choices:
        choices["decision_id"] = [button_decision[:40]]
    return choices


#: ``Seat 3`` / ``seat 3`` (with a following ``slot``) or ``seats [0, 2]`` in an engine's sentence, and
#: ``座位3`` / ``座位[0, 2]`` in its Chinese translation: engines know seat numbers, not names.
SEAT_RE = re.compile(
    r"\b[Ss]eats \[(?P<list>\d+(?:, \d+)*)?\]|\b[Ss]eat (?P<seat>\d+)\b(?P<own> slots?\b)?"
    r"|座位\[(?P<zlist>\d+(?:, \d+)*)?\]|座位(?P<zseat>\d+)"
)

log = logging.getLogger(__name__)


def button(label: str, action: dict[str, Any], *, style: str = "") -> dict[str, str]:
    """A submit button that posts a complete wire-format action."""
    return {"label": label, "json": json.dumps(action, separators=(",", ":")), "style": style}


def text_module(engine: str) -> Any | None:
    """The engine's ``text`` module (its sentences for events and decisions), or None."""
    try:
        return import_module(f"{ENGINES[engine]}.text")
    except (ImportError, KeyError):
        return None


def engine_sentence(engine: str, event: dict[str, Any], *, face_up: bool = False) -> str | None:
    """The game's own sentence for an event (``text.describe_event``); None when it has none or fails
    (a describer gap must not break a page or a mail: the callers then write a plain fallback).
    ``face_up``: for a reader who is not the seat a private event was shown to (the face-up replay)."""
    module = text_module(engine)
    if module is None or not hasattr(module, "describe_event"):
        return None
    try:
        if hasattr(module, "event_text"):  # a translatable sentence (``baogame.rules.text``)
            if face_up:
                return localize(module.event_text(event, face_up=True))
            return localize(module.event_text(event))
        return str(module.describe_event(event))
    except Exception:  # noqa: BLE001 - see the docstring
        log.warning("describe_event failed for %s event %s", engine, event.get("type"))
        return None


def describe_event(engine: str, event: dict[str, Any], *, face_up: bool = False) -> str:
    """One sentence for an event the viewer may see (the game's ``text.describe_event``; ``face_up``:
    ``engine_sentence``'s)."""
    sentence = engine_sentence(engine, event, face_up=face_up)
    if sentence is not None:
        return sentence
    fields = ", ".join(
        f"{k} {v}" for k, v in event.items() if k not in {"type", "visible_to", "private"} and v is not None
    )
    return (
        f"{str(event.get('type', 'event')).replace('_', ' ').capitalize()}{': ' + fields if fields else ''}."
    )


def describe_decision(engine: str, decision: dict[str, Any]) -> str:
    """One sentence for an open decision (the game's ``text.describe_decision``)."""
    module = text_module(engine)
    if module is not None and hasattr(module, "describe_decision"):
        try:
            if hasattr(module, "decision_text"):  # a translatable sentence (``baogame.rules.text``)
                sentence = localize(module.decision_text(decision))
            else:
                sentence = str(module.describe_decision(decision))
        except (KeyError, TypeError, ValueError, IndexError):
            pass
        else:
            return sentence[:1].upper() + sentence[1:]  # prompts start with a capital letter
    return f"Decide: {str(decision.get('kind', '')).replace('_', ' ')}."


def _seat_html(seat: int, names: Sequence[str]) -> SafeString:
    """A player's name with the seat number in its title; in brackets too when names repeat (bots)."""
    name = names[seat]
    repeated = list(names).count(name) > 1
    shown = gettext("%(name)s (seat %(seat)s)") % {"name": name, "seat": seat} if repeated else name
    title = gettext("seat %(n)s") % {"n": seat}
    return format_html('<span class="seat-name" data-seat="{}" title="{}">{}</span>', seat, title, shown)


def _seat_list_html(seats: list[int], names: Sequence[str]) -> SafeString:
    """``ann, bob and cy``; ``nobody`` for an empty list."""
    parts = [_seat_html(s, names) for s in seats]
    if not parts:
        return mark_safe(escape(gettext("nobody")))
    if len(parts) == 1:
        return parts[0]
    # the translated patterns of "a, b and c" hold only the (escaped) names
    return mark_safe(localize(join([join(parts[:-1], COMMA), parts[-1]])))


def name_seats(text: str, names: Sequence[str]) -> SafeString:
    """``text`` (escaped) with every ``Seat N`` / ``seats [N, M]`` of an existing seat replaced by names.

    ``names[N]`` is seat N's label. ``seat N slot K`` becomes ``<name>'s slot K``. Numbers of seats that
    do not exist are left as they are, and so is everything else in the sentence.
    """

    def named(match: re.Match[str]) -> str:
        seat = match.group("seat") or match.group("zseat")
        if seat is None:
            seats = [int(n) for n in (match.group("list") or match.group("zlist") or "").split(", ") if n]
            return _seat_list_html(seats, names)
        own = match.group("own")
        return _seat_html(int(seat), names) + (f"'s{own}" if own else "")

    out: list[str] = []
    last = 0
    for match in SEAT_RE.finditer(text):
        seat = match.group("seat") or match.group("zseat")
        numbers = [seat] if seat else (match.group("list") or match.group("zlist") or "").split(", ")
        if any(n and int(n) >= len(names) for n in numbers):
            continue  # not a seat of this game: left as written
        out.append(escape(text[last : match.start()]))
        out.append(named(match))
        last = match.end()
    out.append(escape(text[last:]))
    return mark_safe("".join(out))


def history_rows(*, engine: str, history: list[dict[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """History entries (``selectors.game_history``) as page rows, their sentences naming the players.

    ``anchor``: the first row of its number, which the full history page makes the target of table
    talk's ``#N`` (``numbering.linked_references``)."""
    first: set[int] = set()
    told = _told_privately(history)
    rows = [
        {
            "seq": h["seq"],
            "number": h.get("number"),  # the same for every viewer; None: the viewer's own hidden answer
            "follows": h.get("follows"),
            "at": h["at"],
            "text": name_seats(describe_event(engine, h["event"]), names),
            "by_timeout": h["by_timeout"],
            "new": h.get("new", False),  # since the viewer's last look (``game_looks``)
            "anchor": False,
        }
        for h in history
        if not _public_twin(h, told)
    ]
    for row in rows:
        if row["number"] is not None and row["number"] not in first:
            first.add(row["number"])
            row["anchor"] = True
    return rows


def _event_key(h: dict[str, Any]) -> tuple[Any, Any, Any]:
    return h.get("number"), h["event"].get("type"), h["event"].get("seat")


def _told_privately(history: list[dict[str, Any]]) -> set[tuple[Any, Any, Any]]:
    """(line number, type, seat) of each private event the viewer was shown ("You drew a Magpie.")."""
    return {_event_key(h) for h in history if h["event"].get("private") and h.get("number") is not None}


def _public_twin(h: dict[str, Any], told: set[tuple[Any, Any, Any]]) -> bool:
    """Whether ``h`` is the public side of an event its viewer was also told privately on the same line
    ("demo drew a card." beside "You drew a Magpie."): the page shows the viewer's own sentence only."""
    return not h["event"].get("private") and _event_key(h) in told


def score_rows(view: dict[str, Any], seat: int | None, names: Sequence[str], n: int) -> list[dict[str, Any]]:
    """The score table of a game's view: each seat's name, totals, this round's score, the winners."""
    round_scores = view.get("round_scores")
    return [
        {
            "name": names[s],
            "is_me": s == seat,
            "total": view["totals"][s],
            "round_score": None if round_scores is None else round_scores[s],
            "winner": s in view["winners"],
        }
        for s in range(n)
    ]


def length_field(label: StrOrPromise, help_text: StrOrPromise) -> forms.IntegerField:
    """A create form field for one value of a custom length (a threshold, a target score, a deal
    limit): a whole number from 1, or empty for what the rules set."""
    return forms.IntegerField(min_value=1, required=False, label=label, help_text=help_text)
