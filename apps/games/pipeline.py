"""The move pipeline: how one action becomes a move (DESIGN.md, "One move, end to end").

``submit_action`` is the only way a game's state changes: from a page, the API, an e-mail reply, a
bot or a deadline. One transaction per move, in this module from top to bottom:

1. ``store.lock_game`` locks the game row (with its seats and open decisions), so moves of one game are
   serialised in lock order (``Move.seq``) while different games run in parallel;
2. ``settle`` applies the timeout action of every decision already due (lazy settlement; a
   server-played seat's overdue decision gets the bot's choice);
3. ``apply`` validates and applies the action with the engine (``RuleError``: nothing written);
4. the move, the new state and the rewritten decision rows are written together (``LockedGame.flush``);
5. ``scheduling`` queues, after commit, the bot task and near deadline tasks, and the signals tell the
   notifications and leagues apps.

Seats that do not wait for plucking windows (the switch, or away on vacation) pass a window, and seats
whose standing orders answer their open decision answer it, in the same transaction as the move that
reached them (``auto_answer``).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any, NamedTuple, Protocol

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from baogame.rules.core import RuleError, visible
from baogame.rules.registry import get_engine

from . import bot_moves, order_store, reliability, scheduling, signals, sql, store
from .clock import banks, deadlines, leaving
from .errors import ServiceError
from .models import Decision, Game, Move, Seat
from .sql import hand_sql
from .store import LockedGame, lock_game

log = logging.getLogger(__name__)


@dataclass
class MoveResult:
    """What a submission did: the game after it, the move, and the events the sender may see.

    ``seats``: the game's seats as the move left them; ``seq``: the move's number as its own seat knows
    it (``selectors.seat_seq``), when the pipeline knows it without a query.
    """

    game: Game
    move: Move | None
    events: list[dict[str, Any]] = field(default_factory=list)
    replayed: bool = False
    seats: dict[int, Seat] | None = None
    seq: int | None = None


#: 1-128 characters without control characters (PostgreSQL text cannot even hold NUL).
_IDEMPOTENCY_KEY = re.compile(r"[^\x00-\x1f\x7f]{1,128}")


class Admitting(store.Ahead, Protocol):
    """A read ahead of the lock that also says who is acting, once it is ``checked()``: the API's
    token (``apps.api.authentication.TokenAhead``)."""

    @property
    def user(self) -> User: ...


def submit_action(
    *,
    game_id: int,
    user: User | None,
    action: dict[str, Any],
    key: str | None = None,
    ahead: Admitting | None = None,
) -> MoveResult:
    """Apply one action of ``user`` to the game, exactly as DESIGN.md's five steps say.

    With ``ahead`` (and no ``user``), the acting user is the one it admits in the lock's round trip:
    its statement rides with the lock, and its check runs before anything of the game is looked at.

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
            locked = lock_game(game_id, move_key=key, ahead=ahead)
            if ahead is not None:
                user = ahead.user
            assert user is not None, "submit_action needs a user or a read ahead that admits one"
            game = locked.game
            seat = locked.seat_of(user)
            if seat is None:  # before the key: an outsider learns nothing about keys used
                raise ServiceError("not_seated", "you have no seat in this game", status=403)
            if key is not None and locked.key_move_id is not None:
                earlier = store.move_by_id(locked.key_move_id)
                if earlier is not None:
                    return _replayed(game, earlier, user, action, locked.seats)
            settled = settle(locked, timezone.now())
            # The move's writes may carry the COMMIT when this block is the transaction and nothing
            # follows them here (a run of timeouts ended by this move writes the seat after them).
            locked.may_commit = sql.owns_transaction() and not seat.consecutive_timeouts
            try:
                if game.status != Game.Status.ACTIVE:
                    raise ServiceError(
                        "game_not_active", f"this game is {game.get_status_display().lower()}", status=409
                    )
                applied = apply(locked, seat, action, user=user, key=key)  # RuleError: no writes
            except RuleError as exc:
                if key is not None:
                    # The lock query's key check saw the database as it was before this request waited
                    # for the lock (PostgreSQL evaluates it on the statement's snapshot), so a retry
                    # that queued behind its own first attempt finds that move here, with a fresh read.
                    earlier = store.move_by_key(game.pk, key)
                    if earlier is not None:
                        return _replayed(game, earlier, user, action, locked.seats)
                if not settled:
                    raise
                refused = exc  # keep the timeouts just applied: commit them, then refuse
            else:
                if seat.consecutive_timeouts:  # a move of the player's own ends a run of timeouts
                    seat.consecutive_timeouts = 0
                    seat.save(update_fields=["consecutive_timeouts"])
                if locked.committed:
                    _check_nothing_after_commit(locked)
                return MoveResult(
                    game,
                    applied.move,
                    _visible_events(applied.events, seat.position),
                    seats=locked.seats,
                    seq=applied.seat_seq,
                )
        raise refused
    except IntegrityError:
        # Only a concurrent request with the same Idempotency-Key gets here: the other one won.
        if key is None:
            raise
        winner = Move.objects.filter(game_id=game_id, idempotency_key=key).first()
        if winner is None or user is None:
            raise
        return _replayed(Game.objects.get(pk=game_id), winner, user, action)  # refused: another's


