"""``legal_actions`` (BB-25.5 2): every action ``apply`` would accept from a seat now, each once.

Candidates are generated from the decision and public positions, then filtered through the very
validation ``apply`` uses, so the two always agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice, permutations, product
from typing import Any

from ..core import RuleError
from .apply import validate
from .defaults import owns_open
from .state import State, occupied, pos, protected


def _positions(st: State) -> list[dict[str, int]]:
    return [pos(s, k) for s in st["participants"] for k in occupied(st, s)]


def _plucks(st: State, seat: int, did: str) -> Iterator[dict[str, Any]]:
    """Every accepted pluck, built to satisfy BB-22's checks 1–9 (checked by the property tests)."""
    own = occupied(st, seat)
    if not own:
        return
    targets = [p for p in _positions(st) if not protected(st, p["seat"], seat)]
    base = {"type": "pluck", "decision_id": did}
    for t in targets:
        for g in [None] if t["seat"] == seat else own:
            yield {**base, "kind": "single", "targets": [t], "gifts": [g]}
    if len(own) < 2:
        return
    for a, b in permutations(targets, 2):
        own_t = {p["slot"] for p in (a, b) if p["seat"] == seat}
        spare = [k for k in own if k not in own_t]
        ga = [None] if a["seat"] == seat else spare
        gb = [None] if b["seat"] == seat else spare
        for x, y in product(ga, gb):
            if x is None or x != y:
                yield {**base, "kind": "double", "targets": [a, b], "gifts": [x, y]}


def _candidates(st: State, seat: int) -> Iterator[dict[str, Any]]:
    d = st["decision"]
    did = d["id"]
    kind = d["kind"]
    own = occupied(st, seat)
    if kind == "setup_peek":
        for a, b in permutations(range(len(st["displays"][seat])), 2):
            yield {"type": "choose_peek", "decision_id": did, "slots": [a, b]}
    elif kind == "turn_action":
        yield {"type": "draw", "decision_id": did}
        for k in own:
            yield {"type": "take_discard", "decision_id": did, "slot": k}
    elif kind == "after_draw":
        for k in own:
            yield {"type": "keep", "decision_id": did, "slot": k}
        yield {"type": "discard", "decision_id": did}
        yield from _plucks(st, seat, did)
    elif kind == "pluck_window":
        yield {"type": "pass", "decision_id": did}
        yield from _plucks(st, seat, did)
    elif kind == "ability":
        yield {"type": "decline_ability", "decision_id": did}
        yield from _ability_uses(st, d["data"]["ability"], did)
    elif kind == "macaw_decide":
        for swap in (True, False):
            yield {"type": "macaw_decide", "decision_id": did, "swap": swap}
    elif kind == "shoebill_place":
        n = len(st["drawn"])
        mines: list[Any] = [None] + [{"card": i, "slot": k} for i in range(n) for k in own]
        theirs: list[Any] = [None] + [
            {"card": i, "target": p} for i in range(n) for p in _positions(st) if p["seat"] != seat
        ]
        for m, t in product(mines, theirs):
            yield {"type": "shoebill_place", "decision_id": did, "mine": m, "theirs": t}
    elif kind == "end_turn":
        for bao in (False, True):
            yield {"type": "end_turn", "decision_id": did, "bao": bao}


def _ability_uses(st: State, ability: str, did: str) -> Iterator[dict[str, Any]]:
    base = {"type": "use_ability", "decision_id": did, "ability": ability}
    if ability in ("peek", "reveal"):
        for p in _positions(st):
            yield {**base, "target": p}
    elif ability in ("blind_swap", "macaw"):
        for a, b in permutations(_positions(st), 2):
            if a["seat"] != b["seat"]:
                yield {**base, "targets": [a, b]}
    elif ability == "toco":
        for s in st["participants"]:
            yield {**base, "target_seat": s}
    else:
        yield base


def legal_actions(st: State, seat: int) -> list[dict[str, Any]]:
    """BB-25.5 2: every accepted action of ``seat`` (without ``commit_end_turn`` / ``timeout``)."""
    if not owns_open(st, seat):
        return []
    out = []
    kind = st["decision"]["kind"]
    if kind in ("after_draw", "pluck_window"):
        # Plucks are built to pass validation (the property tests check it), so only the few other
        # candidates are validated; plucks are listed first. One probe validates the decision itself.
        probe = {"type": "pass" if kind == "pluck_window" else "discard", "decision_id": st["decision"]["id"]}
        validate(st, seat, probe)
        others = []
        for act in _candidates(st, seat):
            if act["type"] == "pluck":
                out.append(act)
                continue
            try:
                validate(st, seat, act)
            except RuleError:
                continue
            others.append(act)
        return out + others
    for act in _candidates(st, seat):
        try:
            validate(st, seat, act)
        except RuleError:
            continue
        out.append(act)
    return out


def _pluck_count(st: State, seat: int) -> int:
    """How many actions ``_plucks`` yields, counted without building them (same cases, BB-22)."""
    own = len(occupied(st, seat))
    if not own:
        return 0
    others = sum(1 for p in _positions(st) if p["seat"] != seat and not protected(st, p["seat"], seat))
    singles = own + others * own  # an own target takes no gift; another's takes one of ``own`` gifts
    if own < 2:
        return singles
    spare = own - 1  # gifts left when one of the two targets is an own slot
    doubles = (
        own * (own - 1)  # two own targets: no gifts
        + 2 * own * others * spare  # one own, one other's (either order): a gift from the spare slots
        + others * (others - 1) * own * (own - 1)  # two others': two different gifts
    )
    return singles + doubles


def legal_page(st: State, seat: int, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
    """``(len(legal_actions(st, seat)), legal_actions(st, seat)[offset:offset + limit])`` without
    building every double pluck: plucks are counted, and only the asked-for page is built."""
    if not owns_open(st, seat):
        return 0, []
    kind = st["decision"]["kind"]
    if kind not in ("after_draw", "pluck_window"):
        actions = legal_actions(st, seat)
        return len(actions), actions[offset : offset + limit]
    probe = {"type": "pass" if kind == "pluck_window" else "discard", "decision_id": st["decision"]["id"]}
    validate(st, seat, probe)
    plucks = _pluck_count(st, seat)
    others = []
    for act in _candidates(st, seat):
        if act["type"] == "pluck":
            break  # for these two kinds the few other candidates come first, then only plucks
        try:
            validate(st, seat, act)
        except RuleError:
            continue
        others.append(act)
    page = list(islice(_plucks(st, seat, st["decision"]["id"]), offset, offset + limit))
    if len(page) < limit:
        start = max(0, offset - plucks)
        page += others[start : start + limit - len(page)]
    return plucks + len(others), page
