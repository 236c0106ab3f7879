"""What a seat may know (BH-23) and the referee view (BH-25.3). Views are built, not filtered."""

from __future__ import annotations

from typing import Any

from .cards import BJM, to_list
from .legal import decision_actions, owners, pending
from .state import State, deal_limit, deals_played, roles_of_deal


def known_roles(state: State, seat: int | None) -> tuple[int | None, bool | None]:
    """BH-23.5, BH-23.6: (partner, alone) as ``seat`` knows them; ``None`` where unknown."""
    emperor = state["emperor"]
    if emperor is None:
        return None, None
    if state["revealed"] or (seat is not None and seat == emperor):
        return state["partner"], state["alone"]
    if seat is not None and state["hands"][seat][BJM]:
        return seat, False  # the partner knows his role from his own hand (BH-7.3)
    return None, None


def _tribute_view(state: State, seat: int | None) -> dict[str, Any] | None:
    """BH-23.3: counts are public; cards only to their giver or receiver; never published later."""
    t = state["tribute"]
    if t is None:
        return None
    out: dict[str, Any] = {
        "owed": t["owed"][:],
        "allot": t["allot"][:],
        "given": [None if g is None else len(g) for g in t["given"]],
        "received": [None if r is None else len(r) for r in t["received"]],
        "owed_cards": None,
        "given_cards": None,
        "received_cards": None,
    }
    if seat is not None:
        if t["owed"][seat]:
            out["owed_cards"] = t["owed_cards"][seat][:]
        if t["given"][seat] is not None:
            out["given_cards"] = t["given"][seat][:]
        if t["received"][seat] is not None:
            out["received_cards"] = t["received"][seat][:]
    return out


def _decision(state: State, seat: int | None) -> dict[str, Any] | None:
    """The seat's own open decision, with the choices it may make (or ``None``)."""
    if seat is None or state["over"] or seat not in owners(state):
        return None
    d = dict(pending(state)[0])
    del d["seats"]
    if state["phase"] != "play":
        d["actions"] = decision_actions(state, seat)  # small lists; plays are built from hand and top
    return d


def _copy_record(record: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of a public deal record, so that callers cannot alter the state through a view."""
    if record is None:
        return None
    out = {k: (v[:] if isinstance(v, list) else v) for k, v in record.items()}
    out["hands"] = [h[:] for h in record["hands"]]
    out["guesses"] = [None if g is None else dict(g) for g in record["guesses"]]
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """BH-23: exactly what ``seat`` may know now; ``None`` is a spectator (public information only)."""
    hands = state["hands"]
    shuffler, cutter, first = roles_of_deal(state["deal"])
    partner, alone = known_roles(state, seat)
    phase = state["phase"]
    top = state["top"]
    public_pending = [{k: d[k] for k in ("kind", "seats", "timing", "decision_id")} for d in pending(state)]
    return {
        "game": "baohuang",
        "seat": seat,
        "deal": state["deal"],
        "shuffler": shuffler,
        "cutter": cutter,
        "first_drawer": first,
        "phase": phase,
        "target_score": state["options"]["target_score"],
        "deal_limit": deal_limit(state),  # BH-17.6: the limit and the deals played are public
        "deals_played": deals_played(state),
        "totals": state["totals"][:],
        "round_scores": None if state["round_scores"] is None else state["round_scores"][:],
        "over": state["over"],
        "winners": state["winners"][:],
        "hand": None if seat is None else to_list(hands[seat]),
        "counts": [sum(h) for h in hands],
        "tribute": _tribute_view(state, seat),
        "emperor_card": None
        if state["holder"] is None
        else {
            "original_holder": state["holder"],
            "passed": state["passed"][:],
            "holder": state["offer"] if state["offer"] is not None else state["emperor"],
        },
        "emperor": state["emperor"],
        "forced": state["forced"] if state["emperor"] is not None else None,
        "partner": partner,
        "alone": alone,
        "partner_public": state["revealed"],
        "declarations": state["declared"][:],
        "multiplier": state["multiplier"],
        "doubled_by": state["doubled_by"],
        "guesses": state["guesses"][:],
        "leader": state["leader"],
        "turn": state["turn"],
        "top": None if top is None else dict(top, cards=top["cards"][:]),
        "trick": [dict(e) for e in state["trick"]],
        "finished": state["finished"][:],
        "pending": public_pending,
        "decision": _decision(state, seat),
        "last_deal": _copy_record(state["last_deal"]),
    }


def referee_view(state: State) -> dict[str, Any]:
    """BH-25.3: everything, with exactly the standard's keys."""
    phase = state["phase"]
    top = state["top"]
    in_play = phase == "play"
    return {
        "hands": [to_list(h) for h in state["hands"]],
        "trick": None
        if not in_play or top is None
        else {
            "cards": top["cards"][:],
            "seat": top["seat"],
            "passes": top["passes"],
            "no_beat_request": top["no_beat_request"],
        },
        "leader": state["leader"] if in_play else None,
        "active": state["offer"] if phase == "offer" else (state["turn"] if in_play else None),
        "emperor": state["emperor"],
        "partner": state["partner"],
        "alone": state["alone"],
        "multiplier": state["multiplier"],
        "finished": state["finished"][:],
        "round_scores": None if state["round_scores"] is None else state["round_scores"][:],
        "totals": state["totals"][:],
        "over": state["over"],
        "winners": state["winners"][:],
    }
