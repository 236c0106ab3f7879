"""Rebuild a stored game from its seed and move log, and check it against what is stored.

DESIGN.md, "Determinism": ``setup(seed)`` followed by the same actions gives the same state, so a game
can always be rebuilt from its seed and its ``Move`` rows. Every change of state is a ``Move``: moves of
players, bots, deadlines (the stored action carries ``"timeout": true``, which ``apply`` needs to apply
the timeout rules) and the service's automatic passes, so replaying the actions in ``seq`` order
rebuilds the game.

``replay_game`` rebuilds a game; ``verify_game`` compares the rebuilt game with the stored one
(``manage.py verify_games``); ``replay_step`` gives a finished game's state after any number of moves
with the moves as a viewer may know them (the replay page). Problems name the fields and moves that
differ, never their values: a stored state holds face-down cards, and these reports go to logs and
terminals.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from baogame.rules.core import RuleError, visible
from baogame.rules.registry import get_engine

from .models import Game, Move
from .numbering import line_number
from .store import lock_game

State = dict[str, Any]
Event = dict[str, Any]

#: The fields of a Move that a replay reads.
MOVE_FIELDS = ("seq", "public_seq", "seat", "action", "events", "by_timeout", "by_bot", "hidden")


class ReplayRefused(Exception):
    """The engine refused a stored action: the log cannot be replayed past move ``seq``."""

    def __init__(self, seq: int, code: str) -> None:
        super().__init__(f"move {seq} refused by the engine ({code})")
        self.seq = seq
        self.code = code


@dataclass(frozen=True)
class Problem:
    """One way a stored game differs from its replay; ``detail`` names fields and moves, not values."""

    code: str
    detail: str
    seq: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, "seq": self.seq}


@dataclass(frozen=True)
class Discrepancy:
    """A stored game that differs from the replay of its seed and move log."""

    game_id: int
    problems: tuple[Problem, ...]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "problems": [p.to_json() for p in self.problems]}


@dataclass
class Replayed:
    """A game rebuilt from its seed and move log: the final state and each move's events.

    ``state`` is None for a game that was never dealt. ``refused`` is set when the engine refused a
    stored action; ``state`` and ``events`` then stop before that move.
    """

    state: State | None
    events: list[list[Event]] = field(default_factory=list)
    refused: ReplayRefused | None = None


def game_moves(game: Game) -> list[Move]:
    """The game's move log in ``seq`` order, with the fields a replay reads."""
    return list(Move.objects.filter(game=game).order_by("seq").only(*MOVE_FIELDS))


def initial_state(game: Game) -> State:
    """The deal: ``setup`` with the game's players, options and seed."""
    return get_engine(game.engine).setup(game.players, game.options, game.seed)


def replay_moves(
    *, game: Game, moves: list[Move], state: State | None = None
) -> Iterator[tuple[State, list[Event]]]:
    """Apply ``moves`` in order from ``state`` (default: the deal); yield the state and events after each.

    Raises ``ReplayRefused`` when the engine refuses a stored action.
    """
    engine = get_engine(game.engine)
    current = initial_state(game) if state is None else state
    for move in moves:
        try:
            current, events = engine.apply(current, move.seat, move.action)
        except RuleError as exc:
            raise ReplayRefused(move.seq, exc.code) from None
        except Exception as exc:  # noqa: BLE001 - a damaged log must be reported, not stop the check
            raise ReplayRefused(move.seq, type(exc).__name__) from None
        yield current, events


def state_after(*, game: Game, moves: list[Move], step: int) -> State:
    """The state after the first ``step`` moves of ``moves`` (0: the deal)."""
    state = initial_state(game)
    for after, _ in replay_moves(game=game, moves=moves[:step], state=state):
        state = after
    return state


