"""Bao Bei board data from a seat's view (BB-25.6): displays, piles, BAO, scores, my decision."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from baogame.rules.baobei.viewtext import card_label as card_label  # the page and the mail name cards alike
from baogame.rules.core import RuleError

from .. import rulebook
from ..sentences import bird_name
from .common import BoardInput, button, length_field, score_rows
from .fields import flag_field, int_field, optional_int_field, position_field

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

TEMPLATE = "games/boards/baobei.html"
DECISION_TEMPLATE = "games/boards/baobei_decision.html"
#: The active player may commit the end of the turn with any action (BB-20.7): the board must know
#: whether this turn is already committed.
COMMITS_END_TURN = True
#: How the game page tells anyone to recompute the shuffles from the seed (``revealed``: it is out).
SEED_TEMPLATE = "games/boards/baobei_seed.html"
#: The seat's own settings on the game page: pass every plucking window at once.
SEAT_SETTINGS_TEMPLATE: str | None = "games/boards/baobei_seat_settings.html"
#: The vacation banner's sentence: an away seat also passes every plucking window at once.
AWAY_TEXT: StrOrPromise = gettext_lazy(
    "Your clocks in this game are stopped and you pass its plucking windows; the others see you as away."
)
#: The section of the Bao Bei rules page that explains each decision kind (BB-21).
SECTIONS = {
    "setup_peek": "setup",
    "turn_action": "turn",
    "after_draw": "turn",
    "pluck_window": "plucking",
    "macaw_decide": "ability-macaw",
    "shoebill_place": "ability-shoebill",
    "end_turn": "bao",
}

ABILITY_NAMES = {
    "peek": gettext_lazy("Peek (White Pelican): look secretly at one face-down card"),
    "reveal": gettext_lazy("Reveal (Brown Pelican): show one face-down card to everyone"),
    "blind_swap": gettext_lazy("Blind swap (Cuckoo): swap two face-down cards of two players"),
    "macaw": gettext_lazy("Look and swap (Macaw): look at two cards of two players, then maybe swap"),
    "toco": gettext_lazy("Toco Toucan: add the top draw-pile card to an opponent's display"),
    "shoebill": gettext_lazy("Shoebill: draw two cards and replace one of yours and one opponent's"),
}


def _seat_order(n: int, seat: int | None) -> list[int]:
    """Me first, then the others in turn order; everybody in seat order for a spectator."""
    if seat is None:
        return list(range(n))
    return [(seat + i) % n for i in range(n)]


def _positions(view: dict[str, Any], names: list[str], seats: list[int]) -> list[dict[str, str]]:
    out = []
    for s in seats:
        for k, card in enumerate(view["displays"][s]):
            if card is not None:
                place = {"name": names[s], "slot": k}
                if card == "?":
                    label = _("%(name)s · slot %(slot)s") % place
                else:  # the card's name in the reader's language, as the card faces name it
                    label = _("%(name)s · slot %(slot)s (%(card)s)") % {**place, "card": bird_name(card)}
                out.append({"value": f"{s}.{k}", "label": label})
    return out


def _protected(view: dict[str, Any], seat: int | None, target: int) -> bool:
    """BB-11.6: the caller's display is protected against the others while the Shield is active."""
    return bool(view["shield_active"]) and target == view["bao_caller"] and seat != target


