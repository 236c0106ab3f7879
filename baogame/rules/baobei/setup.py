"""Options, stacked deals, ``start`` and dealing a round (BB-3, BB-25.1 – BB-25.3, BB-25.9).

``new_game`` builds the initial state dict. Its keys: ``game``, ``seed``, ``n``, ``threshold``,
``memory_aid``, ``deals`` (the stacked deals, never mutated), ``first_round``, ``round``, ``deciding``,
``participants``, ``round_start``, ``displays`` (card ids or ``None``), ``discard`` (bottom → top),
``under``, ``draw`` (top first), ``drawn``, ``drawn_by``, ``known`` (bitmask per seat), ``touched``
(bitmask), ``active``, ``bao_caller``, ``shield``, ``recycles``, ``final_phase``, ``end_after``
(the seat whose completed turn ends the round), ``round_scores``, ``totals``, ``over``, ``winners``,
``deciding_results``, ``turn``, ``decision``, ``seq``, ``wseq``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core import RuleError, is_int, seed_string, seeded_choice, seeded_shuffle, start_number, start_totals
from .cards import CARDS, CODE_OF, DECK_SIZE, IDS_OF
from .state import Events, State, emit, prev_seat

OPTION_KEYS = {"threshold", "memory_aid", "deal", "deals", "first_player", "start"}
START_KEYS = {"round", "totals", "active", "bao_caller", "shield_active", "recycles"}
DEAL_KEYS = {"hands", "discard", "draw", "under"}


def default_threshold(players: int) -> int:
    """§2.3: 100 for 2 players, 80 for 3–4, 60 for 5–6."""
    return 100 if players == 2 else 80 if players <= 4 else 60


def default_options(players: int) -> dict[str, Any]:
    """BB-25.1: the game options with their defaults."""
    return {"threshold": default_threshold(players), "memory_aid": True}


def _bad(msg: str) -> RuleError:
    return RuleError("invalid_options", msg)


def _check_codes(codes: list[Any], allow_null: bool = False) -> None:
    for c in codes:
        if c is None and allow_null:
            continue
        if not isinstance(c, str) or c not in CARDS:
            raise _bad(f"unknown card code {c!r}")


def _deal_codes(deal: dict[str, Any], start_round: bool) -> list[str]:
    """Validate a stacked deal's structure (BB-25.2 2, 4, 5); return every code it names."""
    if not isinstance(deal, dict) or set(deal) - DEAL_KEYS or "hands" not in deal or "discard" not in deal:
        raise _bad("a stacked deal is {hands, discard, draw?, under?}")
    hands = deal["hands"]
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise _bad("hands must be a list of lists")
    named: list[str] = []
    for h in hands:
        _check_codes(h, allow_null=start_round)
        named += [c for c in h if c is not None]
    discard = deal["discard"]
    if start_round:
        discard = [discard] if isinstance(discard, str) else discard
        if not isinstance(discard, list) or not discard:
            raise _bad("discard must be a non-empty list of codes")
    elif not isinstance(discard, str):
        raise _bad("discard must be one card code")
    else:
        discard = [discard]
    _check_codes(discard)
    named += discard
    for key in ("draw", "under"):
        lst = deal.get(key, [])
        if not isinstance(lst, list):
            raise _bad(f"{key} must be a list")
        _check_codes(lst)
        named += lst
    if not start_round and deal.get("under", []):
        raise _bad("under-cards are only allowed in a start round")
    counts = Counter(named)
    for c, k in counts.items():
        if k > CARDS[c]["copies"]:
            raise _bad(f"the deal names {c} {k} times")
    return named


def _deal_fits(deal: dict[str, Any], n: int, seats: list[int]) -> bool:
    """BB-25.2 3: every seat of ``seats`` gets BB-3.3's count, every other seat ``[]``."""
    hands = deal["hands"]
    per = 5 if len(seats) == 2 else 4
    return len(hands) == n and all(len(hands[s]) == (per if s in seats else 0) for s in range(n))


