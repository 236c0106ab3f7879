"""``apply``: validate one action (BB-22.0 and BB-22) and resolve it, then run the automatic steps
until the next decision opens (BB-25.5 1)."""

from __future__ import annotations

from typing import Any

from ..core import RuleError
from . import abilities, flow
from .actions import check_shape
from .cards import CODE_OF
from .defaults import timeout_action
from .pluck import resolve_pluck, validate_pluck
from .state import (
    Events,
    State,
    can_draw,
    card_count,
    clone,
    draw_card,
    emit,
    forget,
    learn,
    learn_all,
    prev_seat,
)

#: BB-22.0 step 3: the ownership error per decision kind.
OWNER_ERROR = {
    "turn_action": "not_your_turn",
    "after_draw": "not_your_turn",
    "end_turn": "not_your_turn",
    "pluck_window": "not_eligible",
}


#: This engine names its plucking windows "w<n>" (BB-20.2 leaves ids opaque); no game opens 10**9.
_WINDOW_DIGITS = 9


def _closed_window(did: str, wseq: int) -> bool:
    """Whether ``did`` names a window of this game that has closed (``w<n>`` with n < ``wseq``).

    Only plain ASCII digits without leading zeros name a window: ``str.isdigit`` also accepts "²" or
    "①", which ``int`` refuses, and a bounded length keeps ``int`` away from unbounded input.
    """
    num = did[1:]
    if did[:1] != "w" or not 0 < len(num) <= _WINDOW_DIGITS or not (num.isascii() and num.isdigit()):
        return False
    return str(int(num)) == num and int(num) < wseq


def validate_common(st: State, seat: Any, act: dict[str, Any]) -> dict[str, Any]:
    """BB-22.0 steps 2–6; return the open decision."""
    d: dict[str, Any] | None = st["decision"]
    did = act["decision_id"]
    if d is None or did != d["id"]:
        if _closed_window(did, st["wseq"]):
            raise RuleError("window_closed", "that window has closed")
        raise RuleError("stale_decision", "that decision is not open")
    if seat not in d["owners"]:
        raise RuleError(OWNER_ERROR.get(d["kind"], "not_your_decision"), "you do not own this decision")
    if act["type"] not in flow.ALLOWED[d["kind"]]:
        raise RuleError("action_not_allowed", f"{act['type']} is not allowed for {d['kind']}")
    if seat in d["answered"]:
        raise RuleError("already_responded", "you have already responded")
    if act.get("commit_end_turn") is True and seat != st["active"]:
        raise RuleError("commit_not_allowed", "only the active player may commit the end of turn")
    return d


def _own_slot(st: State, seat: int, k: int) -> None:
    disp = st["displays"][seat]
    if not 0 <= k < len(disp):
        raise RuleError("invalid_position", f"you have no slot {k}")
    if disp[k] is None:
        raise RuleError("slot_empty", f"your slot {k} is empty")


def validate_specific(st: State, seat: int, act: dict[str, Any], d: dict[str, Any]) -> None:
    """The action-specific checks of BB-22, in the order listed."""
    t = act["type"]
    if t == "choose_peek":
        slots = act["slots"]
        if len(slots) != 2:
            raise RuleError("wrong_count", "choose exactly two slots")
        for k in slots:
            if not 0 <= k < len(st["displays"][seat]):
                raise RuleError("invalid_position", f"you have no slot {k}")
        if slots[0] == slots[1]:
            raise RuleError("duplicate_target", "choose two different slots")
    elif t == "draw":
        if not can_draw(st):
            raise RuleError("draw_unavailable", "no card can be drawn")
    elif t == "keep":
        _own_slot(st, seat, act["slot"])
    elif t == "take_discard":
        if card_count(st, seat) == 0:
            raise RuleError("no_cards", "you have no card")
        _own_slot(st, seat, act["slot"])
    elif t == "pluck":
        validate_pluck(st, seat, act)
    elif t == "use_ability":
        abilities.validate_use(st, seat, act, d["data"]["ability"])
    elif t == "shoebill_place":
        abilities.validate_shoebill(st, seat, act, d["data"])


