"""The replay page's data: one step of a game that is over, drawn with the game's own board.

The board of a step is the game's presenter applied to the viewer's view of the replayed state: a
seat's ``engine.view`` (what that seat saw then) or, face up, the spectator's view with every card
put in (``face_up_view``). A replay offers no forms: the view's decision is taken out before the
board is drawn, and the seat's open decision is told in words.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from baogame import wording
from baogame.rules.registry import get_engine

from ..clock.deadlines import SIMULTANEOUS_TIMINGS
from ..replay import ReplayStep, StepMove
from ..selectors import public_owner_seats
from . import face_up_cards, face_up_view, present
from .common import describe_decision, describe_event, name_seats
from .table import decision_name


def replay_board(
    *, engine: str, at: ReplayStep, seat: int | None, names: list[str], mine: bool = False
) -> dict[str, Any]:
    """Everything the replay page draws for step ``at.step``; ``seat`` None: every card face up.

    ``mine``: the viewer played ``seat``, so the board may call it "you".
    """
    eng = get_engine(engine)
    if seat is None:
        referee = eng.referee_view(at.state)
        view = face_up_view(engine=engine, spectator=eng.view(at.state, None), referee=referee)
        face_up = face_up_cards(engine=engine, referee=referee, names=names)
    else:
        view, face_up = eng.view(at.state, seat), {}
    decision = view.get("decision")
    view = {**view, "decision": None}  # a replay offers no forms
    seen = [e for move in at.moves[: at.step] for e in move.events]
    board = present(engine=engine, view=view, seat=seat, names=names, events=seen)
    board["guess_seats"] = []  # Bao Huang's partner guess is a form of its own
    if not mine:
        _not_you(board)
    return {
        "board": board,
        "face_up": face_up,
        "decision_text": describe_decision(engine, decision) if decision else "",
        "waiting": _waiting(eng.pending(at.state), seat, names, phase=at.state.get("phase")),
    }


def _not_you(board: dict[str, Any]) -> None:
    """Another player's seat is drawn by name, never as "you"."""
    last_round = board.get("last_round") or {}
    for row in [*board.get("seats", []), *board.get("scores", []), *last_round.get("rows", [])]:
        row["is_me"] = False


def _waiting(
    pending: list[dict[str, Any]], seat: int | None, names: list[str], *, phase: str | None
) -> list[str]:
    """Who had to decide what at this step, the decision named as the game page names it; of a
    simultaneous decision a seat knew only its own part."""
    out = []
    for d in pending:
        owners = (
            d["seats"]
            if seat is None
            else public_owner_seats(timing=d["timing"], seats=d["seats"], viewer=seat)
        )
        what = decision_name(str(d["kind"]), phase, simultaneous=d["timing"] in SIMULTANEOUS_TIMINGS)
        who = wording.listed(names[s] for s in owners)
        out.append(_("%(players)s: %(decision)s") % {"players": who, "decision": what} if owners else what)
    return out


def step_rows(*, engine: str, at: ReplayStep, seat: int | None, names: list[str]) -> list[dict[str, Any]]:
    """Every move of the log as a row of the step list: its number, who moved and what the viewer saw."""
    return [
        {
            "step": move.step,
            "number": move.number,  # the history's line number, the same for everyone; None: hidden
            "current": move.step == at.step,
            "who": None if move.seat is None else names[move.seat],
            "by_timeout": move.by_timeout,
            "by_bot": move.by_bot,
            "text": move_text(engine=engine, move=move, seat=seat, names=names),
        }
        for move in at.moves
    ]


def move_text(*, engine: str, move: StepMove, seat: int | None, names: list[str]) -> SafeString:
    """The move's events as sentences naming the players.

    Face up, an event only some seats saw is marked with who saw it; as a seat, the events that seat
    saw, or a note that it was not told of the move. A move without events is named by its action
    where the viewer may know it (face up, or the seat's own move).
    """
    if move.seat is None:
        return format_html('<span class="muted">{}</span>', _("A move this seat was not told of."))
    if not move.events and move.action is not None:  # a pass that left a plucking window open
        kind = str(move.action.get("type", "move"))
        word = pgettext("button", "Pass") if kind == "pass" else kind.replace("_", " ").capitalize()
        return format_html("<em>{}</em>{}", word, pgettext("end of sentence", "."))
    if not move.events:
        return format_html('<span class="muted">{}</span>', _("Nothing this seat could see."))
    face_up = seat is None
    return format_html_join(
        " ",
        "{}{}",
        ((_private_to(e, seat, names), _sentence(engine, e, names, face_up=face_up)) for e in move.events),
    )


def _sentence(engine: str, event: dict[str, Any], names: list[str], *, face_up: bool) -> SafeString:
    """Face up, a private event reads in the third person ("Heron drew …"), not as it was told to its
    own seat ("You drew …"): the reader is not that seat."""
    return name_seats(describe_event(engine, event, face_up=face_up), names)


def _private_to(event: dict[str, Any], seat: int | None, names: list[str]) -> SafeString:
    """``[Only Heron saw:]`` before a private event, in the face-up replay."""
    to = event.get("visible_to", "all")
    if seat is not None or to == "all":
        return mark_safe("")
    if not to:
        return format_html('<span class="private">{}</span> ', _("Nobody saw:"))
    who = wording.listed(names[s] for s in to)
    return format_html('<span class="private">{}</span> ', _("Only %(players)s saw:") % {"players": who})