@dataclass(frozen=True)
class StepMove:
    """One move of the log as a replay's viewer may know it.

    ``seat`` is None and ``events`` empty for a move the viewing seat was not told of (another seat's
    hidden answer to a simultaneous decision, BB-30.6). ``action`` only face up or for the seat's own
    moves: another seat's action may name what only that seat knew. ``number``: the move's history
    line number, the same for every viewer (``numbering``); None for a hidden answer, which the game's
    history never numbered (the replay's ``step`` counts every move of the log).
    """

    step: int
    seat: int | None
    by_timeout: bool
    by_bot: bool
    events: list[Event]
    action: dict[str, Any] | None = None
    number: int | None = None


@dataclass(frozen=True)
class ReplayStep:
    """A finished game after ``step`` of its ``steps`` moves, for the replay page."""

    step: int
    steps: int
    state: State
    moves: list[StepMove]

    @property
    def move(self) -> StepMove | None:
        """The move that led to this step; None at the deal."""
        return self.moves[self.step - 1] if self.step else None


def replay_step(*, game: Game, step: int, seat: int | None) -> ReplayStep:
    """``game`` after its first ``step`` moves (clamped to the log), with every move as ``seat`` knew it.

    ``seat`` None is the face-up replay: every move and event. Only for a game that is over, when the
    seed is public and nothing is secret any more (BB-25.10, BH-25.9): raises ``ValueError`` otherwise.
    """
    if not game.is_over or game.state is None:
        raise ValueError(f"game {game.pk} is not over: no replay while it is in play")
    moves = game_moves(game)
    step = max(0, min(step, len(moves)))
    return ReplayStep(
        step=step,
        steps=len(moves),
        state=state_after(game=game, moves=moves, step=step),
        moves=[_as_known(move, seat) for move in moves],
    )


def _as_known(move: Move, seat: int | None) -> StepMove:
    if seat is not None and move.hidden and move.seat != seat:
        return StepMove(step=move.seq, seat=None, by_timeout=False, by_bot=False, events=[])
    events = move.events if seat is None else [e for e in move.events if visible(e, seat)]
    return StepMove(
        number=line_number(public_seq=move.public_seq, hidden=move.hidden),
        step=move.seq,
        seat=move.seat,
        by_timeout=move.by_timeout,
        by_bot=move.by_bot,
        events=events,
        action=move.action if seat is None or seat == move.seat else None,
    )


def replay_game(*, game: Game, moves: list[Move] | None = None) -> Replayed:
    """Rebuild ``game`` from its seed and its move log (read now unless ``moves`` is given)."""
    if game.status == Game.Status.OPEN and game.state is None:
        return Replayed(state=None)
    moves = game_moves(game) if moves is None else moves
    out = Replayed(state=initial_state(game))
    try:
        for state, events in replay_moves(game=game, moves=moves, state=out.state):
            out.state = state
            out.events.append(events)
    except ReplayRefused as exc:
        out.refused = exc
    return out


def verify_game(*, game_id: int) -> Discrepancy | None:
    """Replay a stored game and compare it with what is stored; None when everything agrees.

    Checked: the moves are numbered 1, 2, … without gaps; the engine accepts every stored action; each
    move's stored events are the replayed ones; a move is marked ``by_timeout`` exactly when its action
    is a timeout default; the stored state is the replayed one; ``version`` and ``public_version``
    count the moves; the status agrees with the replayed game (over or not); an unfinished game's open
    decision rows are the replayed game's ``pending``. The game row is locked while it is read, so a
    move being made cannot make a sound game look broken.
    """
    with transaction.atomic():
        locked = lock_game(game_id)  # Game.DoesNotExist when there is none
        game = locked.game
        moves = game_moves(game)
        rows = [(d.seat, d.kind, d.decision_id) for d in locked.decisions]
    problems = _log_problems(game, moves)
    replayed = replay_game(game=game, moves=moves)
    if replayed.refused is not None:
        problems.append(
            Problem(
                "move_refused",
                f"the engine refuses the stored action ({replayed.refused.code})",
                replayed.refused.seq,
            )
        )
    problems += _event_problems(moves, replayed)
    if replayed.refused is None:
        problems += _state_problems(game, replayed.state)
        if replayed.state is not None:
            problems += _status_problems(game, replayed.state, rows)
    return Discrepancy(game.pk, tuple(problems)) if problems else None