def validate(st: State, seat: Any, act: Any) -> dict[str, Any]:
    """Every check of BB-22.0 and BB-22; return the open decision."""
    check_shape(act)
    if act.get("timeout") is True and act != timeout_action(st, seat):
        raise RuleError("malformed_action", "timeout is set by the server for the default action only")
    d = validate_common(st, seat, act)
    validate_specific(st, seat, act, d)
    return d


def apply(state: State, seat: int, act: dict[str, Any]) -> tuple[State, Events]:
    """Validate and apply one action; never mutates ``state``."""
    d = validate(state, seat, act)
    st = clone(state)
    ev: Events = []
    timeout = act.get("timeout") is True
    turn = st["turn"]
    if turn is not None and seat == st["active"]:
        if timeout and d["kind"] not in ("setup_peek", "pluck_window"):
            turn["absent"] = True
        if act.get("commit_end_turn") is True:
            turn["committed"] = True
    resolve(st, ev, seat, act)
    advance(st, ev)
    if timeout:
        for e in ev:
            e["by_timeout"] = True
    return st, ev


def advance(st: State, ev: Events) -> None:
    """Run automatic steps until a decision is open or the game is over (BB-25.5 1, BB-20.8)."""
    while not st["over"]:
        d = st["decision"]
        turn = st["turn"]
        if d is not None:
            if (
                turn is not None
                and turn["absent"]
                and d["owners"] == [st["active"]]
                and d["kind"] not in ("setup_peek", "pluck_window")
            ):
                n0 = len(ev)
                act = timeout_action(st, st["active"])
                assert act is not None  # the absent active seat owns this decision alone
                resolve(st, ev, st["active"], act)
                for e in ev[n0:]:
                    e["by_timeout"] = True
                continue
            return
        stage = turn["stage"]
        if stage == "abilities":
            flow.next_ability(st, ev)
        elif stage == "step4":
            flow.step4(st, ev)
        else:  # pragma: no cover - every other stage keeps a decision open
            raise AssertionError(f"no decision open at stage {stage}")


# --- resolution of each action type ----------------------------------------------------------------


