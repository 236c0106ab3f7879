"""One game in simulated time: the bots choose every move, the timing model decides when each person
answers, the clock decides when they run out, and standing orders answer what they can.

The loop is an event queue over the open decisions: each seat that owes a decision gets the simulated
second at which its answer arrives (its delay, or the moment its bank runs out, or the end of a
plucking window's fixed reaction period), and the earliest arrival is applied. An order that answers
a decision answers it the moment it opens. No database, no web server.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from baogame.rules.registry import get_bots, get_engine

from . import model, standing
from .clockwork import Bank, PaceControl, named_controls
from .sittings import GRACE, PER_DECISION, Sittings, weekly

#: The orders a seat keeps between decisions (the others are armed for one answer by the model).
KEPT = ("pass_unbeatable", "pass_trick", "end_turn_when_done")
#: The timing class of plucking windows: fixed reaction periods, the table's, not a seat's bank.
WINDOW = "reaction"


@dataclass
class GameRun:
    """What one simulated game took."""

    players: int
    deals: int
    seconds: float
    #: Per seat: decisions the person had to answer (timeouts included), plucking windows excluded.
    asked: list[int]
    timeouts: int
    #: Decisions answered by standing orders.
    by_orders: int
    #: Plucking-window answers people gave themselves, and windows that lapsed for a seat.
    windows_asked: int = 0
    windows_lapsed: int = 0

    @property
    def days(self) -> float:
        return self.seconds / model.DAY

    @property
    def asked_per_seat_per_deal(self) -> float:
        return sum(self.asked) / self.players / self.deals


@dataclass
class _Owed:
    opened: float
    due: float
    lapsed: bool
    window: bool
    #: Answered at a sitting by a player at the table: their own bank ran only until this moment.
    live_from: float | None = None


@dataclass
class _People:
    """What the people at the table have armed, and which deal each has looked at."""

    orders: list[list[standing.Order]]
    looked: list[int] = field(default_factory=list)


def _key(decision: dict[str, Any], seat: int) -> tuple[str, int]:
    return str(decision.get("decision_id") or decision["kind"]), seat


def _deal(state: dict[str, Any]) -> int:
    return int(state.get("deal") or 1)


def play(
    game: str,
    players: int,
    options: dict[str, Any],
    control: PaceControl,
    *,
    seed: int,
    orders: bool,
    sittings: bool = False,
    max_actions: int = 200_000,
) -> GameRun:
    """Play one seeded game to its end in simulated time under ``control``, with or without orders;
    ``sittings``: the group also meets twice a week to play live (``bench.pace.sittings``)."""
    engine = get_engine(game)
    bots, default = get_bots(game)
    bot = bots[default]
    bot_rng = random.Random(f"pace:bot:{game}:{seed}")
    delay_rng = random.Random(f"pace:delay:{game}:{seed}")
    orders_rng = random.Random(f"pace:orders:{game}:{seed}")
    state = engine.setup(players, options, seed)
    banks = [Bank(control) for _ in range(players)]
    people = _People(
        orders=[_standing_orders(game, state, seat) if orders else [] for seat in range(players)],
        looked=[0] * players,
    )
    group = weekly(game, seed) if sittings else None
    owed: dict[tuple[str, int], _Owed] = {}
    run = GameRun(players=players, deals=1, seconds=0.0, asked=[0] * players, timeouts=0, by_orders=0)
    now = 0.0
    for _ in range(max_actions):
        decisions = engine.pending(state)
        if not decisions:
            run.seconds = now
            run.deals = _deal(state) if game == "baohuang" else 1
            return run
        if orders:
            answered = _answer_by_orders(game, engine, state, decisions, owed, people, bot, bot_rng)
            if answered is not None:
                seat, action = answered
                state, _events = engine.apply(state, seat, action)
                run.by_orders += 1
                continue
        pending_keys = set()
        for decision in decisions:
            for seat in decision["seats"]:
                key = _key(decision, seat)
                pending_keys.add(key)
                if key not in owed:
                    owed[key] = _schedule(decision, banks[seat], control, now, delay_rng, seat, group)
        for key in [k for k in owed if k not in pending_keys]:
            del owed[key]
        key, due = min(owed.items(), key=lambda item: (item[1].due, item[0][1]))
        seat = key[1]
        decision = next(d for d in decisions if seat in d["seats"])
        now = due.due
        fallback = engine.timeout_action(state, seat) if due.lapsed else None
        if due.lapsed and fallback is None:
            raise RuntimeError(f"{game} seed {seed}: no timeout action for seat {seat}")
        action = fallback if fallback is not None else bot(engine.view(state, seat), bot_rng)
        if due.window:
            run.windows_asked += 1
            run.windows_lapsed += due.lapsed
        else:
            if due.live_from is not None:
                banks[seat].charge(due.opened, due.live_from)
            else:
                banks[seat].answer(due.opened, now, timed_out=due.lapsed)
            run.asked[seat] += 1
            run.timeouts += due.lapsed
        if orders and game == "baohuang":
            _after_asked(game, state, seat, decision, action, people, orders_rng, voluntary=not due.lapsed)
        people.looked[seat] = _deal(state)
        del owed[key]
        state, _events = engine.apply(state, seat, action)
    raise RuntimeError(f"{game} seed {seed}: no end after {max_actions} actions")


def _schedule(
    decision: dict[str, Any],
    bank: Bank,
    control: PaceControl,
    now: float,
    rng: random.Random,
    seat: int = 0,
    group: Sittings | None = None,
) -> _Owed:
    """When the seat's answer to a decision opened ``now`` arrives, and whether it lapses instead.

    With sittings, a sitting under way or starting before the answer would come brings it forward: a
    player at the table answers 20 s after the decision reaches them there (on the live control), the
    bot answers for an absent player once the grace period is over (on their own bank).
    """
    wait = model.delay(rng)
    window = decision["timing"] == WINDOW
    sitting = group.at_or_after(now) if group is not None else None
    reaction = control.reaction
    if sitting is not None and sitting.start <= now:
        reaction = _LIVE_REACTION  # a window opened inside a sitting is the live control's
    close = now + reaction if window else bank.runs_out_at(now)
    if group is not None and sitting is not None and sitting.start < min(now + wait, close):
        begin = max(now, sitting.start)
        present = group.present(sitting, seat)
        answer = begin + PER_DECISION if present else max(now, sitting.start + GRACE)
        if answer < min(sitting.end, close) or (present and not window):
            return _Owed(now, answer, False, window, live_from=begin if present and not window else None)
    if now + wait >= close:
        return _Owed(now, close, True, window)
    return _Owed(now, now + wait, False, window)


#: A plucking window's length inside a sitting (the live control's reaction).
_LIVE_REACTION = named_controls()["live"].reaction


def _standing_orders(game: str, state: dict[str, Any], seat: int) -> list[standing.Order]:
    """The orders every seat keeps armed for the whole game under the model."""
    kind = "pass_unbeatable" if game == "baohuang" else "end_turn_when_done"
    return [standing.make(game, state, seat, kind)]


def _answer_by_orders(
    game: str,
    engine: Any,
    state: dict[str, Any],
    decisions: list[dict[str, Any]],
    owed: dict[tuple[str, int], _Owed],
    people: _People,
    bot: Any,
    bot_rng: random.Random,
) -> tuple[int, dict[str, Any]] | None:
    """The first (seat, action) that a standing order answers among decisions not yet asked."""
    for decision in decisions:
        for seat in decision["seats"]:
            if _key(decision, seat) in owed:
                continue
            armed = list(people.orders[seat])
            if game == "baohuang" and decision["timing"] == "declare" and people.looked[seat] == _deal(state):
                # Answered ahead at the seat's first look at this deal: what it would answer now.
                kind, answer = standing.AHEAD[bot(engine.view(state, seat), bot_rng)["type"]]
                armed.append(standing.make(game, state, seat, kind, {"answer": answer}))
            if decision["timing"] == WINDOW or decision["kind"] == "end_turn":
                # Bao Bei: people let orders pass a window or end a turn only when they would not
                # pluck or call Bao anyway (the bot's choice says which).
                choice = bot(engine.view(state, seat), bot_rng)
                if choice["type"] != "pass" and not (choice["type"] == "end_turn" and not choice.get("bao")):
                    continue
                if decision["timing"] == WINDOW:
                    armed.append(standing.make(game, state, seat, "skip_windows"))
            action, left = standing.answer(game, state, seat, armed)
            if action is not None:
                people.orders[seat] = [o for o in left if o["kind"] in KEPT]
                return seat, action
    return None


def _after_asked(
    game: str,
    state: dict[str, Any],
    seat: int,
    decision: dict[str, Any],
    action: dict[str, Any],
    people: _People,
    rng: random.Random,
    *,
    voluntary: bool,
) -> None:
    """After a voluntary pass, half the time the seat arms "pass to the end of this trick"."""
    if decision["kind"] != "turn" or action["type"] != "pass" or not voluntary:
        return
    if rng.random() < model.PASS_TRICK_SHARE:
        # Armed with the pass, on the state the seat sees when it passes (the trick it passes in).
        people.orders[seat] = standing.arm(game, state, seat, people.orders[seat], "pass_trick")
