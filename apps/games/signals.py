"""Signals the games app sends after a commit; other apps (notifications, leagues) listen.

Most are sent from ``transaction.on_commit``, so receivers always see committed rows;
``move_recorded`` is sent inside the move's transaction, for the writes that must commit or roll back
with the move (the outbox rows of the notifications, webhooks and push apps), all in one round trip
(``move_sent`` sends both). ``game_ending``, ``seat_handed_to_bot`` and ``seat_taken`` are sent inside
their transactions too, for the mail rows that must commit with what they tell of.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from . import sql

#: A move was applied. kwargs: ``game_id``, ``version`` (after the move), ``move_id``, ``opened``
#: (list of (seat, kind, decision_id) opened by this move), ``by_timeout``, ``in_person_seat`` (the
#: seat whose player made this move themselves, from a page, the API or a mail; None for the deal, a
#: timeout, a bot or an automatic pass), ``event_types`` (the set of the move's event types) and
#: ``people`` (the seats a person plays now, neither a bot nor handed to the bot: who may be mailed
#: about a decision) and ``persons`` (the seats a person holds, the bot playing some of them for their
#: player: who is told a round's result).
move_applied = Signal()

#: The same move, inside its transaction (same kwargs as ``move_applied``, plus ``statements``). A
#: receiver may write rows that must exist exactly when the move does (an outbox) or look up what it
#: needs to know on commit; it must not fail, nor do slow work. Rather than running its SQL itself it
#: may append ``sql.Statement``s to ``statements`` (reading their results in ``on_rows``): the
#: statements of all receivers run together, in one round trip, once every receiver has been called.
#: That round trip may carry the transaction's COMMIT (``pipeline.apply``), so ``on_rows`` writes
#: nothing: a write that depends on a look-up is one statement with it (``sql.insert_when_any``).
#: ``move_id`` None with a ``version`` above 0: the move's row is not written yet; it is written in the
#: same round trip, before the receivers' statements (``move_recording``), which may find it by the
#: game and its number, ``version``.
move_recorded = Signal()


@dataclass(frozen=True)
class RecordedMove:
    """The keyword arguments of ``move_recorded`` (and ``move_applied``), as one typed value."""

    game_id: int
    version: int
    move_id: int | None
    opened: list[list[Any]]
    by_timeout: bool = False
    in_person_seat: int | None = None
    event_types: frozenset[str] = frozenset()
    people: frozenset[int] | None = None
    persons: frozenset[int] | None = None
    statements: list[Any] | None = None


MoveReceiver = Callable[[RecordedMove], None]


def recorded_move_receiver(dispatch_uid: str) -> Callable[[MoveReceiver], MoveReceiver]:
    """Connect the decorated ``receiver(move)`` to ``move_recorded``, the signal's keyword arguments
    gathered in one ``RecordedMove``."""

    def connect(receiver: MoveReceiver) -> MoveReceiver:
        def receive(sender: Any, signal: Signal, **kwargs: Any) -> None:
            receiver(RecordedMove(**kwargs))

        move_recorded.connect(receive, dispatch_uid=dispatch_uid, weak=False)
        return receiver

    return connect


def move_recording(sender: Any, *, statements: list[Any], **kwargs: Any) -> None:
    """In a move's transaction, before its writes run (on the hand path): ``move_recorded`` with
    ``move_id`` None, its receivers' statements appended to ``statements``, the move's own writes, so
    that all go in one round trip. The caller sends ``move_applied`` on commit, with the move's id."""
    move_recorded.send(sender=sender, statements=statements, move_id=None, **kwargs)


def move_sent(sender: Any, **kwargs: Any) -> None:
    """In a move's transaction: ``move_recorded`` now (its receivers' statements in one round trip),
    and ``move_applied`` when it commits."""
    statements: list[sql.Statement] = []
    move_recorded.send(sender=sender, statements=statements, **kwargs)
    if statements:
        sql.batch(statements)
    transaction.on_commit(partial(move_applied.send, sender=sender, **kwargs))


#: A game is ending (finished, adjudicated or aborted), sent inside the transaction that writes its end,
#: so that what must not be lost with it (the outbox's end rows: the result mails, the webhooks'
#: ``game.ended``) commits with the end or not at all. kwargs as ``game_ended``, and ``persons`` (as
#: above) when the sender knows it.
game_ending = Signal()

