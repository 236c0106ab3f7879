"""The wire format of actions (BH-19, BH-20) as small frozen dataclasses and, for those that carry
nothing but their type, the members of one enum; and its shape check."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any

from baogame.rules.core import RuleError


class Plain(Enum):
    """The actions that carry nothing but their type: one member each (BH-20.2 to BH-20.4, BH-20.6,
    BH-20.8)."""

    KEEP_EMPEROR = "keep_emperor"
    PASS_EMPEROR = "pass_emperor"
    DECLARE_ALONE = "declare_alone"
    NO_DECLARATION = "no_declaration"
    PASS = "pass"

    @property
    def type(self) -> str:
        """The action's wire type, as the other actions name it."""
        return str(self.value)


@dataclass(frozen=True)
class GiveTribute:
    """BH-20.1: the cards given as tribute."""

    cards: tuple[str, ...]
    type = "give_tribute"


@dataclass(frozen=True)
class Pledge:
    """BH-20.5: for or against the emperor."""

    side: str
    type = "pledge"


@dataclass(frozen=True)
class Play:
    """BH-20.7: the cards played, and whether the player asks the others not to beat them."""

    cards: tuple[str, ...]
    no_beat_request: bool = False
    type = "play"


@dataclass(frozen=True)
class GuessPartner:
    """BH-20.9: the seat guessed to be the emperor's partner."""

    seat: int
    type = "guess_partner"


Action = Plain | GiveTribute | Pledge | Play | GuessPartner


def _wire_fields(
    action: type[GiveTribute | Pledge | Play | GuessPartner],
) -> tuple[frozenset[str], frozenset[str]]:
    """(required fields, optional fields) of a type on the wire: its dataclass fields, those with a
    default optional."""
    found = dataclasses.fields(action)
    return (
        frozenset(f.name for f in found if f.default is dataclasses.MISSING),
        frozenset(f.name for f in found if f.default is not dataclasses.MISSING),
    )


#: BH-20: each type with (required fields, optional fields).
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    **{a.type: (frozenset(), frozenset()) for a in Plain},
    **{a.type: _wire_fields(a) for a in (GiveTribute, Pledge, Play, GuessPartner)},
}

#: The plain actions by wire type.
PLAIN: dict[str, Plain] = {a.type: a for a in Plain}

#: BH-19.3 step 3: the phase in which each type is accepted.
PHASES: dict[str, tuple[str, ...]] = {
    "give_tribute": ("tribute",),
    "keep_emperor": ("offer",),
    "pass_emperor": ("offer",),
    "declare_alone": ("declare",),
    "pledge": ("declare",),
    "no_declaration": ("declare",),
    "play": ("play",),
    "pass": ("play",),
    "guess_partner": ("declare", "play"),
}


def _card_list(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RuleError("malformed_action", "a card list must be an array of strings")
    return tuple(value)


def from_wire(wire: Any) -> tuple[Action, bool]:
    """BH-19.3 step 1: parse a wire action into (action, timeout flag) or raise the shape error."""
    if not isinstance(wire, dict):
        raise RuleError("malformed_action", "an action must be a JSON object")
    kind = wire.get("type")
    if not isinstance(kind, str):
        raise RuleError("malformed_action", 'the action has no string "type"')
    if kind not in FIELDS:
        raise RuleError("unknown_action_type", f"there is no action type {kind[:40]!r}")
    required, optional = FIELDS[kind]
    keys = set(wire) - {"type"}
    timeout = wire.get("timeout", False)
    if not isinstance(timeout, bool):
        raise RuleError("malformed_action", '"timeout" must be a boolean')
    keys.discard("timeout")
    if not required <= keys:
        raise RuleError("malformed_action", f"{kind} needs the fields {sorted(required)}")
    extra = keys - required - optional
    if extra:
        raise RuleError("malformed_action", f"{kind} takes no field {sorted(extra)[0]!r}")
    if kind in PLAIN:
        return PLAIN[kind], timeout
    if kind == "give_tribute":
        return GiveTribute(_card_list(wire["cards"])), timeout
    if kind == "play":
        no_beat = wire.get("no_beat_request", False)
        if not isinstance(no_beat, bool):
            raise RuleError("malformed_action", '"no_beat_request" must be a boolean')
        return Play(_card_list(wire["cards"]), no_beat), timeout
    if kind == "pledge":
        side = wire["side"]
        if side not in ("support", "oppose") or not isinstance(side, str):
            raise RuleError("malformed_action", '"side" must be "support" or "oppose"')
        return Pledge(side), timeout
    seat = wire["seat"]
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RuleError("malformed_action", '"seat" must be an integer')
    return GuessPartner(seat), timeout