def validate_options(players: int, options: Any) -> dict[str, Any]:
    """BB-25.1: check ``options``; return them complete (defaults filled in)."""
    if not is_int(players) or not 2 <= players <= 6:
        raise _bad("a game has 2 to 6 players")
    if not isinstance(options, dict):
        raise _bad("options must be an object")
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise _bad(f"unknown option {sorted(unknown)[0]!r}")
    opts = default_options(players)
    if "threshold" in options:
        if not is_int(options["threshold"]) or options["threshold"] <= 0:
            raise _bad("threshold must be a positive integer")
        opts["threshold"] = options["threshold"]
    if "memory_aid" in options:
        if not isinstance(options["memory_aid"], bool):
            raise _bad("memory_aid must be a boolean")
        opts["memory_aid"] = options["memory_aid"]
    if "deal" in options and "deals" in options:
        raise _bad("give deal or deals, not both")
    deals = [options["deal"]] if "deal" in options else options.get("deals", [])
    if not isinstance(deals, list):
        raise _bad("deals must be a list")
    start = options.get("start")
    if "start" in options:
        _validate_start(players, start, deals)
    for i, d in enumerate(deals):
        _deal_codes(d, start_round=(i == 0 and start is not None))
        if i == 0 and start is not None:
            if len(d["hands"]) != players or any(len(h) < 1 for h in d["hands"]):
                raise _bad("a start deal names at least one slot per seat")
        elif i == 0:
            if not _deal_fits(d, players, list(range(players))):
                raise _bad("each hand must hold exactly the dealt number of cards")
        elif not _deal_fits(d, players, list(range(players))) and not _could_be_deciding(d, players):
            raise _bad(f"stacked deal {i} fits neither a normal nor a deciding round")
    if "first_player" in options:
        fp = options["first_player"]
        if not is_int(fp) or not 0 <= fp < players:
            raise _bad("first_player must be a seat")
    opts["deals"] = deals
    return opts


def _could_be_deciding(deal: dict[str, Any], n: int) -> bool:
    hands = deal["hands"]
    seats = [s for s in range(n) if hands[s]] if len(hands) == n else []
    return len(seats) >= 2 and _deal_fits(deal, n, seats)


def _validate_start(n: int, start: Any, deals: list[Any]) -> None:
    """BB-25.3: the ``start`` option."""
    if not deals:
        raise _bad("start needs a stacked deal")
    if not isinstance(start, dict) or set(start) - START_KEYS or "active" not in start:
        raise _bad("start is {round?, totals?, active, bao_caller?, shield_active?, recycles?}")
    a = start["active"]
    if not is_int(a) or not 0 <= a < n:
        raise _bad("start.active must be a seat")
    start_number(start, "round")
    start_totals(start, n, "one integer per seat")
    c = start.get("bao_caller")
    if c is not None and (not is_int(c) or not 0 <= c < n or c == a):
        raise _bad("start.bao_caller must be null or a seat other than start.active")
    s = start.get("shield_active", False)
    if not isinstance(s, bool) or (s and c is None):
        raise _bad("start.shield_active must be a boolean, true only with a caller")
    k = start.get("recycles", 0)
    if not is_int(k) or k not in (0, 1):
        raise _bad("start.recycles must be 0 or 1")


def _ids_for(codes: list[str], free: dict[str, list[int]]) -> list[int]:
    return [free[c].pop(0) for c in codes]


def new_game(players: int, options: dict[str, Any], seed: str | int) -> State:
    """A new game state with round 1 (or ``start.round``) laid out; ``flow.open_round`` opens it."""
    seed_s = seed_string(seed)
    opts = validate_options(players, options)
    start = options.get("start")
    first_round = start.get("round", 1) if start else 1
    st: State = {
        "game": "baobei",
        "seed": seed_s,
        "n": players,
        "threshold": opts["threshold"],
        "memory_aid": opts["memory_aid"],
        "deals": opts["deals"],
        "first_round": first_round,
        "round": first_round,
        "deciding": False,
        "participants": list(range(players)),
        "round_start": 0,
        "displays": [[] for _ in range(players)],
        "discard": [],
        "under": [],
        "draw": [],
        "drawn": [],
        "drawn_by": None,
        "known": [0] * players,
        "touched": 0,
        "active": None,
        "bao_caller": None,
        "shield": False,
        "recycles": 0,
        "final_phase": None,
        "end_after": None,
        "round_scores": None,
        "totals": list(start.get("totals", [0] * players)) if start else [0] * players,
        "over": False,
        "winners": [],
        "deciding_results": [],
        "turn": None,
        "decision": None,
        "seq": 0,
        "wseq": 0,
    }
    deal_round(st, [], list(range(players)), False, options.get("first_player"), start)
    return st


