"""Every change to a game goes through here (DESIGN.md, "One move, end to end").

``submit_action`` is the only way a game's state changes: from a page, the API, an e-mail reply, a
bot or a deadline. One transaction per move, the game row locked first, so moves of one game are
serialised in lock order (``Move.seq``) while different games run in parallel.
"""

from __future__ import annotations

import logging
import random
import re
import time
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import timezone

from baogame import sqlrows
from baogame.celery import BACKGROUND
from baogame.rules.core import RuleError, visible
from baogame.rules.registry import get_bots, get_engine
from baogame.sqlrows import Statement

from . import deadlines, people, scheduling, signals
from . import rows as sql_rows
from .errors import ServiceError
from .models import Decision, Game, Invitation, Move, Seat
from .timing import DEFAULT_PRESET, timing_for

log = logging.getLogger(__name__)


@dataclass
class MoveResult:
    """What a submission did: the game after it, the move, and the events the sender may see."""

    game: Game
    move: Move | None
    events: list[dict[str, Any]] = field(default_factory=list)
    replayed: bool = False


# --- creating and joining ----------------------------------------------------------------------------


#: Engine options that fix the cards or the starting position (the rules' stacked deals and later
#: starts, BB-25.1, BH-25.4): for tests and worked examples. Whoever sets them knows every hidden card,
#: so games that people create for others (the API, leagues; the web form never offers them) refuse them.
STACKING_OPTIONS = frozenset({"deal", "deals", "start"})


def refuse_stacking_options(options: dict[str, Any]) -> None:
    """Refuse options that would let their author know the hidden cards (``invalid_options``)."""
    stacked = sorted(STACKING_OPTIONS & set(options))
    if stacked:
        raise ServiceError("invalid_options", f"{', '.join(stacked)}: not allowed in games for other players")


def game_create(
    *,
    creator: User | None,
    engine: str,
    players: int,
    options: dict[str, Any] | None = None,
    timing_preset: str = DEFAULT_PRESET,
    timing_overrides: dict[str, int] | None = None,
    title: str = "",
    creator_seat: bool = True,
    bots: int = 0,
    bot_name: str | None = None,
    absent_limit: int = 3,
    bot_test: bool = False,
    visibility: str = Game.Visibility.PUBLIC,
) -> Game:
    """Create a game with ``players`` seats; the creator takes seat 0, the last ``bots`` seats are bots.

    ``bot_test``: one person's accounts (their bot accounts included) may hold several seats; otherwise
    each person holds at most one (``people``).

    Options are validated by the engine's ``setup`` (with a throwaway seed) so a bad option is refused
    now, not when the last player joins. The game starts when every seat is taken. A game of a creator
    with open seats gets its first (multi-use) invitation.
    """
    if visibility not in Game.Visibility.values:
        raise ServiceError(
            "invalid_options", f"visibility must be one of {', '.join(Game.Visibility.values)}"
        )
    eng = get_engine(engine)
    if not eng.min_players <= players <= eng.max_players:
        raise ServiceError("invalid_options", f"{engine} takes {eng.min_players}-{eng.max_players} players")
    if bots < 0 or bots > players - (1 if creator_seat else 0):
        raise ServiceError("invalid_options", "too many bots for the seats")
    merged = {**eng.default_options(players), **(options or {})}
    eng.setup(players, merged, "options-check")  # raises RuleError("invalid_options") when bad
    try:
        timing = timing_for(timing_preset, timing_overrides)
    except ValueError as exc:
        raise ServiceError("invalid_options", str(exc)) from None
    bot_names, default_bot = get_bots(engine)
    bot_name = bot_name or default_bot
    if bot_name not in bot_names:
        raise ServiceError("invalid_options", f"unknown bot {bot_name!r}")
    with transaction.atomic():
        game = Game.objects.create(
            engine=engine,
            players=players,
            options=merged,
            title=title,
            created_by=creator,
            timing_preset=timing_preset if not timing_overrides else "custom",
            timing=timing,
            absent_limit=absent_limit,
            bot_test=bot_test,
            visibility=visibility,
        )
        now = timezone.now()
        for pos in range(players):
            seat = Seat(game=game, position=pos)
            if pos == 0 and creator_seat and creator is not None:
                seat.user, seat.joined_at = creator, now
            elif pos >= players - bots:
                seat.bot, seat.joined_at = bot_name, now
            seat.save()
        _start_if_full(game)
        if creator is not None and game.status == Game.Status.OPEN:
            Invitation.objects.create(game=game, created_by=creator)
    return game