def last_round(*, events: list[dict[str, Any]], seat: int | None, names: list[str]) -> dict[str, Any] | None:
    """The most recent round's reveal (BB-25.7), from its ``round_ended`` event; None before any.

    That event is visible to all and carries every display revealed, the card totals, the scores, the
    BAO outcome and the running totals: public once the round is over, whoever is looking.
    """
    at = next((i for i in range(len(events) - 1, -1, -1) if events[i].get("type") == "round_ended"), None)
    if at is None:
        return None
    ended = events[at]
    displays = ended["displays"]
    bao = ended.get("bao")
    rows = []
    for s in _seat_order(len(displays), seat):
        if ended["scores"][s] is None:  # sat out (a deciding round, BB-15.3)
            continue
        rows.append(
            {
                "position": s,
                "name": names[s],
                "is_me": s == seat,
                "cards": [
                    {"code": code, "pos": f"{s}.{k}"}
                    for k, code in enumerate(displays[s])
                    if code is not None
                ],
                "round_total": ended["round_totals"][s],
                "score": ended["scores"][s],
                "total": ended["totals"][s],
                "bao": bao is not None and bao["caller"] == s,
            }
        )
    return {
        "round": ended["round"],
        "deciding": ended.get("deciding", False),
        "bao": None if bao is None else {"caller": names[bao["caller"]], "success": bao["success"]},
        "annulled_bao": _annulled_bao(ended, events[:at], names) if bao is None else None,
        "rows": rows,
    }


def _annulled_bao(ended: dict[str, Any], round_events: list[dict[str, Any]], names: list[str]) -> str | None:
    """The name of the round's BAO caller when the automatic final phase annulled the call (BB-12.6):
    the round's end then gives no BAO outcome, though BAO was called. None otherwise.

    The ``round_ended`` record names that caller (``bao_annulled``), also when the game began within
    the round after the call (BB-25.3) and no ``bao_called`` is in its log; a record written before
    it did so is read from the round's events."""
    if ended.get("bao_annulled") is not None:
        return names[ended["bao_annulled"]]
    caller, annulled = None, False
    for event in reversed(round_events):
        kind = event.get("type")
        if kind in ("round_started", "round_ended"):
            break
        if kind == "automatic_final_phase":
            annulled = True
        elif kind == "bao_called":
            caller = event["seat"]
    return names[caller] if annulled and caller is not None else None


def face_up_view(*, spectator: dict[str, Any], referee: dict[str, Any]) -> dict[str, Any]:
    """The spectator's view with every display card and the drawn cards face up (a game that is over)."""
    return {**spectator, "displays": referee["displays"], "drawn": referee["drawn"]}