def _lay_out(st: State, deal: dict[str, Any] | None, start_round: bool) -> None:
    """Place the cards of a round: stacked (BB-25.2) or shuffled from the seed (BB-25.9)."""
    n = st["n"]
    key = f"baobei:{st['seed']}:round:{st['round']}"
    if deal is None:
        cards = seeded_shuffle(list(range(DECK_SIZE)), f"{key}:deal")
        per = 5 if len(st["participants"]) == 2 else 4
        displays: list[list[int | None]] = [[] for _ in range(n)]
        i = 0
        for s in st["participants"]:
            displays[s] = list(cards[i : i + per])
            i += per
        st["displays"] = displays
        st["discard"] = [cards[i]]
        st["under"] = []
        st["draw"] = cards[i + 1 :]
        return
    free = {c: list(ids) for c, ids in IDS_OF.items()}
    displays = []
    for h in deal["hands"]:
        displays.append([None if c is None else free[c].pop(0) for c in h])
    discard = deal["discard"]
    discard = [discard] if isinstance(discard, str) else discard
    st["displays"] = displays
    st["discard"] = _ids_for(discard, free)
    st["draw"] = _ids_for(deal.get("draw", []), free)
    st["under"] = _ids_for(deal.get("under", []), free) if start_round else []
    rest = sorted(i for ids in free.values() for i in ids)
    if rest:
        st["draw"] += seeded_shuffle(rest, f"{key}:rest")


def deal_round(
    st: State,
    ev: Events,
    participants: list[int],
    deciding: bool,
    first_player: int | None = None,
    start: dict[str, Any] | None = None,
) -> None:
    """BB-3: lay out round ``st["round"]`` for ``participants`` and reset the round state; with
    ``start`` (BB-25.3) also set the caller, Shield, recycle count and active seat."""
    st["participants"] = list(participants)
    st["deciding"] = deciding
    idx = st["round"] - st["first_round"]
    deal = st["deals"][idx] if idx < len(st["deals"]) else None
    if deal is not None and start is None and not _deal_fits(deal, st["n"], participants):
        raise RuleError("invalid_options", f"stacked deal {idx} does not fit round {st['round']}'s seats")
    _lay_out(st, deal, start is not None)
    st.update(
        known=[0] * st["n"],
        touched=0,
        drawn=[],
        drawn_by=None,
        bao_caller=None,
        shield=False,
        recycles=0,
        final_phase=None,
        end_after=None,
        active=None,
        turn=None,
        decision=None,
    )
    if start is not None:
        first = first_player if first_player is not None else start["active"]
    elif first_player is not None:
        first = first_player
    else:
        first = None
    if first is None:
        m = len(participants)
        first = participants[seeded_choice(m, f"baobei:{st['seed']}:round:{st['round']}:first")]
    st["round_start"] = first
    emit(
        ev,
        "round_started",
        round=st["round"],
        deciding=deciding,
        participants=list(participants),
        slot_counts=[len(d) for d in st["displays"]],
        starting_seat=start["active"] if start else first,
        draw_size=len(st["draw"]),
        discard_top=CODE_OF[st["discard"][-1]],
        under_count=len(st["under"]),
        totals=list(st["totals"]),
    )
    if start is not None:
        st["bao_caller"] = start.get("bao_caller")
        st["shield"] = start.get("shield_active", False)
        st["recycles"] = start.get("recycles", 0)
        if st["bao_caller"] is not None:
            st["end_after"] = prev_seat(st, st["bao_caller"])
        st["active"] = start["active"]
