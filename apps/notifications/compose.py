"""What a mail says: the recipient's view, the events since their last move, their choices.

Everything here is built from ``game_view(game, seat)`` and from events filtered with
``visible(event, seat)``; nothing reads ``game.state`` except through the engine's ``view`` and
``legal_actions`` (whose results depend only on what the seat may know, BB-20.9, BH-22). Event
sentences name the players as the game pages' history does (``presenters.common.name_seats``); the
view's lines are the game's own (``view_lines`` of ``baogame/rules/<game>/viewtext.py``, by ``commands``).
"""

from __future__ import annotations

import html
import json
import logging
import zoneinfo
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import formats, timezone
from django.utils.html import strip_tags
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from apps.accounts.zone_names import active_zone_label
from apps.games import selectors as game_selectors
from apps.games.models import Decision, Game, Move
from apps.games.presenters.common import describe_decision as page_decision_text
from apps.games.presenters.common import engine_sentence, name_seats
from apps.games.presenters.timeleft import time_left_words
from apps.games.selectors import game_view
from baogame.rules.core import visible
from baogame.rules.mail import MailLanguage, pattern_lines, plain
from baogame.rules.registry import get_engine

from . import commands

log = logging.getLogger(__name__)

MAX_EVENTS = 40
MAX_CHOICES = 12
#: A kind of choice with more lines than this (among more than ``MAX_CHOICES``) is written as a pattern.
MAX_EXAMPLES = 3

#: What the recipient must decide, by decision kind (a whole sentence).
DECISION_TEXT = {
    "setup_peek": gettext_lazy("Choose the two cards of your display to look at."),
    "turn_action": gettext_lazy("Start your turn: draw a card or take the discard."),
    "after_draw": gettext_lazy("Place the card you drew: keep it, discard it or pluck with it."),
    "pluck_window": gettext_lazy("A plucking window is open: pluck or pass."),
    "ability": gettext_lazy("Resolve an ability: use it or decline it."),
    "macaw_decide": gettext_lazy("Decide whether to swap the two cards your Macaw looked at."),
    "shoebill_place": gettext_lazy("Place the cards your Shoebill drew."),
    "end_turn": gettext_lazy("End your turn, or call BAO."),
    "tribute": gettext_lazy("Give your tribute."),
    "declare": gettext_lazy("Answer the emperor offer or the declarations."),
    "turn": gettext_lazy("Play or pass."),
    "window": gettext_lazy("Snap or pass."),
}


def describe_event(engine: str, event: dict[str, Any]) -> str:
    """One sentence for an event the recipient may see (the game's ``text.describe_event``)."""
    sentence = engine_sentence(engine, event)
    if sentence is not None:
        return sentence
    fields = {k: v for k, v in event.items() if k not in {"type", "visible_to"}}
    details = ", ".join(f"{k}: {plain(v)}" for k, v in fields.items())
    return f"{str(event.get('type', 'event')).replace('_', ' ')}" + (f" ({details})" if details else "")


def seat_names(game: Game) -> list[str]:
    """Each seat's label by position, as the game pages show it (a display name, a username, a bot)."""
    return [s.label for s in game.seats.select_related("user__profile").order_by("position")]


def name_players(sentence: str, names: Sequence[str]) -> str:
    """``sentence`` with its seat numbers replaced by ``names``, exactly as the game pages' history.

    The pages' ``name_seats`` returns HTML (a span per name, the rest escaped); a mail wants the words,
    so its tags are dropped and its escaping undone (the HTML body escapes the text again).
    """
    return html.unescape(strip_tags(name_seats(sentence, names)))


def describe_event_named(engine: str, event: dict[str, Any], names: Sequence[str]) -> str:
    """One sentence for an event the recipient may see, naming the players (``names``: labels by seat)."""
    return name_players(describe_event(engine, event), names)


#: A Bao Huang turn at the lead, where passing is not allowed (BH-11.1): "Play or pass." would be wrong.
LEAD_TEXT = gettext_lazy("Lead a combination.")


def describe_decision(engine: str, decision: dict[str, Any]) -> str:
    """What the recipient must decide, in one sentence (with the decision's ``allowed`` actions, as its
    own view shows them, a turn that must lead says so)."""
    kind = decision.get("kind", "")
    if kind == "turn" and decision.get("allowed") == ["play"]:
        return str(LEAD_TEXT)
    if kind == "declare" and decision.get("allowed"):
        # Bao Huang's emperor offer (BH-6.2) and declarations (BH-8) are both of kind ``declare``: told
        # apart as the game page tells them, so that a mail for the declarations does not also ask to
        # "answer the emperor offer", a question settled already.
        return page_decision_text(engine, {**decision, "seats": None})
    return str(DECISION_TEXT.get(kind, _("Make a decision.")))


# --- the recipient's view ---------------------------------------------------------------------------


def view_lines(game: Game, seat: int | None) -> list[str]:
    """The recipient's picture of the game, as text lines."""
    view = game_view(game=game, seat=seat)
    if view is None:
        return []
    return commands.language(game.engine).view_lines(view, seat, seat_names(game))