def game_join(*, game_id: int, user: User, position: int | None = None) -> Game:
    """Take an open seat (the lowest, or ``position``); the game starts when the table is full.

    Refused (``same_person``) when another account of the same person (a bot account and its owner)
    already holds a seat, unless the game is a bot-test game.
    """
    with transaction.atomic():
        game = _lock_game(game_id)  # the seats come with the lock
        if game is None:
            raise Game.DoesNotExist(f"no game {game_id}")
        if game.status != Game.Status.OPEN:
            raise ServiceError("game_not_open", "this game is not waiting for players")
        seats = _seats(game)
        if any(s.user_id == user.pk for s in seats.values()):
            raise ServiceError("already_seated", "you already have a seat in this game")
        if not game.bot_test and people.seat_held_by(seats=seats.values(), user=user) is not None:
            raise ServiceError(
                "same_person",
                "one person cannot hold two seats of a game (their bot accounts included) unless its "
                "creator made it a bot-test game",
                status=409,
            )
        open_seats = [
            s for p, s in sorted(seats.items()) if s.is_empty and (position is None or p == position)
        ]
        if not open_seats:
            raise ServiceError("no_open_seat", "no open seat")
        seat = open_seats[0]
        seat.user, seat.joined_at = user, timezone.now()
        seat.save(update_fields=["user", "joined_at"])
        _start_if_full(game)
    return game