def _check_nothing_after_commit(locked: LockedGame) -> None:
    """Log a write made in the move's transaction after its writes carried the COMMIT (a bug: it ran in
    a transaction of its own, which Django's commit then ended), but for the record's late count."""
    if not locked.late_count and not sql.transaction_idle():
        log.error("game %s: a write after the move's commit, in a transaction of its own", locked.pk)


def _replayed(
    game: Game, earlier: Move, user: User, action: dict[str, Any], seats: dict[int, Seat] | None = None
) -> MoveResult:
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
    return MoveResult(game, earlier, _visible_events(earlier.events, earlier.seat), True, seats)


def _json_key(value: Any) -> Any:
    """``value`` as JSON compares it: ``true`` is not ``1``, but ``1`` is ``1.0`` (a JSONB round trip
    may turn one into the other); object key order does not count."""
    if isinstance(value, dict):
        return {key: _json_key(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_key(item) for item in value]
    return (type(value) is bool, value)


# --- settling what is due -------------------------------------------------------------------------------


def settle(locked: LockedGame, now: datetime, *, flush: bool = True) -> int:
    """Apply, in deadline order, the timeout action of every decision of the locked game due by ``now``;
    a server-played seat's decision on its bank is answered with the bot's choice instead
    (``_bot_answers_overdue``).

    A seat playing live in a sitting whose player has left is not timed out: it goes back to its own
    bank (``clock.leaving``), which may then run out in its turn.

    Returns the number of overdue decisions answered. Idempotent: a second call finds nothing due.
    The timeouts' writes go together at the end; with ``flush=False`` they are left in ``locked``
    (``take_writes``, ``run_after_flush``) for the caller to write with other games'
    (``store.flush_together``).
    """
    game = locked.game
    if game.status != Game.Status.ACTIVE:
        return 0
    locked.defer_flush = True  # the timeouts' writes go together, in one round trip at the end
    try:
        applied = _settle(locked, now)
    except BaseException:
        # nothing of a failed settlement may be written
        locked.writes, locked.after_flush, locked.game_fields = [], [], set()
        raise
    finally:
        locked.defer_flush = False
    if flush:
        locked.flush()
    return applied


def _settle(locked: LockedGame, now: datetime) -> int:
    game = locked.game
    engine = get_engine(game.engine)
    applied = 0
    while True:
        due_rows = [r for r in locked.decisions if r.deadline is not None and r.deadline <= now]
        if not due_rows:
            return applied
        due = min(due_rows, key=lambda r: (r.deadline, r.seat))
        action = engine.timeout_action(locked.state, due.seat)
        if action is None:  # the row is stale (the seat already answered): drop it
            locked.flush()  # the timeouts waiting in the batch may have written this row
            due.delete()
            locked.decisions = [r for r in locked.decisions if r is not due]
            continue
        seat = locked.seats[due.seat]
        if leaving.leaves_live(locked, due, now):  # a player who left a sitting: back on their own bank
            assert due.deadline is not None
            leaving.leave_live(locked, seat, at=due.deadline, now=now)
            continue
        if seat.played_by_bot and banks.runs_on_bank(due.timing):
            _bot_answers_overdue(locked, seat, action)
        else:
            apply(locked, seat, action, by_timeout=True)
        applied += 1
        if seat.played_by_bot:
            scheduling.queue_after_bot_timeout(locked)
        elif deadlines.record_timeout(game, seat, timing=due.timing, writes=locked.writes):
            scheduling.queue_after_handover(locked)
        if game.status != Game.Status.ACTIVE:
            return applied


def _bot_answers_overdue(locked: LockedGame, seat: Seat, default: dict[str, Any]) -> None:
    """A server-played seat's overdue decision on its bank: the bot's choice answers it, not the
    timeout default. Under a control without increment, a seat handed to the bot after its bank ran
    out owes every later decision on an empty bank, due the moment it opens: were it timed out, the
    bot would never play the seat it took over. A plucking window (the table's fixed length, not a
    bank) still closes with the default pass at its deadline. A bot bug falls back to the default: a
    bot that fails to choose (any exception) must not fail the settlement, which a sweep runs for many
    games together; only the exception's class is logged (its text might name a card)."""
    try:
        action = bot_moves.bot_action(locked, seat)
    except Exception as exc:
        log.error(
            "bot in game %s seat %s failed to choose (%s); applying the default",
            locked.pk,
            seat.position,
            type(exc).__name__,
        )
    else:
        try:
            apply(locked, seat, action, by_bot=True)
            return
        except RuleError as exc:
            log.warning(
                "bot in game %s seat %s refused (%s); applying the default",
                locked.pk,
                seat.position,
                exc.code,
            )
    apply(locked, seat, default, by_timeout=True, by_bot=True)


# --- applying one action --------------------------------------------------------------------------------


class Applied(NamedTuple):
    """One applied action: the move, its events, the decisions now open, and the move's number as its
    own seat knows it (BB-30.6)."""

    move: Move
    events: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    seat_seq: int


def apply(
    locked: LockedGame,
    seat: Seat,
    action: dict[str, Any],
    *,
    user: User | None = None,
    key: str | None = None,
    by_timeout: bool = False,
    by_bot: bool = False,
    automatic: bool = False,
    answer_ahead: bool = True,
) -> Applied:
    """Steps 3-5 on the locked game: apply, log, rewrite decisions, schedule.

    Then, in the same transaction, seats that do not wait for plucking windows (the switch, or away on
    vacation) pass any window this move opened, so such windows close at once, and standing orders
    answer the decisions that reached their seats (``auto_answer``, whose own answers come with
    ``answer_ahead=False``).

    ``automatic``: a pass the server makes for a seat that does not wait for plucking windows. An
    answer of a standing order is applied as the player's own (``user``, not automatic): the same
    move row, events and record as if the player had sent it.
    """
    game = locked.game
    engine = get_engine(game.engine)
    old_state = locked.state
    new_state, events = engine.apply(old_state, seat.position, action)  # RuleError: nothing written
    now = timezone.now()
    decisions = engine.pending(new_state)
    hidden = _is_hidden_answer(locked, seat.position, old_state, new_state, events, decisions)
    game.state = new_state
    game.version += 1
    if hidden:
        seat.hidden_moves += 1
        locked.writes.append(store.count_hidden_move(seat))
    else:
        game.public_version += 1
    move = sql.new(
        Move,
        game_id=game.pk,
        seq=game.version,
        public_seq=game.public_version,
        hidden=hidden,
        seat=seat.position,
        user_id=None if user is None else user.pk,
        action=action,
        events=events,
        by_timeout=by_timeout,
        by_bot=by_bot,
        idempotency_key=key,
    )
    sql.relate(move, "game", game)
    sql.relate(move, "user", user)
    seat_seq = game.public_version + seat.hidden_moves
    locked.writes.append(store.insert_move(move))
    update_fields = ["state", "version", "public_version"]
    if locked.bot_loop:  # the bot loop's marker follows its moves (scheduling)
        game.bot_task = game.version
        update_fields.append("bot_task")
    if not decisions:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.result = _final_result(engine, new_state, events)
        update_fields += ["status", "finished_at", "result"]
    in_person_seat = seat.position if user is not None and not (by_timeout or by_bot or automatic) else None
    # The reliability record counts an answer made in person; a hidden one (BB-30.6) waits until a
    # public move, the one that closes its decision, tells everyone who answered (``hidden_told``).
    told = not hidden and game.hidden_answers_waiting
    if told or (hidden and in_person_seat is not None and not game.hidden_answers_waiting):
        game.hidden_answers_waiting = hidden
        update_fields.append("hidden_answers_waiting")
    locked.write_game(update_fields)
    opened, new_rows = rewrite_decisions(locked, decisions, now, flush=False, hidden=hidden)
    game_id, version, people, persons = game.pk, game.version, locked.people(), locked.persons()
    answer = None
    if user is not None and in_person_seat is not None:  # the reliability record, with the move's writes
        answer = reliability.answer_counted(
            game_id=game_id, position=in_person_seat, user_id=user.pk, hidden=hidden
        )
        locked.writes.append(answer.write)
    if told:  # the hidden answers of the simultaneous decision this move closed count now (BB-30.6)
        locked.writes.append(reliability.hidden_told(game_id=game_id))
    move_signal: dict[str, Any] = {
        "game_id": game_id,
        "version": version,
        "opened": opened,
        "by_timeout": by_timeout,
        "in_person_seat": in_person_seat,
        "event_types": frozenset(e.get("type") for e in events),
        "people": people,
        "persons": persons,
    }
    # A move written now, on the hand path: its receivers' statements (the outbox rows, the webhook
    # look-up) join the move's writes, one round trip for all (settlement's moves wait for one flush).
    recording_now = hand_sql() and not locked.defer_flush
    if recording_now:
        signals.move_recording(sender=Game, statements=locked.writes, **move_signal)

    def recorded() -> None:
        """After the move's writes (its id is known): the signals and the tasks to queue."""
        if answer is not None and not answer.counted:  # the user holds no open tenure of the seat yet
            if locked.committed:  # the move's transaction is over: the count has one of its own
                locked.late_count = True
                reliability.answered_late(move_id=move.pk)
            else:
                reliability.answered(move_id=move.pk)
        if recording_now:
            applied = partial(signals.move_applied.send, sender=Game, move_id=move.pk, **move_signal)
            transaction.on_commit(applied)
        else:  # move_recorded now (the mail outbox), move_applied on commit
            signals.move_sent(sender=Game, move_id=move.pk, **move_signal)
        if not decisions:
            signals.game_ending.send(sender=Game, game_id=game_id, people=people, persons=persons)
            transaction.on_commit(
                partial(signals.game_ended.send, sender=Game, game_id=game_id, people=people)
            )
        else:
            scheduling.queue_after_move(locked, new_rows=new_rows, now=now)

    locked.after_flush.append(recorded)
    if not locked.defer_flush:
        # the move's writes in one round trip; with the COMMIT when nothing else will be written
        last = answer_ahead and locked.may_commit and bool(decisions)
        locked.flush(commit=last and not _may_auto_answer(locked, decisions))
    if answer_ahead:
        auto_answer(locked, decisions)
    return Applied(move, events, decisions, seat_seq)


def _is_hidden_answer(
    locked: LockedGame,
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
    still_open = {d.get("decision_id"): d["seats"] for d in decisions if d.get("decision_id")}
    answered = any(
        row.seat == mover
        and row.timing in deadlines.SIMULTANEOUS_TIMINGS
        and still_open.get(row.decision_id)
        and mover not in still_open[row.decision_id]
        for row in locked.decisions
    )
    if not answered:
        return False
    game = locked.game
    others: list[int | None] = [None, *(p for p in range(game.players) if p != mover)]
    if any(visible(event, viewer) for event in events for viewer in others):
        return False
    engine = get_engine(game.engine)
    return all(engine.view(old_state, viewer) == engine.view(new_state, viewer) for viewer in others)


# --- answers given ahead: plucking windows passed, standing orders --------------------------------------

#: A bound on the moves made on behalf of seats after one move (a window has at most 5 owners; standing
#: orders pass at most the rest of a trick).
AUTO_PASSES_PER_MOVE = 64


def passes_windows(seat: Seat) -> bool:
    """A human-played seat that does not wait for plucking windows: the switch is on, or it is away."""
    return not seat.bot and not seat.bot_takeover and (seat.skip_pluck_windows or store.on_vacation(seat))


def passable_window(decision: dict[str, Any]) -> bool:
    """A reaction window that may be passed (BB-24: passing is its default)."""
    return decision.get("timing") == deadlines.REACTION and "pass" in decision.get("allowed", ())


def auto_pass_windows(locked: LockedGame, decisions: list[dict[str, Any]]) -> int:
    """``auto_answer``: the name under which the seat settings call it."""
    return auto_answer(locked, decisions)


def open_decisions(locked: LockedGame) -> list[dict[str, Any]]:
    """The engine's open decisions of the locked game."""
    return get_engine(locked.game.engine).pending(locked.state)


def _may_auto_answer(locked: LockedGame, decisions: list[dict[str, Any]]) -> bool:
    """Whether ``auto_answer`` might answer one of ``decisions`` (a superset of when it does): a seat
    asked that passes windows or holds standing orders."""
    for decision in decisions:
        for position in decision.get("seats") or ():
            seat = locked.seats[position]
            if seat.has_orders or passes_windows(seat):
                return True
    return False


def auto_answer(locked: LockedGame, decisions: list[dict[str, Any]]) -> int:
    """Answer what seats answered ahead; returns the number of moves made.

    Runs on the locked game, right after the move that opened ``decisions``, so that the answers are in
    that move's transaction: a seat that does not wait for plucking windows passes an open window
    (passing is its default anyway, BB-24); a seat whose standing orders answer its open decision
    answers it (``order_store.answer``), one move each, exactly as if its player had sent the action. An
    order the engine refuses (never expected: the rules drop illegal orders) is forgotten and the player
    is asked as usual; it must not undo the move that reached the seat.
    """
    game = locked.game
    moves = 0
    skippers: dict[int, Seat] | None = None
    refused: set[int] = set()
    while moves < AUTO_PASSES_PER_MOVE and game.status == Game.Status.ACTIVE:
        if skippers is None:
            skippers = {position: s for position, s in locked.seats.items() if passes_windows(s)}
        found = _auto_answer_one(locked, decisions, skippers, refused)
        if found is None:
            return moves
        seat, action, by_order = found
        try:
            decisions = apply(
                locked, seat, action, user=seat.user, automatic=not by_order, answer_ahead=False
            ).decisions
        except RuleError as exc:
            log.warning("automatic answer refused in game %s seat %s (%s)", game.pk, seat.position, exc.code)
            if not by_order:
                return moves
            order_store.store(seat, [])
            refused.add(seat.position)
            continue
        moves += 1
    return moves


def _auto_answer_one(
    locked: LockedGame, decisions: list[dict[str, Any]], skippers: dict[int, Seat], refused: set[int]
) -> tuple[Seat, dict[str, Any], bool] | None:
    """The next (seat, action, given by a standing order) to apply, or None."""
    for decision in decisions:
        if passable_window(decision):
            for position in decision.get("seats") or ():
                if position in skippers:
                    window_pass = {"type": "pass", "decision_id": decision.get("decision_id")}
                    return skippers[position], window_pass, False
    for decision in decisions:
        for position in decision.get("seats") or ():
            seat = locked.seats[position]
            if position in refused or not seat.has_orders:
                continue
            action = order_store.answer(locked, seat)
            if action is not None:
                return seat, action, True
    return None


def _final_result(engine: Any, state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Standings of a finished game from its last events, plus the referee's totals."""
    ref = engine.referee_view(state)
    result: dict[str, Any] = {"totals": ref.get("totals"), "winners": ref.get("winners", [])}
    for event in events:
        if event.get("type") in {"game_ended", "game_over"}:
            result["standings"] = event.get("standings")
    return result


def rewrite_decisions(
    locked: LockedGame,
    decisions: list[dict[str, Any]],
    now: datetime,
    *,
    flush: bool = True,
    hidden: bool = False,
) -> tuple[list[list[Any]], list[Decision]]:
    """Make the Decision rows match ``pending``; a decision still open keeps its deadline.

    A closed decision is debited from its owner's bank and a new one runs on it (``clock.banks``;
    ``hidden``: the move stays unknown to the others, so the banks they see do not change).
    Returns the (seat, kind, decision_id) triples that this rewrite opened, and the new rows. The
    statements join ``locked.writes``; ``flush`` runs them now, else the caller runs them with its own.
    """
    game = locked.game
    existing = {(d.seat, d.decision_id): d for d in locked.decisions}
    wanted: set[tuple[int, str]] = set()
    opened: list[list[Any]] = []
    new_rows: list[Decision] = []
    away: set[int] | None = None
    book = banks.BankBook(locked, now)
    if not hidden:
        book.publish()
    for index, decision in enumerate(decisions):
        decision_id = str(decision.get("decision_id") or f"v{game.version}-{index}-{decision['kind']}")
        for seat in decision["seats"]:
            wanted.add((seat, decision_id))
    for key, row in existing.items():
        if key not in wanted and banks.runs_on_bank(row.timing) and row.seat in locked.seats:
            book.close(row, locked.seats[row.seat], hidden=hidden)
    kept_bank_rows = {
        row.seat: row for key, row in existing.items() if key in wanted and banks.runs_on_bank(row.timing)
    }
    paused = game.status == game.Status.PAUSED
    for index, decision in enumerate(decisions):
        decision_id = str(decision.get("decision_id") or f"v{game.version}-{index}-{decision['kind']}")
        timing = decision.get("timing", "turn")
        for seat in decision["seats"]:
            if (seat, decision_id) in existing:
                continue
            if away is None:  # the clock of a player on vacation (of anyone, for a setup peek) starts stopped
                away = locked.away()
            held = deadlines.stopped_by_absence(timing, seat, away)
            if banks.runs_on_bank(timing) and seat in locked.seats:
                deadline, remaining = book.open(
                    locked.seats[seat], held=held, paused=paused, sharing=kept_bank_rows.get(seat)
                )
            else:
                deadline, remaining = deadlines.clock_for(game, timing, now, away=held)
            row = sql.new(
                Decision,
                game_id=game.pk,
                seat=seat,
                decision_id=decision_id,
                kind=decision["kind"],
                timing=timing,
                opened_at=now,
                deadline=deadline,
                remaining=remaining,
            )
            sql.relate(row, "game", game)
            if banks.runs_on_bank(timing):
                kept_bank_rows.setdefault(seat, row)
            new_rows.append(row)
            opened.append([seat, decision["kind"], decision_id])
    book.write()
    if any(d.pk is None for k, d in existing.items() if k not in wanted):
        locked.flush()  # a row to rewrite or delete is still waiting to be inserted (``settle``)
    stale = [d.pk for k, d in existing.items() if k not in wanted]
    # A closed decision's row is rewritten in place for a new one (one UPDATE instead of a DELETE and
    # an INSERT); rows left over are deleted, new decisions left over inserted.
    locked.writes += [store.reuse_decision_row(pk, row) for pk, row in zip(stale, new_rows, strict=False)]
    locked.writes += store.delete_decisions(stale[len(new_rows) :])
    locked.writes += store.insert_decisions(new_rows[len(stale) :])
    if flush:
        locked.flush()
    locked.decisions = [d for k, d in existing.items() if k in wanted] + new_rows
    return opened, new_rows


def _visible_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    return [e for e in events if visible(e, seat)]
