"""State helpers: copying, seats, positions, knowledge, the Shield, draws and recycling.

The state is a plain JSON-compatible dict (see ``setup.new_game`` for its keys). Cards are internal
ids (``cards.CODE_OF``); knowledge (BB-25.6) and ability-touched status (BB-9.6) are bitmasks over
card ids, so both follow the card, never the slot.
"""

from __future__ import annotations

from typing import Any

from ..core import seeded_shuffle
from .cards import CODE_OF

State = dict[str, Any]
Events = list[dict[str, Any]]


def _deep(x: Any) -> Any:
    """Copy a small nested structure of dicts and lists."""
    if type(x) is dict:
        return {k: _deep(v) for k, v in x.items()}
    if type(x) is list:
        return [_deep(v) for v in x]
    return x


def clone(st: State) -> State:
    """A copy of ``st`` that shares nothing mutable with it (``deals`` is never mutated)."""
    new = dict(st)
    new["displays"] = [list(d) for d in st["displays"]]
    for key in ("discard", "under", "draw", "drawn", "known", "totals", "participants", "winners"):
        new[key] = list(st[key])
    for key in ("turn", "decision", "final_phase", "round_scores", "deciding_results"):
        new[key] = _deep(st[key])
    return new


def emit(ev: Events, etype: str, visible_to: str | list[int] = "all", **fields: Any) -> dict[str, Any]:
    """Append an event ``{"type", "visible_to", **fields}`` and return it."""
    e = {"type": etype, "visible_to": visible_to}
    e.update(fields)
    ev.append(e)
    return e


# --- seats -----------------------------------------------------------------------------------


def next_seat(st: State, seat: int) -> int:
    """BB-1.1: the next participant clockwise (higher seat number, wrapping)."""
    parts: list[int] = st["participants"]
    for p in parts:
        if p > seat:
            return p
    return parts[0]


def prev_seat(st: State, seat: int) -> int:
    """The participant immediately before ``seat`` in turn order."""
    parts: list[int] = st["participants"]
    for p in reversed(parts):
        if p < seat:
            return p
    return parts[-1]


def turn_order_from(st: State, seat: int) -> list[int]:
    """The participants in turn order starting with the one after ``seat``."""
    parts = st["participants"]
    return [p for p in parts if p > seat] + [p for p in parts if p <= seat]


def card_count(st: State, seat: int) -> int:
    """BB-4: the number of occupied slots of a display."""
    return sum(1 for c in st["displays"][seat] if c is not None)


def occupied(st: State, seat: int) -> list[int]:
    """The occupied slots of ``seat``'s display, ascending."""
    return [k for k, c in enumerate(st["displays"][seat]) if c is not None]


def is_position(st: State, seat: Any, slot: Any) -> bool:
    """Whether (seat, slot) exists: a participant's seat and one of its slots."""
    return seat in st["participants"] and 0 <= slot < len(st["displays"][seat])


def add_card(st: State, seat: int, cid: int) -> int:
    """BB-4.4: put a card into the lowest-numbered empty slot, or append a slot; return the slot."""
    disp = st["displays"][seat]
    for k, c in enumerate(disp):
        if c is None:
            disp[k] = cid
            return k
    disp.append(cid)
    return len(disp) - 1


# --- knowledge (BB-25.6) -----------------------------------------------------------------------


def learn(st: State, seat: int, cid: int) -> None:
    """``seat`` now knows card ``cid`` (which lies in a display)."""
    st["known"][seat] |= 1 << cid


def learn_all(st: State, cid: int) -> None:
    """Every seat (including seats sitting out) now knows ``cid`` (BB-25.6 1)."""
    bit = 1 << cid
    known = st["known"]
    for s in range(len(known)):
        known[s] |= bit


def forget(st: State, cid: int) -> None:
    """Knowledge of ``cid`` ends: it has left the displays (BB-25.6 1)."""
    mask = ~(1 << cid)
    known = st["known"]
    for s in range(len(known)):
        known[s] &= mask


def knows(st: State, seat: int, cid: int) -> bool:
    """Whether ``seat`` knows card ``cid``."""
    return bool(st["known"][seat] >> cid & 1)


# --- ability-touched (BB-9.6) and the Shield (BB-11) ---------------------------------------------


def touch(st: State, cid: int) -> None:
    """BB-9.6 a: the card becomes ability-touched."""
    st["touched"] |= 1 << cid


def is_touched(st: State, cid: int) -> bool:
    """BB-9.6: whether an ability already swapped, moved, placed or replaced the card this turn."""
    return bool(st["touched"] >> cid & 1)


def shield_applies(st: State) -> bool:
    """BB-11.7: the Shield is active and not lifted by the automatic final phase."""
    return st["shield"] and st["final_phase"] is None


def protected(st: State, seat: int, user: int) -> bool:
    """BB-11.6: cards of display ``seat`` are protected against participant ``user``."""
    return seat == st["bao_caller"] and user != seat and shield_applies(st)


def maybe_activate_shield(st: State, ev: Events, actor: int, changed_seats: list[int]) -> None:
    """BB-11.3: after a complete action of ``actor`` that changed ``changed_seats``' displays."""
    caller = st["bao_caller"]
    if (
        caller is not None
        and not st["shield"]
        and st["final_phase"] is None
        and actor != caller
        and caller in changed_seats
    ):
        st["shield"] = True
        emit(ev, "shield_activated", seat=caller)


# --- draws, recycling, the automatic final phase (BB-12) ------------------------------------------


def recyclable(st: State) -> int:
    """BB-12.2: how many cards a recycling would produce now."""
    return len(st["discard"]) - 1 + len(st["under"])


def can_draw(st: State) -> bool:
    """Whether a card can be drawn, by recycling if needed (BB-5.3)."""
    return bool(st["draw"]) or recyclable(st) > 0


def begin_final_phase(st: State, ev: Events, cause: str) -> None:
    """BB-12.5 / BB-12.8: the automatic final phase begins with the active player as anchor."""
    if st["final_phase"] is not None:
        return
    anchor = st["active"]
    st["final_phase"] = {"anchor": anchor, "cause": cause}
    if st["bao_caller"] is None:
        st["end_after"] = prev_seat(st, anchor)
    emit(ev, "automatic_final_phase", anchor=anchor, cause=cause)


def draw_card(st: State, ev: Events) -> int | None:
    """BB-12.1 – BB-12.8: take the top draw-pile card, recycling first if needed; ``None`` if impossible."""
    if not st["draw"]:
        if recyclable(st) <= 0:
            begin_final_phase(st, ev, "exhaustion")
            return None
        cards = sorted(st["discard"][:-1] + st["under"])
        k = st["recycles"] + 1
        st["draw"] = seeded_shuffle(cards, f"baobei:{st['seed']}:round:{st['round']}:recycle:{k}")
        st["discard"] = st["discard"][-1:]
        st["under"] = []
        st["recycles"] = k
        emit(ev, "recycled", recycles=k, draw_size=len(st["draw"]))
        cid: int = st["draw"].pop(0)
        if k == 2:
            begin_final_phase(st, ev, "recycling")
        return cid
    top: int = st["draw"].pop(0)
    return top


def code(cid: int) -> str:
    """The wire code of an internal card id."""
    return CODE_OF[cid]


def pos(seat: int, slot: int) -> dict[str, int]:
    """A position in wire form (BB-20.5)."""
    return {"seat": seat, "slot": slot}
