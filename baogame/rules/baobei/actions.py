"""Wire format of actions (BB-20.3, BB-20.5, BB-22) and the shape check of BB-22.0 step 1.

Actions travel as plain dicts exactly as in BB-22; ``check_shape`` raises ``malformed_action`` for
anything that is not a well-formed action object. Everything after step 1 lives in ``apply``.
"""

from __future__ import annotations

from typing import Any

from ..core import RuleError
from .cards import ABILITY_KEYS

Action = dict[str, Any]

#: Required fields per action type (besides ``type`` and ``decision_id``) and their checkers' names.
FIELDS: dict[str, dict[str, str]] = {
    "choose_peek": {"slots": "int_list"},
    "draw": {},
    "keep": {"slot": "int"},
    "discard": {},
    "take_discard": {"slot": "int"},
    "pluck": {"kind": "pluck_kind", "targets": "pos_list", "gifts": "gift_list"},
    "pass": {},
    "use_ability": {"ability": "ability"},
    "decline_ability": {},
    "macaw_decide": {"swap": "bool"},
    "shoebill_place": {"mine": "mine", "theirs": "theirs"},
    "end_turn": {"bao": "bool"},
}

#: Extra fields of ``use_ability`` per ability (BB-22, "use_ability").
ABILITY_FIELDS: dict[str, dict[str, str]] = {
    "peek": {"target": "pos"},
    "reveal": {"target": "pos"},
    "blind_swap": {"targets": "pos_list"},
    "macaw": {"targets": "pos_list"},
    "toco": {"target_seat": "int"},
    "shoebill": {},
}


def is_pos(x: Any) -> bool:
    """BB-20.5: ``{"seat": int, "slot": int}`` and nothing else."""
    return type(x) is dict and len(x) == 2 and type(x.get("seat")) is int and type(x.get("slot")) is int


def _ok(kind: str, x: Any) -> bool:
    if kind == "int":
        return type(x) is int
    if kind == "bool":
        return type(x) is bool
    if kind == "int_list":
        return type(x) is list and all(type(i) is int for i in x)
    if kind == "pos":
        return is_pos(x)
    if kind == "pos_list":
        return type(x) is list and all(is_pos(p) for p in x)
    if kind == "gift_list":
        return type(x) is list and all(g is None or type(g) is int for g in x)
    if kind == "pluck_kind":
        return x in ("single", "double")
    if kind == "ability":
        return type(x) is str and x in ABILITY_KEYS
    if kind == "mine":
        return x is None or (
            type(x) is dict and len(x) == 2 and type(x.get("card")) is int and type(x.get("slot")) is int
        )
    if kind == "theirs":
        return x is None or (
            type(x) is dict and len(x) == 2 and type(x.get("card")) is int and is_pos(x.get("target"))
        )
    raise AssertionError(kind)


def check_shape(act: Any) -> None:
    """BB-22.0 step 1: raise ``malformed_action`` unless ``act`` is a well-formed action object."""
    if type(act) is not dict:
        raise RuleError("malformed_action", "an action must be a JSON object")
    atype = act.get("type")
    if type(atype) is not str or atype not in FIELDS:
        raise RuleError("malformed_action", "unknown action type")
    if type(act.get("decision_id")) is not str:
        raise RuleError("malformed_action", "decision_id (a string) is required")
    fields = FIELDS[atype]
    if atype == "use_ability":
        if not _ok("ability", act.get("ability")):
            raise RuleError("malformed_action", "unknown ability")
        fields = {**fields, **ABILITY_FIELDS[act["ability"]]}
    allowed = {"type", "decision_id", "timeout", *fields}
    if atype != "end_turn":
        allowed.add("commit_end_turn")
    for key, val in act.items():
        if key not in allowed:
            raise RuleError("malformed_action", f"field {key!r} is not defined for {atype}")
        if key in ("timeout", "commit_end_turn") and type(val) is not bool:
            raise RuleError("malformed_action", f"{key} must be a boolean")
    for key, kind in fields.items():
        if key not in act or not _ok(kind, act[key]):
            raise RuleError("malformed_action", f"{atype} needs a valid {key!r}")
