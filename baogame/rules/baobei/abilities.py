"""The six abilities (BB-9.5 – BB-9.12) and the ability-touched rule (BB-9.6).

Feasibility uses public information only (BB-9.5, BB-20.9). ``use`` validates and resolves a
``use_ability`` action after the common checks; ``validate_use`` and ``validate_shoebill`` are also
used by ``legal``.
"""

from __future__ import annotations

from typing import Any

from ..core import RuleError
from .cards import CODE_OF
from .state import (
    Events,
    State,
    add_card,
    can_draw,
    card_count,
    draw_card,
    emit,
    forget,
    is_position,
    is_touched,
    learn,
    learn_all,
    maybe_activate_shield,
    pos,
    protected,
    touch,
    turn_order_from,
)

Position = tuple[int, int]


def _free(st: State, user: int, seat: int, slot: int) -> bool:
    """A card that an ability of ``user`` may change: neither protected nor ability-touched."""
    cid = st["displays"][seat][slot]
    return cid is not None and not protected(st, seat, user) and not is_touched(st, cid)


def own_possible(st: State, user: int) -> bool:
    """BB-9.12 a: the user holds a card that is not ability-touched."""
    return any(c is not None and not is_touched(st, c) for c in st["displays"][user])


def opponent_targets(st: State, user: int) -> list[Position]:
    """BB-9.12 a / BB-24: opponent cards the user may replace, in turn order after the user, by slot."""
    out = []
    for s in turn_order_from(st, user):
        if s == user:
            continue
        out += [(s, k) for k in range(len(st["displays"][s])) if _free(st, user, s, k)]
    return out


def feasible(st: State, user: int, ability: str) -> bool:
    """BB-9.5: whether at least one legal use exists (public information only)."""
    parts = st["participants"]
    holders = [s for s in parts if card_count(st, s) > 0]
    if ability in ("peek", "reveal"):
        return bool(holders)
    if ability == "macaw":
        return len(holders) >= 2
    if ability == "blind_swap":
        seats_free = [s for s in parts if any(_free(st, user, s, k) for k in range(len(st["displays"][s])))]
        return len(seats_free) >= 2
    if ability == "toco":
        return can_draw(st) and any(s != user and not protected(st, s, user) for s in parts)
    if ability == "shoebill":
        return can_draw(st) and (own_possible(st, user) or bool(opponent_targets(st, user)))
    raise AssertionError(ability)


def _target(st: State, p: dict[str, int]) -> int:
    """``invalid_position`` / ``slot_empty`` for one target; return its card id."""
    if not is_position(st, p["seat"], p["slot"]):
        raise RuleError("invalid_position", f"seat {p['seat']} slot {p['slot']} does not exist")
    cid: int | None = st["displays"][p["seat"]][p["slot"]]
    if cid is None:
        raise RuleError("slot_empty", f"seat {p['seat']} slot {p['slot']} is empty")
    return cid


def _pair(st: State, user: int, targets: list[dict[str, int]], swap: bool) -> None:
    """The checks of ``blind_swap`` (``swap``) and ``macaw`` in BB-22's order."""
    if len(targets) != 2:
        raise RuleError("wrong_count", "name exactly two cards")
    # Each check runs over both targets before the next one (BB-22.0: the first failing check wins).
    for p in targets:
        if not is_position(st, p["seat"], p["slot"]):
            raise RuleError("invalid_position", f"seat {p['seat']} slot {p['slot']} does not exist")
    for p in targets:
        _target(st, p)
    a, b = targets
    if a == b:
        raise RuleError("duplicate_target", "the same card is named twice")
    if a["seat"] == b["seat"]:
        raise RuleError("same_player", "the two cards must lie in two different displays")
    if swap:
        for p in targets:
            if protected(st, p["seat"], user):
                raise RuleError("shielded", f"seat {p['seat']}'s display is protected by the Shield")
        for p in targets:
            if is_touched(st, st["displays"][p["seat"]][p["slot"]]):
                raise RuleError(
                    "already_moved",
                    f"the card at seat {p['seat']} slot {p['slot']} "
                    "was already moved by an ability this turn",
                )


