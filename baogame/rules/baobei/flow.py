"""Turn and round flow: opening decisions, windows, steps 1–5 of a turn, round and game end.

BB-5.2 (turn sequence), BB-6.6 (windows), BB-9.4 (ability order), BB-10 (BAO and final turns),
BB-12.5 / BB-12.8 (automatic final phase), BB-14 / BB-15 (round and game end), BB-20.2 / BB-21.
"""

from __future__ import annotations

from typing import Any

from . import scoring
from .abilities import feasible
from .cards import ABILITY_OF, CODE_OF
from .setup import deal_round
from .state import (
    Events,
    State,
    begin_final_phase,
    can_draw,
    card_count,
    emit,
    next_seat,
    recyclable,
)

#: BB-21: allowed action types per decision kind.
ALLOWED: dict[str, list[str]] = {
    "setup_peek": ["choose_peek"],
    "turn_action": ["draw", "take_discard"],
    "after_draw": ["pluck", "keep", "discard"],
    "pluck_window": ["pluck", "pass"],
    "ability": ["use_ability", "decline_ability"],
    "macaw_decide": ["macaw_decide"],
    "shoebill_place": ["shoebill_place"],
    "end_turn": ["end_turn"],
}

#: BB-25.5 1: the timing class per decision kind.
TIMING: dict[str, str] = {
    "setup_peek": "setup",
    "turn_action": "turn",
    "after_draw": "turn",
    "pluck_window": "reaction",
    "ability": "ability",
    "macaw_decide": "ability",
    "shoebill_place": "ability",
    "end_turn": "finish",
}


def open_decision(
    st: State, kind: str, owners: list[int], context: dict[str, Any], data: dict[str, Any] | None = None
) -> dict[str, Any]:
    """BB-20.2: open the (single) pending decision."""
    if kind == "pluck_window":
        did = f"w{st['wseq']}"
        st["wseq"] += 1
    else:
        did = f"d{st['seq']}"
        st["seq"] += 1
    d = {
        "id": did,
        "kind": kind,
        "owners": sorted(owners),
        "answered": [],
        "context": context,
        "data": data or {},
    }
    st["decision"] = d
    return d


def open_round(st: State, ev: Events) -> None:
    """Open a freshly laid-out round: the setup peek (BB-3.5), or a start round's first turn."""
    if st["active"] is not None:
        begin_turn(st, ev, st["active"])
        return
    per = len(st["displays"][st["participants"][0]])
    open_decision(st, "setup_peek", st["participants"], {"slot_count": per}, {"choices": []})


def begin_turn(st: State, ev: Events, seat: int) -> None:
    """BB-5.10: a turn starts; BB-9.6 e, BB-12.8, BB-5.9, then ``turn_action``."""
    st["active"] = seat
    st["touched"] = 0
    st["turn"] = {"seat": seat, "committed": False, "absent": False, "queue": [], "stage": "action"}
    emit(ev, "turn_started", seat=seat)
    if not st["draw"] and recyclable(st) <= 0:
        begin_final_phase(st, ev, "exhaustion")
    cd = can_draw(st)
    ct = card_count(st, seat) > 0
    if not cd and not ct:
        st["turn"]["stage"] = "step4"
        return
    open_decision(
        st, "turn_action", [seat], {"discard_top": CODE_OF[st["discard"][-1]], "can_draw": cd, "can_take": ct}
    )


def queue_ability(st: State, owner: int, cid: int, trigger: str, front: bool = False) -> None:
    """BB-9.1: a triggered ability joins the turn's queue (BB-9.4 order)."""
    key = ABILITY_OF[cid]
    if key is None:
        return
    entry = {"owner": owner, "ability": key, "card": CODE_OF[cid], "trigger": trigger}
    if front:
        st["turn"]["queue"].insert(0, entry)
    else:
        st["turn"]["queue"].append(entry)