def resolve(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    """Resolve a validated action."""
    HANDLERS[act["type"]](st, ev, seat, act)


def _choose_peek(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    """BB-3.5: the seat privately sees two of its cards; the choices are public at the close."""
    d = st["decision"]
    slots = list(act["slots"])
    disp = st["displays"][seat]
    for k in slots:
        learn(st, seat, disp[k])
    emit(
        ev,
        "setup_peek_chosen",
        [seat],
        seat=seat,
        slots=slots,
        cards=[CODE_OF[disp[k]] for k in slots],
        private=True,
    )
    d["answered"].append(seat)
    d["data"]["choices"].append({"seat": seat, "slots": slots})
    if len(d["answered"]) == len(d["owners"]):
        emit(ev, "setup_peek_done", choices=sorted(d["data"]["choices"], key=lambda c: c["seat"]))
        st["decision"] = None
        flow.begin_turn(st, ev, st["round_start"])


def _draw(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    """BB-5.3: draw (recycling if needed); ``after_draw`` or the automatic discard (BB-13.3)."""
    cid = draw_card(st, ev)
    assert cid is not None  # validation refused the draw unless can_draw() (BB-12)
    st["drawn"] = [cid]
    st["drawn_by"] = seat
    emit(ev, "drew", seat=seat)
    emit(ev, "drew", [seat], seat=seat, card=CODE_OF[cid], private=True)
    st["decision"] = None
    if card_count(st, seat) == 0:
        _direct_discard(st, ev, seat, automatic=True)
    else:
        flow.open_decision(st, "after_draw", [seat], {})


def _direct_discard(st: State, ev: Events, seat: int, automatic: bool = False) -> None:
    """BB-5.5 / BB-13.3: the drawn card goes face up; window; the ability waits (BB-9.1 a)."""
    cid = st["drawn"][0]
    st["drawn"] = []
    st["drawn_by"] = None
    st["discard"].append(cid)
    emit(ev, "discarded", seat=seat, card=CODE_OF[cid], automatic=automatic)
    flow.queue_ability(st, seat, cid, "direct_discard")
    flow.open_window(st, ev, cid, "direct_discard")


def _discard(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    _direct_discard(st, ev, seat)


def _keep(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    """BB-5.4: the drawn card replaces a slot; the old card is a normal discard."""
    k = act["slot"]
    cid = st["drawn"][0]
    disp = st["displays"][seat]
    old = disp[k]
    disp[k] = cid
    st["drawn"] = []
    st["drawn_by"] = None
    learn(st, seat, cid)
    forget(st, old)
    st["discard"].append(old)
    emit(ev, "kept", seat=seat, slot=k, card=CODE_OF[old])
    flow.open_window(st, ev, old, "keep")


def _take_discard(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    """BB-5.6: the top discard replaces a slot; the old card is a normal discard."""
    k = act["slot"]
    taken = st["discard"].pop()
    disp = st["displays"][seat]
    old = disp[k]
    disp[k] = taken
    learn_all(st, taken)
    forget(st, old)
    st["discard"].append(old)
    emit(ev, "took_discard", seat=seat, slot=k, card=CODE_OF[taken], discarded=CODE_OF[old])
    flow.open_window(st, ev, old, "take_discard")


def _pluck(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    """BB-6 – BB-8 with the ability triggers of BB-9.1 b–d and the order of BB-9.4."""
    d = st["decision"]
    own_draw = d["kind"] == "after_draw"
    ref = st["drawn"][0] if own_draw else d["data"]["reference"]
    removed = resolve_pluck(st, ev, seat, act, ref, own_draw)
    if not own_draw:
        flow.close_window(st, ev, "pluck")
    st["decision"] = None
    st["turn"]["stage"] = "abilities"
    if removed is None:
        return
    last = removed[-1]
    trigger = "single_removal" if len(removed) == 1 else "double_removal"
    if own_draw:
        if len(removed) == 1:
            flow.queue_ability(st, seat, ref, "own_draw_reference")
        flow.queue_ability(st, seat, last, trigger)
    else:
        flow.queue_ability(st, seat, last, trigger, front=True)


def _pass(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    """BB-6.6 e, f: passing is final; the window closes once everyone has passed."""
    d = st["decision"]
    d["answered"].append(seat)
    d["data"]["passed"].append(seat)
    if len(d["answered"]) == len(d["owners"]):
        flow.close_window(st, ev, "passed")


def _use_ability(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    """BB-9.7 – BB-9.12: use the offered ability; maybe open its follow-up decision."""
    st["decision"] = None
    follow = abilities.use(st, ev, seat, act)
    if follow is None:
        return
    if follow["kind"] == "macaw_decide":
        flow.open_decision(st, "macaw_decide", [seat], {}, follow["data"])
    else:
        flow.open_decision(st, "shoebill_place", [seat], {}, follow["data"])


def _decline(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    d = st["decision"]
    emit(
        ev,
        "ability_declined",
        seat=seat,
        ability=d["data"]["ability"],
        card=d["data"]["card"],
        trigger=d["data"]["trigger"],
    )
    st["decision"] = None


def _macaw_decide(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    d = st["decision"]
    st["decision"] = None
    abilities.macaw_decide(st, ev, seat, act["swap"], d["data"])


def _shoebill_place(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    st["decision"] = None
    abilities.shoebill_place(st, ev, seat, act)


def _end_turn(st: State, ev: Events, seat: int, act: dict[str, Any]) -> None:
    """BB-10.1 / BB-10.2: end the turn, calling BAO or not."""
    st["decision"] = None
    if act["bao"]:
        st["bao_caller"] = seat
        st["end_after"] = prev_seat(st, seat)
        emit(ev, "bao_called", seat=seat)
    flow.end_turn(st, ev)


HANDLERS = {
    "choose_peek": _choose_peek,
    "draw": _draw,
    "keep": _keep,
    "discard": _discard,
    "take_discard": _take_discard,
    "pluck": _pluck,
    "pass": _pass,
    "use_ability": _use_ability,
    "decline_ability": _decline,
    "macaw_decide": _macaw_decide,
    "shoebill_place": _shoebill_place,
    "end_turn": _end_turn,
}
