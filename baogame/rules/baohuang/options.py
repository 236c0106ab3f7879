"""Options, stacked deals and a later start (BH-3.2, BH-3.3, BH-25.1, BH-25.4, BH-25.5)."""

from __future__ import annotations

from typing import Any

from baogame.rules.core import RuleError, is_int, start_number, start_totals

from .cards import COPY_COUNTS, INDEX, N_CODES, sort_cards
from .state import SEATS

#: BH-3.2: every rule option with its default (``deal_limit`` None: no limit, BH-17.6).
DEFAULTS: dict[str, Any] = {"target_score": 30, "deal_limit": None}
SETUP_KEYS = frozenset({"target_score", "deal_limit", "deal", "deals", "start"})


def _bad(message: str) -> RuleError:
    return RuleError("invalid_options", message)


def check_stacked(deal: Any) -> dict[str, Any]:
    """BH-3.3, BH-25.4 item 1: five lists of codes, a sub-multiset of the pack with both marked jokers,
    at least one card per seat. Returns the deal with sorted hands."""
    if not isinstance(deal, dict) or set(deal) != {"hands"}:
        raise _bad('a stacked deal is an object with exactly the key "hands"')
    hands = deal["hands"]
    if not isinstance(hands, list) or len(hands) != SEATS:
        raise _bad("a stacked deal has five hands")
    counts = [0] * N_CODES
    for hand in hands:
        if not isinstance(hand, list) or not hand:
            raise _bad("every seat of a stacked deal needs at least one card")
        for code in hand:
            if not isinstance(code, str) or code not in INDEX:
                raise _bad("a stacked deal names a card code that does not exist")
            counts[INDEX[code]] += 1
    if any(c > p for c, p in zip(counts, COPY_COUNTS, strict=True)):
        raise _bad("a stacked deal holds more copies of a card than the pack has")
    if not counts[INDEX["RJ*"]] or not counts[INDEX["BJ*"]]:
        raise _bad("a stacked deal must contain RJ* and BJ*")
    return {"hands": [sort_cards(h) for h in hands]}


def check_start(start: Any) -> tuple[int, list[int], dict[str, Any] | None]:
    """BH-25.5: (first deal, totals, previous deal's roles and result)."""
    if not isinstance(start, dict) or not set(start) <= {"deal", "totals", "previous"}:
        raise _bad("start takes only the keys deal, totals and previous")
    deal = start_number(start, "deal")
    totals = start_totals(start, SEATS, "five integers")
    prev = start.get("previous")
    if prev is None:
        return deal, totals, None
    if deal < 2:
        raise _bad("start.previous needs start.deal >= 2")
    if (
        not isinstance(prev, dict)
        or not set(prev) <= {"emperor", "partner", "result"}
        or not {"emperor", "result"} <= set(prev)
    ):
        raise _bad("start.previous takes emperor, result and (optionally) partner")
    emperor, partner, result = prev["emperor"], prev.get("partner"), prev["result"]
    if not is_int(emperor) or not 0 <= emperor < SEATS:
        raise _bad("start.previous.emperor must be a seat 0-4")
    if partner is not None and (not is_int(partner) or not 0 <= partner < SEATS or partner == emperor):
        raise _bad("start.previous.partner must be another seat or null")
    if result not in ("won", "lost", "draw") or not isinstance(result, str):
        raise _bad("start.previous.result must be won, lost or draw")
    return deal, totals, {"emperor": emperor, "partner": partner, "result": result}


def check_options(
    players: Any, options: Any
) -> tuple[dict[str, Any], list[dict[str, Any]], int, list[int], dict[str, Any] | None]:
    """BH-25.1: validate everything; return (rule options, stacked deals, first deal, totals, prev)."""
    if players != SEATS or not is_int(players):
        raise _bad("Bao Huang is played by exactly five players (BH-1.1)")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _bad("options must be an object")
    unknown = set(options) - SETUP_KEYS
    if unknown:
        raise _bad(f"unknown option {sorted(map(str, unknown))[0]!r}")
    target = options.get("target_score", DEFAULTS["target_score"])
    if not is_int(target) or target < 1:
        raise _bad("target_score must be an integer >= 1")
    limit = options.get("deal_limit", DEFAULTS["deal_limit"])
    if limit is not None and (not is_int(limit) or limit < 1):
        raise _bad("deal_limit must be an integer >= 1 or null")
    if "deal" in options and "deals" in options:
        raise _bad("give deal or deals, not both")
    if "deal" in options:
        deals = [options["deal"]]
    else:
        deals = options.get("deals", [])
        if not isinstance(deals, list):
            raise _bad("deals must be a list of stacked deals")
    stacked = [check_stacked(d) for d in deals]
    first, totals, prev = check_start(options.get("start", {}))
    rule_options: dict[str, Any] = {"target_score": target}
    if limit is not None:  # a game without a limit keeps the state it always had
        rule_options["deal_limit"] = limit
    return rule_options, stacked, first, totals, prev