def open_decision(game: Game, seat: int) -> dict[str, Any] | None:
    """The decision ``seat`` owns now, as its own ``view()`` shows it, or None.

    Taken from the view, not from ``pending()``: the engine's pending list names the owners of a
    simultaneous decision who have not answered yet, which a seat may not learn (BB-30.6).
    """
    if game.state is None or game.is_over:
        return None
    engine = get_engine(game.engine)
    if not any(seat in d["seats"] for d in engine.pending(game.state)):
        return None
    return engine.view(game.state, seat).get("decision")


def row_decision(game: Game, row: Decision) -> dict[str, Any]:
    """The decision of ``row``, one of the recipient's own open decisions, as their own ``view()``
    shows it (``open_decision``); only its kind when the view shows another one, or none.

    The one rule by which every text about an open decision (the "Your move" mail and its reminder,
    the list of the others still open, a digest's line, the calendar of deadlines) tells apart two
    questions of one kind, Bao Huang's emperor offer (BH-6.2) and its declarations (BH-8), both
    ``declare``: by what the decision allows (``describe_decision``), which is read from the row's own
    seat's view of its own decision and from nothing else, so nothing private to another seat is used.
    """
    own = open_decision(game, row.seat)
    if own is not None and str(own.get("decision_id")) == str(row.decision_id):
        return own
    return {"kind": row.kind}


def describe_row(game: Game, row: Decision) -> str:
    """What the open decision of ``row`` asks of its seat, in one sentence (``row_decision``)."""
    return describe_decision(game.engine, row_decision(game, row))


def _same_choice(engine: str, action: dict[str, Any]) -> str:
    """A key equal for two actions that are the same choice (the game's order-free fields sorted)."""
    field = commands.language(engine).unordered.get(str(action.get("type")))
    if field and isinstance(action.get(field), list):
        action = {**action, field: sorted(action[field], key=str)}
    return json.dumps(action, sort_keys=True, default=str)


@dataclass(frozen=True)
class Choice:
    """One line of a mail's choices: a ``command`` the reader may type and its ``meaning``, either
    alone; a line without a command is a note (``… and 910 more, written as:``). The HTML mail sets
    only the command as code; ``str`` is the text mail's line."""

    command: str = ""
    meaning: str = ""

    def __str__(self) -> str:
        if self.command and self.meaning:
            return f"{self.command}  -  {self.meaning}"
        return self.command or self.meaning