def open_window(st: State, ev: Events, ref: int, source: str) -> None:
    """BB-6.6 a: after a normal discard, a window for the non-active participants holding cards."""
    active = st["active"]
    eligible = [s for s in st["participants"] if s != active and card_count(st, s) > 0]
    st["decision"] = None
    if not eligible:
        st["turn"]["stage"] = "abilities"
        return
    context = {"reference": CODE_OF[ref], "source": source, "active_seat": active}
    d = open_decision(st, "pluck_window", eligible, context, {"passed": [], "reference": ref})
    emit(
        ev,
        "window_opened",
        decision_id=d["id"],
        reference=CODE_OF[ref],
        source=source,
        active_seat=active,
        eligible=list(eligible),
    )


def close_window(st: State, ev: Events, how: str) -> None:
    """BB-6.6 f, BB-30.6: the window closes; passes become public now."""
    d = st["decision"]
    emit(ev, "window_closed", decision_id=d["id"], how=how, passed=sorted(d["data"]["passed"]))
    st["decision"] = None
    st["turn"]["stage"] = "abilities"


def next_ability(st: State, ev: Events) -> None:
    """BB-9.4 / BB-9.5: offer the next queued ability, or announce that it has no effect."""
    queue = st["turn"]["queue"]
    if not queue:
        st["turn"]["stage"] = "step4"
        return
    entry = queue.pop(0)
    fields = {
        "seat": entry["owner"],
        "ability": entry["ability"],
        "card": entry["card"],
        "trigger": entry["trigger"],
    }
    if not feasible(st, entry["owner"], entry["ability"]):
        emit(ev, "ability_no_effect", **fields)
        return
    emit(ev, "ability_offered", **fields)
    open_decision(
        st,
        "ability",
        [entry["owner"]],
        {"ability": entry["ability"], "card": entry["card"], "trigger": entry["trigger"]},
        dict(entry),
    )


def bao_allowed(st: State) -> bool:
    """BB-10.1: no BAO yet in this round and the automatic final phase has not begun."""
    return st["bao_caller"] is None and st["final_phase"] is None


def step4(st: State, ev: Events) -> None:
    """BB-5.2 step 4: the ``end_turn`` decision, unless pre-committed (BB-20.7) or defaulted."""
    turn = st["turn"]
    if bao_allowed(st) and not turn["committed"] and not turn["absent"]:
        turn["stage"] = "end"
        open_decision(st, "end_turn", [st["active"]], {})
        return
    turn["stage"] = "end"
    end_turn(st, ev)


def end_turn(st: State, ev: Events) -> None:
    """BB-5.2 step 5: the round-end check, then the next participant's turn."""
    active = st["active"]
    emit(ev, "turn_ended", seat=active)
    if st["end_after"] == active:
        end_round(st, ev)
        return
    begin_turn(st, ev, next_seat(st, active))


def end_round(st: State, ev: Events) -> None:
    """BB-14 / BB-15: score the round, then deal the next one or end the game."""
    result = scoring.score_round(st)
    st["round_scores"] = result["scores"]
    if not st["deciding"]:
        st["totals"] = [t + (s or 0) for t, s in zip(st["totals"], result["scores"], strict=True)]
    emit(
        ev,
        "round_ended",
        round=st["round"],
        deciding=st["deciding"],
        displays=result["displays"],
        round_totals=result["round_totals"],
        scores=result["scores"],
        bao=result["bao"],
        totals=list(st["totals"]),
        # BB-25.7 lets the record carry more: whose call the automatic final phase annulled (BB-12.6),
        # which a log that began within the round after the call (BB-25.3) shows nowhere else.
        **(
            {"bao_annulled": st["bao_caller"]}
            if result["bao"] is None and st["bao_caller"] is not None
            else {}
        ),
    )
    st["decision"] = None
    st["turn"] = None
    nxt = scoring.next_round(st, result["scores"])
    if nxt is None:
        finish_game(st, ev)
        return
    participants, deciding, first = nxt
    st["round"] += 1
    deal_round(st, ev, participants, deciding, first)
    open_round(st, ev)


def finish_game(st: State, ev: Events) -> None:
    """BB-15.2 / BB-15.4 / BB-15.5: the game is over."""
    standings = scoring.standings(st)
    winner = standings[0]["seat"]
    st.update(over=True, winners=[winner], active=None, decision=None, turn=None)
    emit(ev, "game_ended", winner=winner, standings=standings, deciding_rounds=scoring.deciding_summary(st))