#: A game ended (finished, adjudicated or aborted), sent when its end has committed. kwargs: ``game_id``,
#: and ``people`` (as above) when the sender knows it.
game_ended = Signal()

#: A game started (every seat taken, first deal made). kwargs: ``game_id``.
game_started = Signal()

#: An absent player's seat is now played by the bot (after ``game.absent_limit`` timeouts in a row).
#: kwargs: ``game_id``, ``seat`` (position), ``version`` (the game's, at the timeout that handed it
#: over). Sent inside the transaction that hands the seat over (the game locked; the seat's own UPDATE
#: may still wait in the batch), so that the mails it calls for are recorded with it: the player's and a
#: league game's organisers' (``apps.notifications``, ``apps.leagues``), each in a savepoint of its own.
seat_handed_to_bot = Signal()

#: A seat that played live in a sitting ran out of its live bank while its player was away: it is back
#: on the game's own control and its own bank, as if it had missed the sitting (``clock.leaving``).
#: kwargs: ``game_id``, ``seat`` (position), ``version`` (the game's), ``opened`` (the seat's open
#: decisions, as ``move_applied``'s: (seat, kind, decision_id) each). Sent inside the settlement's
#: transaction, its writes made, so that the "your move" mail it calls for is recorded with it.
seat_left_live = Signal()

#: A closed account's seat of a game in play or paused is now the bot's, until the game ends
#: (``closing.game_let_go``). kwargs: ``game_id``, ``seat`` (position), ``version`` (the game's). Sent
#: inside that game's transaction, once per seat handed over, so that the mails it calls for are recorded
#: with it: a league game's organisers' (``apps.leagues``), who may offer the seat to a substitute.
closed_seat_to_bot = Signal()

#: Somebody took a free seat of a game waiting for players, at an open table (``lobby.open_table_join``)
#: or by an invitation link (``invitations.invitation_accept``); sent by ``seating.seat_taken_tell``.
#: kwargs: ``game_id``, ``position`` (the seat taken), ``user_id`` (who took it), ``seats_free`` (the
#: seats still free after it; 0: that was the last, and the game has started) and ``via``
#: (``open_table`` or ``invitation``). Sent inside the transaction that seats them (the game locked),
#: so that the mail it calls for is recorded with the seat or not at all: the creator's
#: (``apps.notifications``), in a savepoint of its own.
seat_taken = Signal()

#: The player took their seat back from the bot. kwargs: ``game_id``, ``seat`` (position).
seat_taken_back = Signal()

#: A whole game's clocks stopped / restarted (``apps.games.clock``). kwargs: ``game_id``.
game_paused = Signal()
game_resumed = Signal()

#: A table-talk message was reported for the first time (``table_talk.message_report``), sent when the
#: report has committed; a later report of the same message sends nothing, so that the staff hear of a
#: message once. kwargs: ``message_id``, ``game_id`` (never who reported it).
talk_message_reported = Signal()


@dataclass
class MoveBatch:
    """The games whose moves are being made together (a sweep's batch), while they are made and while
    their on-commit receivers run: a receiver that would look something up for each move's game may
    look it up once for all of them and keep the answer in ``memo`` (``batch_lookup``)."""

    game_ids: frozenset[int] = frozenset()
    memo: dict[str, Any] = field(default_factory=dict)


_batch: ContextVar[MoveBatch | None] = ContextVar("games_move_batch", default=None)


@contextmanager
def move_batch() -> Iterator[MoveBatch]:
    """Mark the moves made inside the block as one batch; the caller sets ``game_ids`` once it knows
    them. The block must contain the transaction, so that the receivers run on commit inside it."""
    batch = MoveBatch()
    token = _batch.set(batch)
    try:
        yield batch
    finally:
        _batch.reset(token)


def batch_lookup(name: str, game_id: int, look_up: Any) -> Any:
    """``look_up(game_ids)`` for the current batch, once per ``name``, when ``game_id`` is one of its
    games; None outside a batch (the receiver then looks up ``game_id`` alone)."""
    batch = _batch.get()
    if batch is None or game_id not in batch.game_ids:
        return None
    if name not in batch.memo:
        batch.memo[name] = look_up(batch.game_ids)
    return batch.memo[name]


#: ``manage.py rundev`` is about to start the site's processes. kwargs: ``var_dir`` (the local data
#: folder). A receiver prepares what those processes read (push: development keys) and returns a line
#: to print, or None.
dev_server_starting = Signal()
