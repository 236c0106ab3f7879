"""Plucking: validation (BB-22 ``pluck`` checks 1–9) and resolution (BB-6 – BB-8)."""

from __future__ import annotations

from typing import Any

from ..core import RuleError
from .cards import CODE_OF, FAMILY_OF
from .state import (
    Events,
    State,
    add_card,
    draw_card,
    emit,
    forget,
    is_position,
    learn_all,
    maybe_activate_shield,
    protected,
)


def validate_pluck(st: State, seat: int, act: dict[str, Any]) -> None:
    """BB-22 ``pluck`` checks, in order; raises ``RuleError``."""
    targets, gifts = act["targets"], act["gifts"]
    want = 1 if act["kind"] == "single" else 2
    if len(targets) != want or len(gifts) != len(targets):
        raise RuleError("wrong_count", f"a {act['kind']} pluck names {want} target(s) and as many gifts")
    own = st["displays"][seat]
    if all(c is None for c in own):
        raise RuleError("no_cards", "you have no card")
    for t in targets:
        if not is_position(st, t["seat"], t["slot"]):
            raise RuleError("invalid_position", f"seat {t['seat']} slot {t['slot']} does not exist")
    if want == 2 and targets[0] == targets[1]:
        raise RuleError("duplicate_target", "the two targets are the same position")
    for t in targets:
        if st["displays"][t["seat"]][t["slot"]] is None:
            raise RuleError("slot_empty", f"seat {t['seat']} slot {t['slot']} is empty")
    for t in targets:
        if protected(st, t["seat"], seat):
            raise RuleError("shielded", f"seat {t['seat']}'s cards are protected by the Shield")
    own_targets = {t["slot"] for t in targets if t["seat"] == seat}
    offensive = sum(1 for t in targets if t["seat"] != seat)
    spare = sum(1 for k, c in enumerate(own) if c is not None and k not in own_targets)
    if spare < offensive:
        raise RuleError("no_card_to_give", "you do not have enough cards to give")
    for t, g in zip(targets, gifts, strict=True):
        if t["seat"] == seat and g is not None:
            raise RuleError("gift_not_allowed", "no gift for a target in your own display")
        if t["seat"] != seat and g is None:
            raise RuleError("gift_missing", "an offensive target needs a gift")
    for g in gifts:
        if g is None:
            continue
        if not 0 <= g < len(own):
            raise RuleError("invalid_position", f"you have no slot {g}")
        if own[g] is None:
            raise RuleError("gift_slot_empty", f"your slot {g} is empty")
        if g in own_targets:
            raise RuleError("gift_is_target", f"your slot {g} is also a target")
    real = [g for g in gifts if g is not None]
    if len(real) != len(set(real)):
        raise RuleError("duplicate_gift", "the same slot is given twice")


def resolve_pluck(
    st: State, ev: Events, seat: int, act: dict[str, Any], ref: int, own_draw: bool
) -> list[int] | None:
    """BB-7 / BB-8: resolve a validated pluck against reference ``ref``.

    Returns the removed card ids (in order) on success, ``None`` on failure.
    """
    displays = st["displays"]
    targets, gifts = act["targets"], act["gifts"]
    fam = FAMILY_OF[ref]
    cids = [displays[t["seat"]][t["slot"]] for t in targets]
    success = all(FAMILY_OF[c] == fam for c in cids)
    if own_draw:
        st["discard"].append(ref)
        st["drawn"] = []
        st["drawn_by"] = None
    fields = {
        "seat": seat,
        "kind": act["kind"],
        "targets": [dict(t) for t in targets],
        "gifts": list(gifts),
        "success": success,
        "cards": [CODE_OF[c] for c in cids],
        "reference": CODE_OF[ref],
        "own_draw": own_draw,
    }
    if success:
        for t, c in zip(targets, cids, strict=True):
            displays[t["seat"]][t["slot"]] = None
            st["discard"].append(c)
            forget(st, c)
        for t, g in zip(targets, gifts, strict=True):
            if g is not None:
                displays[t["seat"]][t["slot"]] = displays[seat][g]
                displays[seat][g] = None
        emit(ev, "pluck_resolved", **fields)
        maybe_activate_shield(st, ev, seat, [t["seat"] for t in targets] + [seat])
        return cids
    for c in cids:
        learn_all(st, c)
    emit(ev, "pluck_resolved", **fields)
    penalty = draw_card(st, ev)
    if penalty is None:
        emit(ev, "penalty_added", seat=seat, slot=None, skipped=True)
    else:
        slot = add_card(st, seat, penalty)
        emit(ev, "penalty_added", seat=seat, slot=slot, skipped=False)
    return None