def validate_use(st: State, user: int, act: dict[str, Any], ability: str) -> None:
    """BB-22 ``use_ability`` checks after BB-22.0."""
    if act["ability"] != ability:
        raise RuleError("ability_mismatch", f"the ability offered is {ability}")
    if ability in ("peek", "reveal"):
        _target(st, act["target"])
    elif ability in ("blind_swap", "macaw"):
        _pair(st, user, act["targets"], ability == "blind_swap")
    elif ability == "toco":
        t = act["target_seat"]
        if t not in st["participants"]:
            raise RuleError("invalid_seat", f"seat {t} does not take part in this round")
        if t == user:
            raise RuleError("not_opponent", "choose an opponent")
        if protected(st, t, user):
            raise RuleError("shielded", f"seat {t}'s display is protected by the Shield")


def _swap(st: State, a: dict[str, int], b: dict[str, int]) -> None:
    """BB-4.6 with BB-9.6: exchange two cards; both become ability-touched."""
    da, db = st["displays"][a["seat"]], st["displays"][b["seat"]]
    da[a["slot"]], db[b["slot"]] = db[b["slot"]], da[a["slot"]]
    touch(st, da[a["slot"]])
    touch(st, db[b["slot"]])


def use(st: State, ev: Events, user: int, act: dict[str, Any]) -> dict[str, Any] | None:
    """Resolve a validated ``use_ability``; return the follow-up decision to open, if any:
    ``("macaw_decide", data)`` or ``("shoebill_place", data)`` as a dict."""
    ability = act["ability"]
    if ability == "peek":
        p = act["target"]
        cid = st["displays"][p["seat"]][p["slot"]]
        learn(st, user, cid)
        emit(ev, "peeked", seat=user, position=dict(p))
        emit(ev, "peeked", [user], seat=user, position=dict(p), card=CODE_OF[cid], private=True)
    elif ability == "reveal":
        p = act["target"]
        cid = st["displays"][p["seat"]][p["slot"]]
        learn_all(st, cid)
        emit(ev, "revealed", seat=user, position=dict(p), card=CODE_OF[cid])
    elif ability == "blind_swap":
        a, b = act["targets"]
        _swap(st, a, b)
        emit(ev, "blind_swapped", seat=user, positions=[dict(a), dict(b)])
        maybe_activate_shield(st, ev, user, [a["seat"], b["seat"]])
    elif ability == "macaw":
        a, b = act["targets"]
        ca, cb = st["displays"][a["seat"]][a["slot"]], st["displays"][b["seat"]][b["slot"]]
        learn(st, user, ca)
        learn(st, user, cb)
        emit(ev, "macaw_looked", seat=user, positions=[dict(a), dict(b)])
        emit(
            ev,
            "macaw_looked",
            [user],
            seat=user,
            positions=[dict(a), dict(b)],
            cards=[CODE_OF[ca], CODE_OF[cb]],
            private=True,
        )
        if _free(st, user, a["seat"], a["slot"]) and _free(st, user, b["seat"], b["slot"]):
            return {"kind": "macaw_decide", "data": {"positions": [dict(a), dict(b)]}}
    elif ability == "toco":
        t = act["target_seat"]
        cid = draw_card(st, ev)
        if cid is None:
            emit(ev, "toco_added", seat=user, target_seat=t, slot=None, skipped=True)
        else:
            slot = add_card(st, t, cid)
            touch(st, cid)
            emit(ev, "toco_added", seat=user, target_seat=t, slot=slot, skipped=False)
            maybe_activate_shield(st, ev, user, [t])
    elif ability == "shoebill":
        drawn = []
        for _ in range(2):
            cid = draw_card(st, ev)
            if cid is None:
                break
            drawn.append(cid)
        st["drawn"] = drawn
        st["drawn_by"] = user
        emit(ev, "shoebill_drawn", seat=user, count=len(drawn))
        emit(ev, "shoebill_drawn", [user], seat=user, cards=[CODE_OF[c] for c in drawn], private=True)
        return {
            "kind": "shoebill_place",
            "data": {
                "own_possible": own_possible(st, user),
                "opponent_possible": bool(opponent_targets(st, user)),
            },
        }
    return None


def macaw_decide(st: State, ev: Events, user: int, swap: bool, data: dict[str, Any]) -> None:
    """BB-9.10 c, d: swap the two looked-at cards or not."""
    a, b = data["positions"]
    if swap:
        _swap(st, a, b)
    emit(ev, "macaw_decided", seat=user, swap=swap, positions=[dict(a), dict(b)])
    if swap:
        maybe_activate_shield(st, ev, user, [a["seat"], b["seat"]])


