"""A finished game's full record as one JSON document, and its check by replay (``verify_games --file``).

The record holds what a replay needs and what a reader wants to check: the engine, the number of
players, the options, the seed (public once the game is over, BB-25.10, BH-25.9) and its published
SHA-256, every move in ``seq`` order (seat, action, events, timeout and bot marks), the status, the
result and the players' names. A move's ``number`` is its history line number, as the game's pages
and table talk gave it during play (``numbering``: the public moves only); a hidden answer has none
(null), though the record holds it. Nothing in it is secret: it exists only for a game that is over, when the
face-up replay shows the same moves (``apps.games.replay``).

``verify_record`` rebuilds the game from the record alone, with no database: the seed matches its hash,
the engine accepts every action, each move's events are the replayed ones, the game is over exactly
when the record says it finished (unless its organiser ended it), and a played-out result is the one
the replayed game gives. Problems name fields and moves, as ``verify_games`` does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from baogame.rules.core import RuleError
from baogame.rules.registry import get_engine

from .models import Game, Move
from .numbering import line_number
from .replay import Problem

#: The record's format tag; a reader refuses other formats.
FORMAT = "baogame-game-record/1"


def game_record(game: Game) -> dict[str, Any]:
    """The record of a game that is over (``ValueError`` while it is in play: its seed is secret)."""
    if not game.is_over:
        raise ValueError(f"game {game.pk} is not over: its record exists once it ends")
    seats = sorted(game.seats.select_related("user__profile"), key=lambda s: s.position)
    moves = Move.objects.filter(game=game).order_by("seq")
    league = getattr(game, "league_fixture", None)
    return {
        "format": FORMAT,
        "game": {
            "public_id": game.public_id,
            "title": game.title,
            "engine": game.engine,
            "players": game.players,
            "options": game.options,
            "seed": game.seed,
            "seed_sha256": game.seed_hash,
            "status": game.status,
            "status_reason": game.status_reason,
            "started_at": _iso(game.started_at),
            "finished_at": _iso(game.finished_at),
            "result": game.result,
            "seats": [{"position": s.position, "name": s.label} for s in seats],
            "league": (
                {
                    "league": league.round.season.league.slug,
                    "season": league.round.season.number,
                    "round": league.round.number,
                    "table": league.table,
                }
                if league is not None
                else None
            ),
        },
        "moves": [
            {
                "seq": m.seq,
                "number": line_number(public_seq=m.public_seq, hidden=m.hidden),
                "seat": m.seat,
                "action": m.action,
                "events": m.events,
                "by_timeout": m.by_timeout,
                "by_bot": m.by_bot,
                "at": _iso(m.created_at),
            }
            for m in moves
        ],
    }


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


@dataclass(frozen=True)
class RecordCheck:
    """What ``verify_record`` found: the game's public id, its number of moves and the problems."""

    public_id: str
    moves: int
    problems: tuple[Problem, ...]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.public_id, "moves": self.moves, "problems": [p.to_json() for p in self.problems]}


def verify_record(record: dict[str, Any]) -> RecordCheck:
    """Replay a record from its seed and actions and compare (see the module docstring)."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"not a game record (expected format {FORMAT!r})")
    game, moves = record.get("game") or {}, record.get("moves") or []
    problems: list[Problem] = []
    seed = str(game.get("seed", ""))
    if hashlib.sha256(seed.encode("utf-8")).hexdigest() != game.get("seed_sha256"):
        problems.append(Problem("seed_hash_differs", "the seed does not match its published SHA-256"))
    try:
        engine = get_engine(str(game.get("engine")))
    except KeyError:
        raise ValueError(f"unknown engine {game.get('engine')!r}") from None
    state = engine.setup(int(game["players"]), dict(game.get("options") or {}), seed)
    events: list[dict[str, Any]] = []
    for expected, move in enumerate(moves, start=1):
        if move.get("seq") != expected:
            problems.append(Problem("seq_gap", f"move {expected} is missing or out of order", expected))
            break
        try:
            state, events = engine.apply(state, int(move["seat"]), move["action"])
        except RuleError as exc:
            problems.append(Problem("move_refused", f"the engine refuses the action ({exc.code})", expected))
            break
        if _plain(events) != _plain(move.get("events")):
            problems.append(
                Problem("events_differ", "the recorded events are not the replayed ones", expected)
            )
    else:
        problems += _end_problems(engine, state, events, game)
    return RecordCheck(public_id=str(game.get("public_id", "")), moves=len(moves), problems=tuple(problems))


def _end_problems(
    engine: Any, state: Any, events: list[dict[str, Any]], game: dict[str, Any]
) -> list[Problem]:
    """The recorded status and result against the replayed game's end."""
    result = game.get("result") or {}
    if game.get("status") == Game.Status.ABORTED or result.get("adjudicated"):
        return []  # ended by an organiser: the engine does not judge the result
    if engine.pending(state):
        return [Problem("status_differs", "the record says finished, but the replayed game goes on")]
    ref = engine.referee_view(state)
    replayed = {"totals": ref.get("totals"), "winners": ref.get("winners", [])}
    recorded = {"totals": result.get("totals"), "winners": result.get("winners", [])}
    if _plain(replayed) != _plain(recorded):
        return [Problem("result_differs", "the recorded totals or winners are not the replayed ones")]
    return []


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))
