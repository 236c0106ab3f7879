"""Small builders for Bao Bei engine tests: stacked deals, ``start`` positions and actions."""

from __future__ import annotations

from typing import Any

import pytest

from baogame.rules.core import RuleError
from baogame.rules.registry import get_engine

E = get_engine("baobei")

HUM, SPARROW, KINGF, MAGPIE, DUCK, IBIS = (
    "hummingbird",
    "sparrow",
    "kingfisher",
    "magpie",
    "mandarin_duck",
    "crested_ibis",
)
WPEL, BPEL, CUCKOO, MACAW, CRANE, PEACOCK = (
    "white_pelican",
    "brown_pelican",
    "cuckoo",
    "macaw",
    "crowned_crane",
    "peacock",
)
GOLDEN, TOCO, SHOEBILL = "golden_toucan", "toco_toucan", "shoebill"


def a_game(
    hands: list[list[Any]],
    discard: Any = SPARROW,
    draw: list[str] | None = None,
    active: int = 0,
    under: list[str] | None = None,
    seed: str = "test",
    **start: Any,
) -> dict:
    """A game begun mid-round (BB-25.3) at the start of ``active``'s turn."""
    deal = {"hands": hands, "discard": discard, "draw": draw or [], "under": under or []}
    return E.setup(len(hands), {"deal": deal, "start": {"active": active, **start}}, seed)


def a_fresh_game(
    hands: list[list[str]],
    discard: str,
    draw: list[str] | None = None,
    first: int = 0,
    seed: str = "test",
    **options: Any,
) -> dict:
    """A game whose round 1 is a stacked deal that begins with the setup peek."""
    deal = {"hands": hands, "discard": discard, "draw": draw or []}
    return E.setup(len(hands), {"deal": deal, "first_player": first, **options}, seed)


def decision(st: dict) -> dict:
    return E.pending(st)[0]


def act(st: dict, seat: int, atype: str, **fields: Any) -> tuple[dict, list[dict]]:
    """Apply ``atype`` from ``seat`` against the open decision."""
    return E.apply(st, seat, {"type": atype, "decision_id": decision(st)["decision_id"], **fields})


def play(st: dict, seat: int, atype: str, **fields: Any) -> dict:
    return act(st, seat, atype, **fields)[0]


def error(st: dict, seat: int, atype: str, **fields: Any) -> str:
    """The error code ``apply`` raises for this action."""
    with pytest.raises(RuleError) as info:
        act(st, seat, atype, **fields)
    return info.value.code


def ref(st: dict) -> dict:
    return E.referee_view(st)


def P(seat: int, slot: int) -> dict[str, int]:  # noqa: N802 - reads like the rules' S1/2
    return {"seat": seat, "slot": slot}


def single(seat: int, slot: int, gift: int | None = None) -> dict[str, Any]:
    return {"kind": "single", "targets": [P(seat, slot)], "gifts": [gift]}


def double(a: tuple[int, int], b: tuple[int, int], gifts: list[int | None]) -> dict[str, Any]:
    return {"kind": "double", "targets": [P(*a), P(*b)], "gifts": gifts}


def kind(st: dict) -> str | None:
    p = E.pending(st)
    return p[0]["kind"] if p else None


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def one_event(events: list[dict], etype: str) -> dict:
    """The single public event of type ``etype`` among ``events``."""
    found = [e for e in events if e["type"] == etype and e["visible_to"] == "all"]
    assert len(found) == 1, (etype, found)
    return found[0]


def pass_all(st: dict) -> dict:
    """Every eligible seat passes the open window."""
    while kind(st) == "pluck_window":
        st = play(st, decision(st)["seats"][0], "pass")
    return st


#: Three 4-card displays used by many rule tests (seat 1 holds no Hummingbird).
FOUR = [[HUM, SPARROW, KINGF, MAGPIE], [DUCK, IBIS, CRANE, PEACOCK], [HUM, SPARROW, KINGF, MAGPIE]]


def rest_of_deck(*used: str) -> list[str]:
    """Every card of the deck except ``used`` (a multiset), in canonical order."""
    from baogame.rules.baobei.cards import CODE_OF

    rest = list(CODE_OF)
    for c in used:
        rest.remove(c)
    return rest