def validate_shoebill(st: State, user: int, act: dict[str, Any], data: dict[str, Any]) -> None:
    """BB-22 ``shoebill_place`` checks 1–5."""
    n_drawn = len(st["drawn"])
    mine, theirs = act["mine"], act["theirs"]
    for part in (mine, theirs):
        if part is not None and not 0 <= part["card"] < n_drawn:
            raise RuleError("invalid_card_index", f"card {part['card']} was not drawn")
    if mine is not None and theirs is not None and mine["card"] == theirs["card"]:
        raise RuleError("card_reused", "each drawn card can be used once")
    if mine is not None:
        k = mine["slot"]
        disp = st["displays"][user]
        if not 0 <= k < len(disp):
            raise RuleError("invalid_position", f"you have no slot {k}")
        if disp[k] is None:
            raise RuleError("slot_empty", f"your slot {k} is empty")
        if is_touched(st, disp[k]):
            raise RuleError("already_moved", f"the card in your slot {k} was already moved this turn")
    if theirs is not None:
        p = theirs["target"]
        if not is_position(st, p["seat"], p["slot"]):
            raise RuleError("invalid_position", f"seat {p['seat']} slot {p['slot']} does not exist")
        if p["seat"] == user:
            raise RuleError("not_opponent", "the second replacement is in an opponent's display")
        cid = st["displays"][p["seat"]][p["slot"]]
        if cid is None:
            raise RuleError("slot_empty", f"seat {p['seat']} slot {p['slot']} is empty")
        if protected(st, p["seat"], user):
            raise RuleError("shielded", f"seat {p['seat']}'s display is protected by the Shield")
        if is_touched(st, cid):
            raise RuleError("already_moved", "that card was already moved by an ability this turn")
    used = sum(1 for part in (mine, theirs) if part is not None)
    missing = (mine is None and data["own_possible"]) or (theirs is None and data["opponent_possible"])
    if used < n_drawn and missing:
        raise RuleError("shoebill_incomplete", "a possible replacement was left out")


def default_shoebill(st: State, user: int, data: dict[str, Any]) -> dict[str, Any]:
    """BB-24: the default placement (``mine`` and ``theirs`` always present)."""
    n_drawn = len(st["drawn"])
    mine = theirs = None
    nxt = 0
    if data["own_possible"] and nxt < n_drawn:
        slot = next(k for k, c in enumerate(st["displays"][user]) if c is not None and not is_touched(st, c))
        mine = {"card": nxt, "slot": slot}
        nxt += 1
    if data["opponent_possible"] and nxt < n_drawn:
        s, k = opponent_targets(st, user)[0]
        theirs = {"card": nxt, "target": pos(s, k)}
    return {"mine": mine, "theirs": theirs}


def shoebill_place(st: State, ev: Events, user: int, act: dict[str, Any]) -> None:
    """BB-9.12 d, e: place the Shoebill cards; replaced and unused cards go beneath the pile."""
    drawn = st["drawn"]
    used: set[int] = set()
    replaced = []
    placed = []
    changed = []
    for part, seat, slot in ((act["mine"], user, None), (act["theirs"], None, None)):
        if part is None:
            continue
        if seat is None:
            seat, slot = part["target"]["seat"], part["target"]["slot"]
        else:
            slot = part["slot"]
        new = drawn[part["card"]]
        old = st["displays"][seat][slot]
        st["displays"][seat][slot] = new
        forget(st, old)
        st["under"].append(old)
        learn(st, user, new)
        touch(st, new)
        used.add(part["card"])
        replaced.append(pos(seat, slot))
        placed.append({"position": pos(seat, slot), "card": CODE_OF[new]})
        changed.append(seat)
    unused = [c for i, c in enumerate(drawn) if i not in used]
    st["under"] += unused
    st["drawn"] = []
    st["drawn_by"] = None
    emit(ev, "shoebill_placed", seat=user, replaced=replaced, under_count=len(replaced) + len(unused))
    emit(ev, "shoebill_placed", [user], seat=user, placed=placed, private=True)
    maybe_activate_shield(st, ev, user, changed)