def verify_games(*, game_ids: list[int] | None = None) -> Iterator[tuple[int, Discrepancy | None]]:
    """``verify_game`` for the given games, or every game in id order; each game in its own transaction."""
    ids = (
        game_ids
        if game_ids is not None
        else Game.objects.order_by("pk").values_list("pk", flat=True).iterator()
    )
    for game_id in ids:
        yield game_id, verify_game(game_id=game_id)


# --- the checks ---------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """``value`` as it reads back from a JSON column (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def _log_problems(game: Game, moves: list[Move]) -> list[Problem]:
    """The move log's own consistency: numbering, version counters, timeout marks."""
    problems = []
    for expected, move in enumerate(moves, start=1):
        if move.seq != expected:
            problems.append(
                Problem("seq_gap", f"move {expected} is missing or out of order (found {move.seq})", expected)
            )
            break
    if game.version != len(moves):
        problems.append(
            Problem("version_differs", f"version is {game.version}, the log has {len(moves)} moves")
        )
    public = sum(1 for m in moves if not m.hidden)
    if game.public_version != public:
        problems.append(
            Problem(
                "public_version_differs",
                f"public_version is {game.public_version}, the log has {public} public moves",
            )
        )
    for move in moves:
        timeout_action = isinstance(move.action, dict) and move.action.get("timeout") is True
        if move.by_timeout != timeout_action:
            problems.append(
                Problem(
                    "by_timeout_differs", "by_timeout does not match the action's timeout field", move.seq
                )
            )
    return problems


def _event_problems(moves: list[Move], replayed: Replayed) -> list[Problem]:
    return [
        Problem("events_differ", "the stored events are not the replayed ones", move.seq)
        for move, events in zip(moves, replayed.events, strict=False)
        if _plain(move.events) != _plain(events)
    ]


def _state_problems(game: Game, state: State | None) -> list[Problem]:
    if state is None:
        if game.state is not None:
            return [Problem("state_differs", "a state is stored for a game that was never dealt")]
        return []
    stored, rebuilt = game.state, _plain(state)
    if stored == rebuilt:
        return []
    if not isinstance(stored, dict):
        return [Problem("state_differs", "no state is stored")]
    keys = sorted(k for k in stored.keys() | rebuilt.keys() if stored.get(k) != rebuilt.get(k))
    return [Problem("state_differs", f"stored state differs from the replay in: {', '.join(keys)}")]


def _status_problems(game: Game, state: State, rows: list[tuple[int, str, str]]) -> list[Problem]:
    """The status and open decision rows against the replayed game's ``pending``.

    A game ended by its organiser (aborted, or finished with an adjudicated result) stops mid-game: its
    status is not the engine's to judge, and its decision rows are gone.
    """
    pending = get_engine(game.engine).pending(state)
    ended_by_organiser = game.status == Game.Status.ABORTED or (
        game.status == Game.Status.FINISHED and bool((game.result or {}).get("adjudicated"))
    )
    if ended_by_organiser:
        return []
    if game.status == Game.Status.FINISHED:
        return [] if not pending else [Problem("status_differs", "finished, but the replayed game goes on")]
    if not pending:
        return [Problem("status_differs", f"{game.status}, but the replayed game is over")]
    expected = {
        (seat, d["kind"], str(d.get("decision_id") or f"v{game.version}-{index}-{d['kind']}"))
        for index, d in enumerate(pending)
        for seat in d["seats"]
    }
    if set(rows) == expected:
        return []
    missing = sorted({f"seat {s} {k}" for s, k, _ in expected - set(rows)})
    extra = sorted({f"seat {s} {k}" for s, k, _ in set(rows) - expected})
    parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
        [f"extra {', '.join(extra)}"] if extra else []
    )
    return [Problem("decisions_differ", "open decision rows differ from the replay: " + "; ".join(parts))]