def seat_fill_bot(*, game_id: int, user: User, position: int, bot_name: str | None = None) -> Game:
    """The creator puts a bot into an open seat."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.created_by_id != user.pk:
            raise ServiceError("forbidden", "only the game's creator can add bots", status=403)
        if game.status != Game.Status.OPEN:
            raise ServiceError("game_not_open", "this game is not waiting for players")
        bots, default = get_bots(game.engine)
        bot_name = bot_name or default
        if bot_name not in bots:
            raise ServiceError("invalid_options", f"unknown bot {bot_name!r}")
        seat = _seats(game).get(position)
        if seat is None or not seat.is_empty:
            raise ServiceError("no_open_seat", "that seat is not open")
        seat.bot, seat.joined_at = bot_name, timezone.now()
        seat.save(update_fields=["bot", "joined_at"])
        _start_if_full(game)
    return game


def _start_if_full(game: Game) -> None:
    """Deal the first round once every seat is taken (inside the caller's transaction)."""
    if game.status != Game.Status.OPEN or any(s.is_empty for s in _seats(game).values()):
        return
    engine = get_engine(game.engine)
    game.state = engine.setup(game.players, game.options, game.seed)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    game.version = 0
    game.save()
    now = timezone.now()
    opened, new_rows = _rewrite_decisions(game, engine.pending(game.state), now)
    game_id = game.pk
    transaction.on_commit(partial(signals.game_started.send, sender=Game, game_id=game_id))
    signals.move_sent(  # move_recorded now (the mail outbox), move_applied on commit
        sender=Game,
        game_id=game_id,
        version=0,
        move_id=None,
        opened=opened,
        by_timeout=False,
        in_person_seat=None,
        event_types=frozenset(),
        people=_people(game),
    )
    _schedule_after_move(game, new_rows, now)  # a bot to play first, or a near deadline


# --- the move pipeline -------------------------------------------------------------------------------


# --- per-transaction caches ---------------------------------------------------------------------------
#
# While a service holds a game's row lock it is the only writer of that game's seats and decision rows,
# so it loads them once and keeps them in step with its own writes (``_tx_cache`` on the locked Game
# instance). Callers that do not set the flag (clock, leagues) always read the database.


def _lock_game(game_id: int, move_key: str | None = None) -> Game | None:
    """Lock the game row and return it with its per-transaction caches switched on (and, with
    ``move_key``, ``key_move_id``: the move already made with that Idempotency-Key)."""
    game, seats, decisions = sql_rows.lock_game_with_rows(game_id, move_key=move_key)
    if game is not None:
        game._tx_cache = True  # type: ignore[attr-defined]
        game._seat_cache = {s.position: s for s in seats}  # type: ignore[attr-defined]
        game._decision_cache = decisions  # type: ignore[attr-defined]
    return game


def _locked(game_id: int) -> Game:
    """``_lock_game`` for callers that answer a missing game with ``Game.DoesNotExist`` (404)."""
    game = _lock_game(game_id)
    if game is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return game


def _seats(game: Game) -> dict[int, Seat]:
    """The game's seats by position, with users and profiles (cached under the lock)."""
    cache = game.__dict__.get("_seat_cache")
    if cache is None:
        cache = {s.position: s for s in sql_rows.seat_rows(game, people=True)}
        if getattr(game, "_tx_cache", False):
            game._seat_cache = cache  # type: ignore[attr-defined]
    return cache


def _decision_rows(game: Game) -> list[Decision]:
    """The game's open decision rows (cached under the lock, kept in step by ``_rewrite_decisions``)."""
    cache = game.__dict__.get("_decision_cache")
    if cache is None:
        cache = sql_rows.decision_rows(game)
        if getattr(game, "_tx_cache", False):
            game._decision_cache = cache  # type: ignore[attr-defined]
    return cache


def _state(game: Game) -> dict[str, Any]:
    """The state of a started game (the engine's plain JSON dict)."""
    assert game.state is not None, f"game {game.pk} has not started"
    state: dict[str, Any] = game.state
    return state


def _on_vacation(seat: Seat) -> bool:
    profile = getattr(seat.user, "profile", None) if seat.user_id else None
    return profile is not None and profile.vacation_started_at is not None


def seat_of(game: Game, user: User | AnonymousUser | None) -> Seat | None:
    """The user's seat in the game, or None."""
    if user is None or not user.is_authenticated:
        return None
    seats = _seats(game).values() if getattr(game, "_tx_cache", False) else game.seats.all()
    return next((s for s in seats if s.user_id == user.pk), None)


#: 1-128 characters without control characters (PostgreSQL text cannot even hold NUL).
_IDEMPOTENCY_KEY = re.compile(r"[^\x00-\x1f\x7f]{1,128}")


def submit_action(*, game_id: int, user: User, action: dict[str, Any], key: str | None = None) -> MoveResult:
    """Apply one action of ``user`` to the game, exactly as DESIGN.md's five steps say.

    Raises ``RuleError`` (or ``ServiceError``) for a refused action; nothing is written then. With an
    ``Idempotency-Key`` already used in this game by the same user for the same action, nothing is
    applied and the earlier move is returned with ``replayed=True``; for another action it is refused
    (``idempotency_key_mismatch``, 422).
    """
    if not isinstance(action, dict):
        raise RuleError("malformed_action", "an action is a JSON object")
    if "timeout" in action:
        raise RuleError("malformed_action", "the timeout field is set only by the server")
    if key is not None and (not isinstance(key, str) or _IDEMPOTENCY_KEY.fullmatch(key) is None):
        raise ServiceError(
            "invalid_idempotency_key", "an Idempotency-Key is 1-128 characters, none a control character"
        )
    try:
        with transaction.atomic():
            game = _lock_game(game_id, move_key=key)
            if game is None:
                raise Game.DoesNotExist(f"no game {game_id}")
            seat = seat_of(game, user)
            if seat is None:  # before the key: an outsider learns nothing about keys used
                raise ServiceError("not_seated", "you have no seat in this game", status=403)
            if key is not None and game.key_move_id is not None:  # type: ignore[attr-defined]
                earlier = sql_rows.move_by_id(game.key_move_id)  # type: ignore[attr-defined]
                if earlier is not None:
                    return _replayed(game, earlier, user, action)
            settled = settle_locked(game, timezone.now())
            try:
                if game.status != Game.Status.ACTIVE:
                    raise ServiceError(
                        "game_not_active", f"this game is {game.get_status_display().lower()}", status=409
                    )
                move, events = apply_locked(game, seat, action, user=user, key=key)  # RuleError: no writes
            except RuleError as exc:
                if key is not None:
                    # The lock query's key check saw the database as it was before this request waited
                    # for the lock (PostgreSQL evaluates it on the statement's snapshot), so a retry
                    # that queued behind its own first attempt finds that move here, with a fresh read.
                    earlier = sql_rows.move_by_key(game.pk, key)
                    if earlier is not None:
                        return _replayed(game, earlier, user, action)
                if not settled:
                    raise
                refused = exc  # keep the timeouts just applied: commit them, then refuse
            else:
                if seat.consecutive_timeouts:  # a move of the player's own ends a run of timeouts
                    seat.consecutive_timeouts = 0
                    seat.save(update_fields=["consecutive_timeouts"])
                return MoveResult(game, move, _visible_events(events, seat.position))
        raise refused
    except IntegrityError:
        # Only a concurrent request with the same Idempotency-Key gets here: the other one won.
        if key is None:
            raise
        winner = Move.objects.filter(game_id=game_id, idempotency_key=key).first()
        if winner is None:
            raise
        return _replayed(Game.objects.get(pk=game_id), winner, user, action)  # refused: another's


def _replayed(game: Game, earlier: Move, user: User, action: dict[str, Any]) -> MoveResult:
    """The answer to a request whose Idempotency-Key was already used in this game: refused when the
    key is another user's (their move's events may be private to their seat), or was used for another
    action (a client bug: replaying the first move would pass for applying the second)."""
    if earlier.user_id != user.pk:
        raise ServiceError(
            "idempotency_key_reused", "that Idempotency-Key belongs to another request", status=409
        )
    if _json_key(earlier.action) != _json_key(action):
        raise ServiceError(
            "idempotency_key_mismatch", "that Idempotency-Key was used for a different action", status=422
        )
    return MoveResult(game, earlier, _visible_events(earlier.events, earlier.seat), True)


def _json_key(value: Any) -> Any:
    """``value`` as JSON compares it: ``true`` is not ``1``, but ``1`` is ``1.0`` (a JSONB round trip
    may turn one into the other); object key order does not count."""
    if isinstance(value, dict):
        return {key: _json_key(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_key(item) for item in value]
    return (type(value) is bool, value)


def apply_locked(
    game: Game,
    seat: Seat,
    action: dict[str, Any],
    *,
    user: User | None = None,
    key: str | None = None,
    by_timeout: bool = False,
    by_bot: bool = False,
) -> tuple[Move, list[dict[str, Any]]]:
    """Steps 3-5 on a game row the caller has locked: apply, log, rewrite decisions, schedule.

    Then, in the same transaction, seats that do not wait for plucking windows (the switch, or away on
    vacation) pass any window this move opened, so such windows close at once.
    """
    move, events, decisions = _apply_one(
        game, seat, action, user=user, key=key, by_timeout=by_timeout, by_bot=by_bot
    )
    _auto_pass_windows(game, decisions)
    return move, events


def _apply_one(
    game: Game,
    seat: Seat,
    action: dict[str, Any],
    *,
    user: User | None = None,
    key: str | None = None,
    by_timeout: bool = False,
    by_bot: bool = False,
    automatic: bool = False,
) -> tuple[Move, list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply one action on the locked game; returns the move, its events and the new open decisions.

    ``automatic``: a pass the server makes for a seat that does not wait for plucking windows.
    """
    engine = get_engine(game.engine)
    old_state = _state(game)
    new_state, events = engine.apply(old_state, seat.position, action)  # RuleError: nothing written
    now = timezone.now()
    decisions = engine.pending(new_state)
    hidden = _is_hidden_answer(game, seat.position, old_state, new_state, events, decisions)
    game.state = new_state
    game.version += 1
    writes: list[Statement] = []
    if hidden:
        seat.hidden_moves += 1
        writes.append(sql_rows.count_hidden_move(seat))
    else:
        game.public_version += 1
    move = Move(
        game=game,
        seq=game.version,
        public_seq=game.public_version,
        hidden=hidden,
        seat=seat.position,
        user=user,
        action=action,
        events=events,
        by_timeout=by_timeout,
        by_bot=by_bot,
        idempotency_key=key,
    )
    move.seat_seq = game.public_version + seat.hidden_moves  # type: ignore[attr-defined]
    writes.append(sql_rows.insert_move(move))
    update_fields = ["state", "version", "public_version"]
    if scheduling.in_bot_loop(game):  # the bot loop's marker follows its moves (scheduling)
        game.bot_task = game.version
        update_fields.append("bot_task")
    if not decisions:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.result = _final_result(engine, new_state, events)
        update_fields += ["status", "finished_at", "result"]
    writes.append(sql_rows.update_game(game, update_fields))
    opened, new_rows = _rewrite_decisions(game, decisions, now, writes=writes)
    sqlrows.batch(writes)  # the move's writes in one round trip
    game_id, version, move_id = game.pk, game.version, move.pk
    signals.move_sent(  # move_recorded now (the mail outbox), move_applied on commit
        sender=Game,
        game_id=game_id,
        version=version,
        move_id=move_id,
        opened=opened,
        by_timeout=by_timeout,
        in_person_seat=(
            seat.position if user is not None and not (by_timeout or by_bot or automatic) else None
        ),
        event_types=frozenset(e.get("type") for e in events),
        people=_people(game),
    )
    if not decisions:
        transaction.on_commit(
            partial(signals.game_ended.send, sender=Game, game_id=game_id, people=_people(game))
        )
    else:
        _schedule_after_move(game, new_rows, now)
    return move, events, decisions


def _is_hidden_answer(
    game: Game,
    mover: int,
    old_state: dict[str, Any],
    new_state: dict[str, Any],
    events: list[dict[str, Any]],
    decisions: list[dict[str, Any]],
) -> bool:
    """Whether this move must stay unknown to everyone but its own seat (BB-30.6).

    It must when it answered a simultaneous decision (a plucking window, the setup peek, a tribute, a
    declaration) that stays open for other seats, and it changed nothing that any other seat or a
    spectator may see: no event they may see, the same ``view`` for each of them. Such a move does not
    count in the public version, so no counter, sequence number or refreshed page tells the others
    that somebody answered. A move that closes the decision is public.
    """
    from .selectors import SIMULTANEOUS_TIMINGS

    still_open = {d.get("decision_id"): d["seats"] for d in decisions if d.get("decision_id")}
    answered = any(
        row.seat == mover
        and row.timing in SIMULTANEOUS_TIMINGS
        and still_open.get(row.decision_id)
        and mover not in still_open[row.decision_id]
        for row in _decision_rows(game)
    )
    if not answered:
        return False
    others: list[int | None] = [None, *(p for p in range(game.players) if p != mover)]
    if any(visible(event, viewer) for event in events for viewer in others):
        return False
    engine = get_engine(game.engine)
    return all(engine.view(old_state, viewer) == engine.view(new_state, viewer) for viewer in others)


#: A bound on passes made on behalf of seats after one move (a window has at most 5 owners).
AUTO_PASSES_PER_MOVE = 32


def _passes_windows(seat: Seat) -> bool:
    """A human-played seat that does not wait for plucking windows: the switch is on, or it is away."""
    return not seat.bot and not seat.bot_takeover and (seat.skip_pluck_windows or _on_vacation(seat))


def _passable_window(decision: dict[str, Any]) -> bool:
    """A reaction window that may be passed (BB-24: passing is its default)."""
    return decision.get("timing") == deadlines.REACTION and "pass" in decision.get("allowed", ())


def _auto_pass_seats(game: Game) -> dict[int, Seat]:
    """The seats of ``_passes_windows``, by position."""
    return {position: s for position, s in _seats(game).items() if _passes_windows(s)}


def _auto_pass_windows(game: Game, decisions: list[dict[str, Any]]) -> int:
    """Pass every open reaction window for the seats that do not wait for them; returns the passes.

    Runs on the locked game, right after the move that opened the window, so the window closes in the
    same transaction when nobody wants it. Passing is the window's default anyway (BB-24).
    """
    passes = 0
    skippers: dict[int, Seat] | None = None
    while passes < AUTO_PASSES_PER_MOVE and game.status == Game.Status.ACTIVE:
        windows = [d for d in decisions if _passable_window(d) and d.get("seats")]
        if not windows:
            return passes
        if skippers is None:
            skippers = _auto_pass_seats(game)
        todo = [(d, skippers[s]) for d in windows for s in d["seats"] if s in skippers]
        if not todo:
            return passes
        decision, seat = todo[0]
        action = {"type": "pass", "decision_id": decision.get("decision_id")}
        try:
            _, _, decisions = _apply_one(game, seat, action, user=seat.user, automatic=True)
        except RuleError as exc:  # never expected; must not undo the move that opened the window
            log.warning("automatic pass refused in game %s seat %s (%s)", game.pk, seat.position, exc.code)
            return passes
        passes += 1
    return passes


def _final_result(engine: Any, state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Standings of a finished game from its last events, plus the referee's totals."""
    ref = engine.referee_view(state)
    result: dict[str, Any] = {"totals": ref.get("totals"), "winners": ref.get("winners", [])}
    for event in events:
        if event.get("type") in {"game_ended", "game_over"}:
            result["standings"] = event.get("standings")
    return result


def _rewrite_decisions(
    game: Game,
    decisions: list[dict[str, Any]],
    now: datetime,
    *,
    writes: list[Statement] | None = None,
) -> tuple[list[list[Any]], list[Decision]]:
    """Make the Decision rows match ``pending``; a decision still open keeps its deadline.

    Returns the (seat, kind, decision_id) triples that this rewrite opened, and the new rows. With
    ``writes``, the statements are added to that list for the caller to run in its batch; otherwise
    they run now.
    """
    rows = _decision_rows(game)
    existing = {(d.seat, d.decision_id): d for d in rows}
    wanted: set[tuple[int, str]] = set()
    opened: list[list[Any]] = []
    new_rows: list[Decision] = []
    away: set[int] | None = None
    for index, decision in enumerate(decisions):
        decision_id = str(decision.get("decision_id") or f"v{game.version}-{index}-{decision['kind']}")
        timing = decision.get("timing", "turn")
        for seat in decision["seats"]:
            wanted.add((seat, decision_id))
            if (seat, decision_id) in existing:
                continue
            if away is None:  # the clock of a player on vacation (of anyone, for a setup peek) starts stopped
                away = _away_positions(game)
            held = deadlines.stopped_by_absence(timing, seat, away)
            deadline, remaining = deadlines.clock_for(game, timing, now, away=held)
            new_rows.append(
                Decision(
                    game=game,
                    seat=seat,
                    decision_id=decision_id,
                    kind=decision["kind"],
                    timing=timing,
                    opened_at=now,
                    deadline=deadline,
                    remaining=remaining,
                )
            )
            opened.append([seat, decision["kind"], decision_id])
    stale = [d.pk for k, d in existing.items() if k not in wanted]
    # A closed decision's row is rewritten in place for a new one (one UPDATE instead of a DELETE and
    # an INSERT); rows left over are deleted, new decisions left over inserted.
    statements = [sql_rows.reuse_decision_row(pk, row) for pk, row in zip(stale, new_rows, strict=False)]
    statements += sql_rows.delete_decisions(stale[len(new_rows) :])
    statements += sql_rows.insert_decisions(new_rows[len(stale) :])
    if writes is not None:  # the caller runs them with its own writes
        writes += statements
    else:
        sqlrows.batch(statements)
    if "_decision_cache" in game.__dict__:
        game._decision_cache = [d for k, d in existing.items() if k in wanted] + new_rows  # type: ignore
    return opened, new_rows


def _away_positions(game: Game) -> set[int]:
    """Seats of ``game`` whose player is on vacation."""
    return {position for position, s in _seats(game).items() if _on_vacation(s)}


def _schedule_after_move(game: Game, new_rows: list[Decision], now: datetime) -> None:
    """After commit: the bot task and near deadline tasks (``scheduling.after_move``)."""
    scheduling.after_move(
        game, seats=_seats(game), decisions=_decision_rows(game), new_rows=new_rows, now=now
    )


def _people(game: Game) -> frozenset[int]:
    """The seats a person plays now (not a bot, not handed to the bot): who may be mailed."""
    return frozenset(p for p, s in _seats(game).items() if s.user_id is not None and not s.played_by_bot)


def _visible_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    return [e for e in events if visible(e, seat)]


# --- deadlines ---------------------------------------------------------------------------------------


def settle_locked(game: Game, now: datetime) -> int:
    """Apply, in deadline order, the timeout action of every decision due by ``now``.

    The caller holds the game row lock. Returns the number of timeouts applied. Idempotent: a second
    call finds nothing due.
    """
    if game.status != Game.Status.ACTIVE:
        return 0
    engine = get_engine(game.engine)
    applied = 0
    while True:
        due_rows = [r for r in _decision_rows(game) if r.deadline is not None and r.deadline <= now]
        if not due_rows:
            return applied
        due = min(due_rows, key=lambda r: (r.deadline, r.seat))
        action = engine.timeout_action(_state(game), due.seat)
        if action is None:  # the row is stale (the seat already answered): drop it
            due.delete()
            if "_decision_cache" in game.__dict__:
                game._decision_cache = [r for r in game._decision_cache if r is not due]  # type: ignore
            continue
        seat = _seats(game)[due.seat]
        apply_locked(game, seat, action, by_timeout=True)
        applied += 1
        if deadlines.record_timeout(game, seat, timing=due.timing):
            scheduling.after_handover(game)
        if game.status != Game.Status.ACTIVE:
            return applied


def settle_due(game_id: int) -> int:
    """Settle everything overdue in one game; safe to run twice, concurrently or late."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game is None:
            return 0
        return settle_locked(game, timezone.now())


def game_read(game_id: int, *, seats: str = "people", seat_of_user: int | None = None) -> Game | None:
    """A game as it stands, for a page or an API read: settled first when a deadline has passed (the
    game query itself says whether anything is due, so this is cheap when nothing is).

    ``seats``: "people" loads the seats with their users and profiles, "plain" the seats only, "none"
    nothing (``game.seats`` then queries). With ``seat_of_user`` the game's ``user_seat`` attribute is
    that user's seat position or None. None when there is no such game.
    """
    game = sql_rows.game_row(game_id, overdue_at=timezone.now(), seat_of_user=seat_of_user)
    if game is None:
        return None
    if game.status == Game.Status.ACTIVE and game.overdue and settle_due(game.pk):  # type: ignore[attr-defined]
        game.refresh_from_db()
    if seats != "none":
        sql_rows.attach_seats(game, sql_rows.seat_rows(game, people=seats == "people"))
    return game


def settle_if_due(*, game: Game) -> Game:
    """Lazy settlement before a read: settle ``game`` only if a deadline has passed (one cheap query).

    Returns the game, refreshed when anything was settled. Pages and the API call this before showing
    a game, so a game is always shown as it stands, even when no worker ran on time.
    """
    if (
        game.status == Game.Status.ACTIVE
        and Decision.objects.filter(game_id=game.pk, deadline__lte=timezone.now()).exists()
        and settle_due(game.pk)
    ):
        game.refresh_from_db()
    return game


def settle_overdue(*, now: datetime | None = None) -> int:
    """Settle every active game with an overdue decision (the beat sweep); returns the timeouts applied.

    Each game settles in its own transaction; a game that fails is logged and the sweep goes on.
    """
    from .selectors import game_ids_with_due_decisions

    settled = 0
    for game_id in game_ids_with_due_decisions(now=now or timezone.now()):
        try:
            settled += settle_due(game_id)
        except Exception:  # one broken game must not stop every other game's clock
            log.exception("settling game %s failed", game_id)
    return settled


# --- seat settings: plucking windows, absence ---------------------------------------------------------


def seat_set_skip_pluck_windows(*, game_id: int, user: User, value: bool) -> Seat:
    """Switch "don't wait for me on plucking windows" for the user's seat in one game.

    Switched on, it passes any window the seat owns now and every later one, at once. The setting is
    private to its player: others never see it (it would tell them who has passed, BB-30.6).
    """
    with transaction.atomic():
        game = _locked(game_id)
        seat = seat_of(game, user)
        if seat is None:
            raise ServiceError("not_seated", "you have no seat in this game", status=403)
        settle_locked(game, timezone.now())
        Seat.objects.filter(pk=seat.pk).update(skip_pluck_windows=value)
        seat.skip_pluck_windows = value
        if value and game.status == Game.Status.ACTIVE:
            _auto_pass_windows(game, get_engine(game.engine).pending(_state(game)))
    return seat


#: Why a player cannot take back a seat an organiser handed to the bot (the page and the API say it).
BOT_HOLD_TEXT = (
    "an organiser handed this seat to the bot; only an organiser of the league who does not play in this "
    "game, or a site admin, can give it back"
)


def seat_take_back(*, game_id: int, user: User) -> Seat:
    """The player takes their seat back from the bot (one click); the absence count starts again.

    Refused (``organiser_hold``) while an organiser's "hand this seat to the bot" stands.
    """
    with transaction.atomic():
        game = _locked(game_id)
        seat = seat_of(game, user)
        if seat is None:
            raise ServiceError("not_seated", "you have no seat in this game", status=403)
        if not seat.bot_takeover:
            return seat
        if seat.bot_hold:
            raise ServiceError("organiser_hold", BOT_HOLD_TEXT, status=403)
        seat.bot_takeover, seat.consecutive_timeouts = False, 0
        seat.save(update_fields=["bot_takeover", "consecutive_timeouts"])
        position = seat.position
        transaction.on_commit(
            partial(signals.seat_taken_back.send, sender=Game, game_id=game_id, seat=position)
        )
    return seat


# --- bots --------------------------------------------------------------------------------------------

#: Moves one bot task makes before it hands its game to a fresh task, so other games get their turn.
BOT_MOVES_PER_TASK = 200


def play_bots(game_id: int, version: int | None = None) -> int:
    """Let the server-played seats answer their open decisions, one transaction per move.

    ``version`` is the one the bot task carries: when the game's marker (``Game.bot_task``) holds
    another, a newer task plays the game (or nothing is left to play) and this one does nothing. Each
    move advances the marker, so of two tasks only the one that moved goes on; the marker is cleared
    when no bot has anything left to do. Bots see only their own ``view()``. Seats that do not wait for
    plucking windows (the switch, or away on vacation) pass them. Returns the number of moves made.
    """
    made = 0
    while True:
        with transaction.atomic():
            game = _lock_game(game_id)
            if game is None:
                return made
            if version is not None and game.bot_task != version:
                return made  # stale
            game._bot_loop = True  # type: ignore[attr-defined]
            if game.status == Game.Status.ACTIVE:
                settle_locked(game, timezone.now())
            choice = _bot_choice(game) if game.status == Game.Status.ACTIVE else None
            if choice is None:
                if game.bot_task is not None:
                    Game.objects.filter(pk=game.pk).update(bot_task=None)
                return made
            if made >= BOT_MOVES_PER_TASK:
                marker = game.bot_task if game.bot_task is not None else game.version
                Game.objects.filter(pk=game.pk).update(bot_task=marker)
                scheduling.bots_continue(
                    game_id=game.pk, version=marker, queue=scheduling.bot_queue(_seats(game))
                )
                return made
            seat, action = choice
            try:
                apply_locked(game, seat, action, by_bot=True)
            except RuleError as exc:  # a bot bug must not stall the game: fall back to the default
                log.warning(
                    "bot %s in game %s refused (%s); applying the default", seat.bot, game.pk, exc.code
                )
                fallback = get_engine(game.engine).timeout_action(_state(game), seat.position)
                if fallback is None:
                    Game.objects.filter(pk=game.pk).update(bot_task=None)
                    return made
                apply_locked(game, seat, fallback, by_timeout=True, by_bot=True)
            version = game.bot_task
            made += 1
            background = scheduling.bot_queue(_seats(game)) == BACKGROUND
        if background and settings.GAMES_BACKGROUND_BOT_PAUSE > 0:
            # Outside the transaction: on SQLite (one writer at a time) a loop that takes the write lock
            # again at once starves the moves of games where people wait (``make run``'s demo league).
            time.sleep(settings.GAMES_BACKGROUND_BOT_PAUSE)


def _bot_choice(game: Game) -> tuple[Seat, dict[str, Any]] | None:
    engine = get_engine(game.engine)
    seats = _seats(game)
    bots, default_bot = get_bots(game.engine)
    for decision in engine.pending(_state(game)):
        for position in decision["seats"]:
            seat = seats[position]
            if seat.played_by_bot:
                rng = random.Random(f"bot:{game.seed}:{game.version}:{position}")
                bot = bots.get(seat.bot or default_bot, bots[default_bot])
                return seat, bot(engine.view(_state(game), position), rng)
            if _passes_windows(seat) and _passable_window(decision):
                return seat, {"type": "pass", "decision_id": decision["decision_id"]}
    return None
