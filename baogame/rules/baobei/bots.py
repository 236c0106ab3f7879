"""Bots for the bench, tests and absent players: each is ``(view, rng) -> wire action`` and uses only
the seat's own ``view()`` (BB-25.6). ``random`` plays a random legal action; ``memory`` plays on what
it has seen."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from typing import Any

from .cards import CARDS

View = dict[str, Any]
Action = dict[str, Any]
UNKNOWN_VALUE = 6.5  # mean card value of the deck, for unknown cards


class _Pic:
    """Public facts of a view that bots need to build legal actions."""

    def __init__(self, v: View) -> None:
        self.v = v
        self.me: int = v["seat"]
        self.d = v["decision"]
        self.did: str = self.d["decision_id"]
        self.displays: list[list[Any]] = v["displays"]
        self.parts: list[int] = v["participants"]
        self.touched = {(p["seat"], p["slot"]) for p in v["ability_touched"]}

    def own(self) -> list[int]:
        return [k for k, c in enumerate(self.displays[self.me]) if c is not None]

    def protected(self, seat: int) -> bool:
        return bool(self.v["shield_active"]) and seat == self.v["bao_caller"] and seat != self.me

    def positions(self, free: bool = False, others: bool = False) -> list[tuple[int, int]]:
        out = []
        for s in self.parts:
            if others and s == self.me:
                continue
            for k, c in enumerate(self.displays[s]):
                if c is None or self.protected(s) and (free or s != self.me):
                    continue
                if free and (s, k) in self.touched:
                    continue
                out.append((s, k))
        return out

    def act(self, atype: str, **fields: Any) -> Action:
        return {"type": atype, "decision_id": self.did, **fields}


def _pos(p: tuple[int, int]) -> dict[str, int]:
    return {"seat": p[0], "slot": p[1]}


def _single_pluck(pic: _Pic, target: tuple[int, int], gift: int | None) -> Action:
    return pic.act("pluck", kind="single", targets=[_pos(target)], gifts=[gift])


def _ability_use(pic: _Pic, rng: random.Random) -> Action | None:
    """A random legal ``use_ability`` (or ``None``)."""
    ability = pic.d["context"]["ability"]
    if ability in ("peek", "reveal"):
        ps = [(s, k) for s in pic.parts for k, c in enumerate(pic.displays[s]) if c is not None]
        return pic.act("use_ability", ability=ability, target=_pos(rng.choice(ps))) if ps else None
    if ability in ("blind_swap", "macaw"):
        ps = (
            pic.positions(free=True)
            if ability == "blind_swap"
            else [(s, k) for s in pic.parts for k, c in enumerate(pic.displays[s]) if c is not None]
        )
        for _ in range(10):
            if len(ps) < 2:
                return None
            a, b = rng.sample(ps, 2)
            if a[0] != b[0]:
                return pic.act("use_ability", ability=ability, targets=[_pos(a), _pos(b)])
        return None
    if ability == "toco":
        seats = [s for s in pic.parts if s != pic.me and not pic.protected(s)]
        return pic.act("use_ability", ability="toco", target_seat=rng.choice(seats)) if seats else None
    return pic.act("use_ability", ability="shoebill")


def _shoebill(pic: _Pic, mine_slot: int | None, their: tuple[int, int] | None, order: list[int]) -> Action:
    """Assign drawn cards (indices in ``order``) to the chosen replacements as far as cards last."""
    mine = theirs = None
    it = iter(order)
    if mine_slot is not None:
        c = next(it, None)
        if c is not None:
            mine = {"card": c, "slot": mine_slot}
    if their is not None:
        c = next(it, None)
        if c is not None:
            theirs = {"card": c, "target": _pos(their)}
    return pic.act("shoebill_place", mine=mine, theirs=theirs)


def random_bot(view: View, rng: random.Random) -> Action:
    """A random legal action built from the view."""
    pic = _Pic(view)
    kind, ctx = pic.d["kind"], pic.d["context"]
    own = pic.own()
    if kind == "setup_peek":
        return pic.act("choose_peek", slots=rng.sample(range(ctx["slot_count"]), 2))
    if kind == "turn_action":
        if ctx["can_draw"] and (not ctx["can_take"] or rng.random() < 0.7):
            return pic.act("draw")
        return pic.act("take_discard", slot=rng.choice(own))
    if kind in ("after_draw", "pluck_window"):
        r = rng.random()
        if r < 0.15:
            targets = pic.positions()
            t = rng.choice(targets)
            if t[0] == pic.me:
                return _single_pluck(pic, t, None)
            gifts = [k for k in own if (pic.me, k) != t]
            if gifts:
                return _single_pluck(pic, t, rng.choice(gifts))
        if kind == "pluck_window":
            return pic.act("pass")
        if r < 0.6:
            return pic.act("keep", slot=rng.choice(own))
        return pic.act("discard")
    if kind == "ability":
        use = _ability_use(pic, rng) if rng.random() < 0.6 else None
        return use or pic.act("decline_ability")
    if kind == "macaw_decide":
        return pic.act("macaw_decide", swap=rng.random() < 0.5)
    if kind == "shoebill_place":
        mines = [k for k in own if (pic.me, k) not in pic.touched] if ctx["own_possible"] else []
        theirs = pic.positions(free=True, others=True) if ctx["opponent_possible"] else []
        order = list(range(len(ctx["drawn"])))
        rng.shuffle(order)
        return _shoebill(
            pic, rng.choice(mines) if mines else None, rng.choice(theirs) if theirs else None, order
        )
    return pic.act("end_turn", bao=rng.random() < 0.03)


# --- the memory bot -------------------------------------------------------------------------------


def _val(code: str) -> float:
    return UNKNOWN_VALUE if code == "?" else CARDS[code]["value"]


def _estimate(display: list[Any]) -> float:
    return sum(_val(c) for c in display if c is not None)


def _matches(pic: _Pic, ref: str, seats: list[int]) -> list[tuple[int, int]]:
    fam = CARDS[ref]["family"]
    return [
        (s, k)
        for s in seats
        for k, c in enumerate(pic.displays[s])
        if c not in (None, "?") and CARDS[c]["family"] == fam and not pic.protected(s)
    ]


def _worst_own(pic: _Pic, exclude: Collection[int] = frozenset()) -> int | None:
    """The own slot whose card is worst to keep: highest known value, unknown counted at the mean."""
    own = [k for k in pic.own() if k not in exclude]
    if not own:
        return None
    return max(own, key=lambda k: (_val(pic.displays[pic.me][k]), pic.displays[pic.me][k] == "?"))


def _memory_pluck(pic: _Pic, ref: str) -> Action | None:
    """Pluck when the bot knows a match: own matches first (double if two), else an offensive one."""
    own_m = _matches(pic, ref, [pic.me])
    if len(own_m) >= 2 and len(pic.own()) >= 2:
        return pic.act("pluck", kind="double", targets=[_pos(own_m[0]), _pos(own_m[1])], gifts=[None, None])
    if own_m:
        return _single_pluck(pic, own_m[0], None)
    opp = _matches(pic, ref, [s for s in pic.parts if s != pic.me])
    if opp:
        gift = _worst_own(pic)
        if gift is not None and _val(pic.displays[pic.me][gift]) >= 4:
            return _single_pluck(pic, opp[0], gift)
    return None


def _memory_ability(pic: _Pic) -> Action:
    ability = pic.d["context"]["ability"]
    mine = pic.displays[pic.me]
    unknown = [k for k, c in enumerate(mine) if c == "?"]
    others = [s for s in pic.parts if s != pic.me]
    if ability in ("peek", "reveal"):
        if unknown:
            return pic.act("use_ability", ability=ability, target=_pos((pic.me, unknown[0])))
        if ability == "peek":
            ps = [(s, k) for s in others for k, c in enumerate(pic.displays[s]) if c == "?"]
            if ps:
                return pic.act("use_ability", ability="peek", target=_pos(ps[0]))
    elif ability == "macaw":
        opp = [(s, k) for s in others for k, c in enumerate(pic.displays[s]) if c is not None]
        k = unknown[0] if unknown else _worst_own(pic)  # None only when the display is empty
        if opp and k is not None:
            return pic.act("use_ability", ability="macaw", targets=[_pos((pic.me, k)), _pos(opp[0])])
    elif ability == "blind_swap":
        k = _worst_own(pic)
        if k is not None and _val(mine[k]) >= 8 and (pic.me, k) not in pic.touched:
            opp = [p for p in pic.positions(free=True, others=True)]
            opp.sort(key=lambda p: _val(pic.displays[p[0]][p[1]]))
            if opp and _val(pic.displays[opp[0][0]][opp[0][1]]) < _val(mine[k]):
                return pic.act("use_ability", ability="blind_swap", targets=[_pos((pic.me, k)), _pos(opp[0])])
    elif ability == "toco":
        seats = [s for s in others if not pic.protected(s)]
        if seats:
            best = min(seats, key=lambda s: _estimate(pic.displays[s]))
            return pic.act("use_ability", ability="toco", target_seat=best)
    elif ability == "shoebill":
        k = _worst_own(pic)
        if k is not None and _val(mine[k]) >= 7:
            return pic.act("use_ability", ability="shoebill")
    return pic.act("decline_ability")


def _memory_shoebill(pic: _Pic) -> Action:
    ctx = pic.d["context"]
    drawn = ctx["drawn"]
    order = sorted(range(len(drawn)), key=lambda i: _val(drawn[i]))
    mine_slot = None
    if ctx["own_possible"]:
        free_own = [k for k in pic.own() if (pic.me, k) not in pic.touched]
        mine_slot = max(free_own, key=lambda k: _val(pic.displays[pic.me][k]))
    their = None
    if ctx["opponent_possible"]:
        free_theirs = pic.positions(free=True, others=True)
        their = min(free_theirs, key=lambda p: _val(pic.displays[p[0]][p[1]]))
    if mine_slot is not None and their is not None and len(drawn) == 1:
        if _val(drawn[0]) >= _val(pic.displays[pic.me][mine_slot]):
            mine_slot = None
        else:
            their = None
    return _shoebill(pic, mine_slot, their, order)


def _should_bao(pic: _Pic) -> bool:
    mine = pic.displays[pic.me]
    if any(c == "?" for c in mine):
        return False
    total = _estimate(mine)
    others = [_estimate(pic.displays[s]) for s in pic.parts if s != pic.me]
    return total <= 4 or (total <= 10 and total + 6 <= min(others))


def memory_bot(view: View, rng: random.Random) -> Action:
    """Plays on its own knowledge: plucks known matches, replaces its worst known card, uses
    abilities to learn its cards and calls BAO when its known total is very likely the lowest."""
    pic = _Pic(view)
    kind, ctx = pic.d["kind"], pic.d["context"]
    mine = pic.displays[pic.me]
    if kind == "setup_peek":
        return pic.act("choose_peek", slots=[0, 1])
    if kind == "turn_action":
        top = ctx["discard_top"]
        worst = _worst_own(pic)
        low = CARDS[top]["value"] <= 3
        if (
            ctx["can_take"]
            and worst is not None
            and (not ctx["can_draw"] or low and CARDS[top]["value"] < _val(mine[worst]) - 1)
        ):
            return pic.act("take_discard", slot=worst)
        return pic.act("draw") if ctx["can_draw"] else pic.act("take_discard", slot=pic.own()[0])
    if kind == "after_draw":
        drawn = ctx["drawn"]
        pluck = _memory_pluck(pic, drawn)
        if pluck is not None:
            return pluck
        worst = _worst_own(pic)
        if worst is not None and CARDS[drawn]["value"] < _val(mine[worst]):
            return pic.act("keep", slot=worst)
        return pic.act("discard")
    if kind == "pluck_window":
        return _memory_pluck(pic, ctx["reference"]) or pic.act("pass")
    if kind == "ability":
        return _memory_ability(pic)
    if kind == "macaw_decide":
        a, b = ctx["looked"]
        mine_first = a["position"]["seat"] == pic.me
        m, o = (a, b) if mine_first else (b, a)
        if m["position"]["seat"] != pic.me:
            return pic.act("macaw_decide", swap=False)
        return pic.act("macaw_decide", swap=_val(m["card"]) > _val(o["card"]))
    if kind == "shoebill_place":
        return _memory_shoebill(pic)
    return pic.act("end_turn", bao=_should_bao(pic))


BOTS: dict[str, Callable[[View, random.Random], Action]] = {"random": random_bot, "memory": memory_bot}
DEFAULT_BOT = "memory"