def choices(game: Game, seat: int) -> list[Choice]:
    """The recipient's legal choices as command lines, each choice once: all of them when they are few
    (``MAX_CHOICES``); else a kind of choice too many to list is shown, where the game writes its
    pattern (Bao Bei's plucks and abilities, Bao Huang's plays), by a few legal examples and the
    pattern with what each part means, and otherwise (an engine without patterns) by a sample."""
    if game.state is None or game.is_over:
        return []
    engine = get_engine(game.engine)
    try:
        actions = engine.legal_actions(game.state, seat)
    except Exception:  # noqa: BLE001 - examples are a convenience
        log.warning("legal_actions failed for game %s seat %s", game.pk, seat)
        return []
    by_type: dict[str, dict[str, dict[str, Any]]] = {}  # type -> command line -> its action
    seen: set[str] = set()
    for action in actions:
        key = _same_choice(game.engine, action)
        if key in seen:
            continue  # the same choice in another order (peek 1 0 is peek 0 1)
        seen.add(key)
        line = commands.format_command(engine=game.engine, action=action)
        by_type.setdefault(str(action.get("type")), {}).setdefault(line, action)
    if sum(len(lines) for lines in by_type.values()) <= MAX_CHOICES:
        return [Choice(line) for lines in by_type.values() for line in lines]
    language = commands.language(game.engine)
    distinct = [action for lines in by_type.values() for action in lines.values()]
    out: list[Choice] = []
    per_type = max(2, MAX_CHOICES // max(1, len(by_type)))
    for action_type, lines in by_type.items():
        pattern = language.patterns.get(action_type)
        if pattern is not None and len(lines) > MAX_EXAMPLES:
            out += _patterned(language, lines, pattern_lines(pattern, distinct), action_type)
        elif len(lines) <= MAX_CHOICES:
            out += [Choice(line) for line in lines]
        else:  # an engine without patterns
            more = _("… and %(count)s more like these") % {"count": len(lines) - per_type}
            out += [*(Choice(line) for line in list(lines)[:per_type]), Choice(meaning=more)]
    return out


def _patterned(
    language: MailLanguage, lines: dict[str, dict[str, Any]], pairs: list[tuple[str, str]], action_type: str
) -> list[Choice]:
    """A kind of choice too many to list: its examples, how many more there are, then its pattern's
    commands (in the reader's command words) with what each part means."""
    examples = _examples(lines, language.examples.get(action_type))
    more = _("… and %(count)s more, written as:") % {"count": len(lines) - len(examples)}
    return [
        *(Choice(line) for line in examples),
        Choice(meaning=more),
        *(Choice(language.say(pattern, get_language()), meaning) for pattern, meaning in pairs),
    ]


def _examples(
    lines: dict[str, dict[str, Any]], pick: Callable[[Sequence[dict[str, Any]]], list[dict[str, Any]]] | None
) -> list[str]:
    """The example lines of a kind of choice written as a pattern: the game's ``pick`` of its actions,
    else, of each variant of the action (a single and a double pluck), the first that spells out every
    part (the longest line), and a second when there is one variant. The examples are legal choices,
    so they name only what the recipient may know (positions they can see, cards of their own hand)."""
    if pick is not None:
        chosen = pick(list(lines.values()))
        return [line for action in chosen for line, a in lines.items() if a is action]
    examples: dict[str, str] = {}
    for line, action in lines.items():
        variant = str(action.get("kind", ""))
        if len(line.split()) > len(examples.get(variant, "").split()):
            examples[variant] = line
    out = list(examples.values())
    last = list(lines)[-1]
    if len(out) == 1 and last not in out:
        out.append(last)
    return out


def _earlier(count: int) -> str:
    return ngettext("… %(count)s earlier event", "… %(count)s earlier events", count) % {"count": count}


def _described(game: Game, moves: Iterable[Move], seat: int) -> list[str]:
    """The events of ``moves`` that ``seat`` may see, described; the oldest beyond ``MAX_EVENTS`` are
    counted in one line instead."""
    names = seat_names(game)
    described = [
        describe_event_named(game.engine, event, names)
        for move in moves
        for event in move.events
        if visible(event, seat)
    ]
    if len(described) > MAX_EVENTS:
        described = [_earlier(len(described) - MAX_EVENTS)] + described[-MAX_EVENTS:]
    return described


def events_since_last_move(game: Game, seat: int) -> list[str]:
    """What changed since the seat's last move: the later events it may see, described."""
    last = game_selectors.last_move_seq(game, seat)
    return _described(game, game_selectors.moves_from(game, (last or 0) + 1), seat)


def events_from(game: Game, seq: int, seat: int) -> list[str]:
    """What happened from move ``seq`` on, in order: that move, then every later one (the bots' and
    the other players' moves), as ``seat`` may see them, described."""
    return _described(game, game_selectors.moves_from(game, seq), seat)


#: Events that end a round (Bao Bei) or a deal (Bao Huang).
ROUND_END_EVENTS = ("round_ended", "deal_ended")
#: How far back a round result mail looks for the round's end.
RESULT_LOOKBACK = 200


def round_result(game: Game, seat: int | None) -> list[str]:
    """The last ended round's (or deal's) result as text lines, from its public event: the outcome,
    the scores and the totals (the game's ``result_lines``, else the event's sentence)."""
    recent = game_selectors.moves_newest_first(game, RESULT_LOOKBACK)
    event = next(
        (
            e
            for move in recent
            for e in reversed(move.events)
            if e.get("type") in ROUND_END_EVENTS and visible(e, seat)
        ),
        None,
    )
    if event is None:
        return []
    names = seat_names(game)
    result_lines = commands.language(game.engine).result_lines
    if result_lines is not None:
        return result_lines(event, seat, names)
    return [describe_event_named(game.engine, event, names)]


def move_events(game: Game, move_id: int | None, seat: int | None) -> list[str]:
    """The events of one move that ``seat`` may see, described."""
    events = game_selectors.move_events(move_id)
    if not events:
        return []
    names = seat_names(game)
    return [describe_event_named(game.engine, e, names) for e in events if visible(e, seat)]


def user_zone(user: AbstractBaseUser) -> zoneinfo.ZoneInfo:
    profile = getattr(user, "profile", None)
    return profile.zone if profile is not None else zoneinfo.ZoneInfo("UTC")


def local_time(moment: datetime | None, user: AbstractBaseUser) -> str:
    """A moment in the user's time zone and the active language's date format, e.g. ``Mon 2 Jun
    2025, 18:00 (France Time)`` in English, ``2025年6月2日 周一 18:00（法国时间）`` in Chinese."""
    if moment is None:
        return _("no deadline")
    zone = user_zone(user)
    local = timezone.localtime(moment, zone)
    # Translators: a date in a mail, in Django's date format (docs: "date" template filter).
    when = formats.date_format(local, _("D j M Y, H:i"))
    # The zone's name in the mail's language (the recipient's, active while the mail is composed).
    return _("%(when)s (%(zone)s)") % {"when": when, "zone": active_zone_label(zone.key)}


def deadline_text(moment: datetime | None, user: AbstractBaseUser, now: datetime | None = None) -> str:
    """A deadline in a mail: the time in the user's zone and how long was left when the mail was
    written, e.g. ``Mon 2 Jun 2025, 18:00 (France Time), 2 days 3 h after this mail was sent``."""
    if moment is None:
        return _("no deadline (the clock is stopped)")
    seconds = (moment - (now or timezone.now())).total_seconds()
    when = local_time(moment, user)
    if int(seconds) <= 0:
        return _("%(when)s, already due") % {"when": when}
    left = time_left_words(seconds)
    return _("%(when)s, %(left)s after this mail was sent") % {"when": when, "left": left}