def face_up_cards(*, referee: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """What a face-up replay shows beside the board: the draw pile, top first."""
    return {"draw": list(referee["draw"])}


def final_displays(*, view: dict[str, Any], events: list[dict[str, Any]]) -> list[list[str | None]] | None:
    """Once the game is over, every display face up as the last round ended (BB-14.1); else None.

    The ``round_ended`` event that reveals them is public, so a finished board shows every card.
    """
    if not view["over"]:
        return None
    ended = next((e for e in reversed(events) if e.get("type") == "round_ended"), None)
    if ended is None or len(ended["displays"]) != len(view["displays"]):
        return None
    return [list(d) if d is not None else [] for d in ended["displays"]]


def commit_end_turn_offered(view: dict[str, Any], seat: int | None) -> bool:
    """Whether the forms of ``seat``'s open decision offer "and end my turn without BAO" (BB-20.7).

    The engine accepts ``commit_end_turn`` on every action but ``end_turn`` (BB-20.3) from the active
    player only (BB-22.0 step 6, ``commit_not_allowed``): the turn and the post-turn decisions the
    active player owns (``turn_action``, ``after_draw``, their own ``ability``, ``macaw_decide``,
    ``shoebill_place``), never setup (nobody is active) nor a window (the active player is never
    eligible, BB-6.6 g) nor an ability earned by another seat's pluck. It is offered only while BAO is
    still allowed (BB-10.1): otherwise no ``end_turn`` decision opens at step 4 anyway (BB-5.2) and
    the box would change nothing. Everything here is public (BB-20.9).
    """
    decision = view.get("decision")
    return (
        decision is not None
        and seat is not None
        and seat == view["active"]
        and decision["kind"] != "end_turn"
        and view["bao_caller"] is None
        and view["final_phase"] is None
    )


def wants_legal(decision: dict[str, Any]) -> bool:
    """Never: plucks are combinatorial, so the forms are built from the view and ``apply`` validates."""
    return False


def present(board: BoardInput) -> dict[str, Any]:
    """Template data for a Bao Bei board as ``seat`` sees it; ``events``: those ``seat`` may see.

    ``committed``: ``seat`` has already committed the end of this turn (BB-20.7), which cannot be
    withdrawn (D-36): the forms say so instead of offering the box again.
    """
    view, seat, names, events, committed = board.view, board.seat, board.names, board.events, board.committed
    n = len(view["displays"])
    participants = set(view.get("participants", range(n)))
    touched = {(p["seat"], p["slot"]) for p in view.get("ability_touched", [])}
    final = final_displays(view=view, events=events or [])
    displays = final if final is not None else view["displays"]
    seats = []
    for s in _seat_order(n, seat):
        slots = [
            {
                "pos": f"{s}.{k}",
                "slot": k,
                "empty": card is None,
                "card": None if card in (None, "?") else card,
                "touched": (s, k) in touched,
            }
            for k, card in enumerate(displays[s])
        ]
        seats.append(
            {
                "position": s,
                "name": names[s],
                "is_me": s == seat,
                "active": s == view["active"],
                "participant": s in participants,
                "bao": s == view["bao_caller"],
                "slots": slots,
                "count": sum(1 for c in displays[s] if c is not None),
            }
        )
    scores = score_rows(view, seat, names, n)
    discard = view["discard"]
    return {
        "template": TEMPLATE,
        "decision_template": DECISION_TEMPLATE,
        "seats": seats,
        "discard_top": discard[-1] if discard else None,
        "discard_count": len(discard),
        "discard_recent": discard[-6:-1],
        "under": view["under_discard"],
        "draw": view["draw"],
        "drawn": view["drawn"],
        "round": view["round"],
        "deciding": view.get("deciding", False),
        "recycles": view["recycles"],
        "final_phase": view["final_phase"],
        "bao_caller": None if view["bao_caller"] is None else names[view["bao_caller"]],
        "shield": view["shield_active"],
        "active": None if view["active"] is None else names[view["active"]],
        "threshold": view.get("threshold"),
        "memory_aid": view.get("memory_aid", True),
        "scores": scores,
        "has_round_scores": view.get("round_scores") is not None,
        "over": view["over"],
        "winners": [names[w] for w in view["winners"]],
        "decision": _decision(view, seat, names, committed=committed, posted=board.posted)
        if view.get("decision")
        else None,
        "last_round": last_round(events=events or [], seat=seat, names=names),
    }


def _decision(
    view: dict[str, Any],
    seat: int | None,
    names: list[str],
    *,
    committed: bool = False,
    posted: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """My open decision with the choices the form offers (``apply`` validates the rest)."""
    d = view["decision"]
    assert seat is not None
    did, kind, ctx = d["decision_id"], d["kind"], d["context"]
    n = len(view["displays"])
    mine = view["displays"][seat]
    my_slots = [
        {"value": k, "label": _("slot %(slot)s (%(card)s)") % {"slot": k, "card": card_label(c)}}
        for k, c in enumerate(mine)
        if c is not None
    ]
    others = [s for s in view.get("participants", range(n)) if s != seat]
    unprotected = [s for s in others if not _protected(view, seat, s)]
    offered = commit_end_turn_offered(view, seat)
    out: dict[str, Any] = {
        "kind": kind,
        "decision_id": did,
        "context": ctx,
        "buttons": [],
        "my_slots": my_slots,
        "is_active": seat == view["active"],
        # BB-20.7: every form of this decision carries the box, or says the turn's end is committed.
        "commit_offered": offered and not committed,
        "commit_made": offered and committed,
        "all_positions": _positions(view, names, [seat, *others]),
        "pluck_positions": _positions(view, names, [seat, *unprotected]),
        "opponent_positions": _positions(view, names, unprotected),
    }
    if kind == "setup_peek":
        out["peek_slots"] = list(range(ctx.get("slot_count", len(mine))))
    elif kind == "turn_action":
        if ctx.get("can_draw", True):
            out["buttons"].append(button(_("Draw a card"), {"type": "draw", "decision_id": did}))
        out["can_take"] = ctx.get("can_take", bool(my_slots))
        out["discard_top"] = ctx.get("discard_top")
    elif kind == "after_draw":
        out["drawn"] = ctx.get("drawn")
        out["buttons"].append(button(_("Discard it"), {"type": "discard", "decision_id": did}))
    elif kind == "pluck_window":
        out["reference"] = ctx.get("reference")
        out["buttons"].append(button(pgettext("button", "Pass"), {"type": "pass", "decision_id": did}))
    elif kind == "ability":
        out["ability"] = ctx.get("ability")
        out["ability_text"] = str(ABILITY_NAMES.get(ctx.get("ability", ""), ctx.get("ability", "")))
        out["card"] = ctx.get("card")
        out["toco_seats"] = [{"value": s, "label": names[s]} for s in unprotected]
        if ctx.get("ability") == "shoebill":
            out["buttons"].append(
                button(
                    _("Use the Shoebill"), {"type": "use_ability", "decision_id": did, "ability": "shoebill"}
                )
            )
        out["buttons"].append(
            button(
                pgettext("button", "Decline"), {"type": "decline_ability", "decision_id": did}, style="quiet"
            )
        )
    elif kind == "macaw_decide":
        out["looked"] = [
            {
                "card": item["card"],
                "label": _("%(name)s · slot %(slot)s")
                % {"name": names[item["position"]["seat"]], "slot": item["position"]["slot"]},
            }
            for item in ctx.get("looked", [])
        ]
        out["buttons"] += [
            button(_("Swap them"), {"type": "macaw_decide", "decision_id": did, "swap": True}),
            button(
                _("Leave them"), {"type": "macaw_decide", "decision_id": did, "swap": False}, style="quiet"
            ),
        ]
    elif kind == "shoebill_place":
        out["shoebill_drawn"] = [{"index": i, "card": c} for i, c in enumerate(ctx.get("drawn", []))]
        out["own_possible"] = ctx.get("own_possible", True)
        out["opponent_possible"] = ctx.get("opponent_possible", True)
    elif kind == "end_turn":
        out["buttons"].append(
            button(_("End my turn"), {"type": "end_turn", "decision_id": did, "bao": False})
        )
        # A failed BAO doubles the round score (BB-14.3 c): "Call BAO!" opens a confirmation that
        # says so, and only its own button sends the call (a <details>, no script needed).
        out["bao"] = button(
            _("Yes, call BAO"), {"type": "end_turn", "decision_id": did, "bao": True}, style="bao"
        )
    out["chosen"] = _chosen(out, posted)
    return out


def _chosen(decision: dict[str, Any], posted: dict[str, list[str]] | None) -> dict[str, Any]:
    """What the decision's forms show selected: their defaults, or the seat's own refused choices.

    A refused form of this very decision (its ``decision_id``) comes back as it was sent, so the player
    corrects it instead of choosing everything again; ``form`` names the refused form (its ``type``, or
    ``buttons``) for the box every form carries. The template marks only options it offers anyway:
    a posted value never reaches the page by itself.
    """
    positions = decision["all_positions"]
    drawn = decision.get("shoebill_drawn") or []
    chosen: dict[str, Any] = {
        "form": None,
        "kind": ["single"],
        "target_b": [positions[-1]["value"]] if positions else [],
        "mine_card": ["0"] if drawn else [],
        "theirs_card": [str(drawn[-1]["index"])] if drawn else [],
    }
    if posted and posted.get("decision_id", [""])[0] == decision["decision_id"]:
        chosen.update(posted)
        chosen["form"] = posted.get("type", ["buttons"])[0]
    return chosen


# --- the rules page -----------------------------------------------------------------------------------


def rules_page() -> tuple[str, dict[str, Any]]:
    """The rules page's template and the data it computes from the engine."""
    return "rules/baobei.html", rulebook.baobei_context()


def rules_section(decision: dict[str, Any]) -> str:
    """The anchor of the rules section that explains an open decision."""
    kind = decision.get("kind", "")
    if kind == "ability":
        ability = (decision.get("context") or {}).get("ability", "")
        return rulebook.ABILITIES[ability]["anchor"] if ability in rulebook.ABILITIES else "abilities"
    return SECTIONS.get(kind, "turn")


# --- forms --------------------------------------------------------------------------------------------


#: The create form's option fields (BB-25.1): a custom length's threshold and the memory aid.
CREATE_FIELDS: dict[str, forms.Field] = {
    "threshold": length_field(
        gettext_lazy("Threshold"),
        gettext_lazy(
            "Bao Bei, custom length: the game ends after the round in which a total reaches it "
            "(§2.3's default: 100 with 2 players, 80 with 3-4, 60 with 5-6)."
        ),
    ),
    "memory_aid": forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Memory aid"),
        help_text=gettext_lazy("Bao Bei: show the cards I have seen in my view."),
    ),
}


def create_options(data: dict[str, Any]) -> dict[str, Any]:
    """The options (BB-25.1) of the create form's cleaned ``data``; unset ones take their defaults."""
    options: dict[str, Any] = {"memory_aid": bool(data.get("memory_aid"))}
    if data.get("threshold"):
        options["threshold"] = data["threshold"]
    return options


def action_params(kind: str, data: QueryDict) -> dict[str, Any]:
    """The parameters of BB-22's action ``kind`` from form fields."""
    if kind == "choose_peek":
        try:
            return {"slots": [int(s) for s in data.getlist("slots")]}
        except ValueError:
            raise RuleError("malformed_action", "slots are numbers") from None
    if kind in {"keep", "take_discard"}:
        return {"slot": int_field(data, "slot")}
    if kind == "pluck":
        double = data.get("kind") == "double"
        targets = [position_field(data, "target1")] + ([position_field(data, "target2")] if double else [])
        gifts = [optional_int_field(data, "gift1")] + ([optional_int_field(data, "gift2")] if double else [])
        return {"kind": "double" if double else "single", "targets": targets, "gifts": gifts}
    if kind == "use_ability":
        ability = data.get("ability", "")
        out: dict[str, Any] = {"ability": ability}
        if ability in {"peek", "reveal"}:
            out["target"] = position_field(data, "target")
        elif ability in {"blind_swap", "macaw"}:
            out["targets"] = [position_field(data, "target_a"), position_field(data, "target_b")]
        elif ability == "toco":
            out["target_seat"] = int_field(data, "target_seat")
        return out
    if kind == "macaw_decide":
        return {"swap": flag_field(data, "swap")}
    if kind == "shoebill_place":
        mine_card = optional_int_field(data, "mine_card")
        theirs_card = optional_int_field(data, "theirs_card")
        return {
            "mine": None if mine_card is None else {"card": mine_card, "slot": int_field(data, "mine_slot")},
            "theirs": None
            if theirs_card is None
            else {"card": theirs_card, "target": position_field(data, "theirs_target")},
        }
    if kind == "end_turn":
        return {"bao": flag_field(data, "bao")}
    return {}


def add_posted_flags(action: dict[str, Any], data: QueryDict) -> None:
    """BB-20.7: a ticked "and end my turn without BAO" box adds ``commit_end_turn`` to the action.

    Every Bao Bei form of the active player's turn carries the box, button rows included, so it
    applies to a button's JSON action too. Never on ``end_turn`` (BB-20.3); whether the sender may
    commit is the engine's check (``commit_not_allowed``).
    """
    if flag_field(data, "commit_end_turn") and action.get("type") != "end_turn":
        action["commit_end_turn"] = True
