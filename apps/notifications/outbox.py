"""The transactional outbox of a move's outgoing effects: nothing a move calls for is lost with its task.

One outbox for every channel (``MoveMailOutbox.channel``): mail, webhooks and Web Push, and any later one
(a channel is a row kind and the name of the task that fans it out, ``CHANNEL_TASKS``). A move's
transaction writes one row per channel the move calls for (mail: a person has a new decision or a round
ended; webhooks: a seat's player has an active webhook; push: a person with a subscribed browser has a
new decision), unique per (game, channel, kind, version), and wakes the drain when it commits (``wake``:
at most one wake-up per process and ``NOTIFICATIONS_OUTBOX_WAKE`` seconds), which runs the channel's task
for every row not taken yet (``drain``). The task fans the effect out to its recipients (a notification
per person, a delivery per webhook endpoint and seat, a burst per person) and deletes the row; for
webhooks and push in the same transaction as the recipients' rows, so the row goes exactly when they
exist. The broker only makes this quick: a wake-up or task lost on the way (a publish that failed, a
broker down or restarted empty, a worker killed before it ran) leaves its row behind, and the sweep
(``requeue_stale``, every ``GAMES_SWEEP_INTERVAL``) claims it with a conditional UPDATE and queues the
task again, every ``NOTIFICATIONS_OUTBOX_RETRY`` seconds until it is done. Each recipient's row then
carries the delivery's stable id (the webhook's ``event_id``, the push notice's ``id``). A game's end
has its row per channel too (``record_game_end``), done by the drain the same way.

Mail: a move's transaction writes one ``MoveMailOutbox`` row when the move calls for any mail (a person
has a new decision, or a round ended in a game a person plays), and the drain runs
``notify_move_applied`` for it after the commit. The task records the notifications and deletes the row
(``consume``). A task lost on the way (a publish that failed after commit, a broker that restarted empty,
a worker killed before it ran) leaves its row behind: the recovery sweep (``requeue_stale``) queues the
task again for every row older than ``NOTIFICATIONS_OUTBOX_RETRY`` seconds.

Mail stays at most once: a notification is unique per (user, game, version, kind), so a task run twice (a
late task and the sweep's) records each one once, and sending claims the row first. The only
at-least-once case is the send's own (``notifications_reclaim_stale``: a worker that died after the SMTP
server accepted a mail but before writing ``sent``).
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta
from functools import cache, partial
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import F, QuerySet
from django.db.models.constants import OnConflict
from django.db.models.sql import InsertQuery
from django.utils import timezone

from apps.games import sql
from apps.games.models import Move
from baogame.celery import app, import_task_modules, publish

from .models import MoveMailOutbox

#: Events that end a round (Bao Bei) or a deal (Bao Huang): their move brings the round's result mail.
ROUND_END_EVENTS = {"round_ended", "deal_ended"}

log = logging.getLogger(__name__)

NOTIFY_MOVE_APPLIED = "apps.notifications.tasks.notify_move_applied"
NOTIFY_GAME_ENDED = "apps.notifications.tasks.notify_game_ended"
WEBHOOKS_FANOUT = "apps.webhooks.tasks.webhooks_fanout"
PUSH_DECISIONS = "apps.push.tasks.push_decisions"
DRAIN_OUTBOX = "apps.notifications.tasks.drain_outbox"

Channel = MoveMailOutbox.Channel
Kind = MoveMailOutbox.Kind


def _task(
    channel: str, kind: str, game_id: int, version: int, move_id: int | None, opened: list[Any]
) -> tuple[str, tuple[Any, ...]] | None:
    """The task (name, arguments) that does one outbox row's work (None: a kind the channel lacks)."""
    if channel == Channel.MAIL:
        if kind == Kind.GAME_END:
            return NOTIFY_GAME_ENDED, (game_id,)
        return NOTIFY_MOVE_APPLIED, (game_id, version, move_id, opened)
    if channel == Channel.WEBHOOK:
        if kind == Kind.GAME_END:
            return WEBHOOKS_FANOUT, (game_id, None, True)
        return WEBHOOKS_FANOUT, (game_id, move_id, False, version)
    if channel == Channel.PUSH and kind == Kind.MOVE:
        return PUSH_DECISIONS, (game_id, version, opened)
    return None


#: Every channel and the task that fans its rows out (for the docs and the checks).
CHANNEL_TASKS = {
    Channel.MAIL: NOTIFY_MOVE_APPLIED,
    Channel.WEBHOOK: WEBHOOKS_FANOUT,
    Channel.PUSH: PUSH_DECISIONS,
}


def _publish(
    channel: str, kind: str, game_id: int, version: int, move_id: int | None, opened: list[Any]
) -> int:
    task = _task(channel, kind, game_id, version, move_id, opened)
    return publish(task[0], task[1]) if task else 0


_muted: ContextVar[bool] = ContextVar("notifications_outbox_muted", default=False)


@contextmanager
def muted() -> Iterator[None]:
    """Moves and ends inside the block call for no mail: for writing history nobody is to be told
    about (``seed_demo_league`` plays its finished demo tables this way, so ``make run`` does not start
    with hundreds of mail tasks queued ahead of the first new game's bots)."""
    token = _muted.set(True)
    try:
        yield
    finally:
        _muted.reset(token)


def results_wanted(*, people: frozenset[int] | None, persons: frozenset[int] | None) -> bool:
    """Whether a round's or the game's result is told to anybody: some seat a person holds (``persons``,
    the bot playing some of them for their player; ``people`` when not given; neither: not known, so
    yes). A game of bots and bot accounts alone records no result mail."""
    told = persons if persons is not None else people
    return told is None or bool(told)


def wanted_mails(
    *,
    opened: list[list[Any]],
    in_person_seat: int | None,
    event_types: frozenset[str],
    people: frozenset[int] | None,
    persons: frozenset[int] | None = None,
) -> tuple[list[list[Any]], bool]:
    """The opened decisions to mail about, and whether a round result is to be mailed.

    Only seats a person plays are mailed about decisions (``people``). A player who has just moved in
    person is not mailed about the decisions their own move opened for them: the page, the API reply or
    the answer to their mail shows those already (a reminder still comes near the deadline). Decisions
    that others' moves (the bots') open for them right after a move made by mail are recorded here, as
    the answer may be written before or after those moves; their mail (and push notice) is dropped
    when it is due if the answer listed them (``selectors.decisions_told_in_answers``). A round's
    result goes to every seat a person holds (``persons``, the bot playing some of them for their
    player; ``people`` when not given).
    """
    wanted = [
        list(o)
        for o in opened
        if (in_person_seat is None or o[0] != in_person_seat) and (people is None or o[0] in people)
    ]
    round_ended = bool(event_types & ROUND_END_EVENTS) and results_wanted(people=people, persons=persons)
    return wanted, round_ended


def record(
    *,
    game_id: int,
    version: int,
    move_id: int | None,
    opened: list[list[Any]],
    statements: list[sql.Statement] | None = None,
    channel: str = Channel.MAIL,
    when: Callable[[int], QuerySet[Any]] | None = None,
) -> None:
    """In the move's transaction: write its outbox row of ``channel``, and wake the drain when the move
    commits (``wake``).

    ``statements``: the INSERT is appended there, to be run by the caller with others in one round
    trip (``move_recorded``), instead of being run now. ``move_id`` None on the hand path: the move's
    row is written in that same round trip, before the INSERT, which finds its id by the game and the
    move's number (``version``); no move has number 0, so a game's first deal gets none, as before.

    ``when``: only if ``when(game_id)`` has a row (a seat's player has a webhook, a subscribed browser).
    Appended to ``statements``, the question and the write are one statement (``sql.insert_when_any``),
    so that nothing of the move is written after its writes' round trip; else the question is asked
    first (``sql.when_any``)."""
    if _muted.get():
        return
    if when is not None and not (sql.hand_sql() and statements is not None):
        wanted = partial(record, game_id=game_id, version=version, move_id=move_id, opened=opened)
        sql.when_any(when, game_id, partial(wanted, statements=statements, channel=channel), statements)
        return
    now = timezone.now()
    row = sql.new(
        MoveMailOutbox,
        game_id=game_id,
        channel=channel,
        version=version,
        move_id=move_id,
        opened=opened,
        queued_at=now,
    )
    if sql.hand_sql():
        insert = _insert_ignoring_conflicts(row, move_by_number=move_id is None)
        if when is not None:
            assert statements is not None  # above
            insert = sql.insert_when_any(insert, when, game_id)
            inserted = insert

            def woken(rows: list[tuple[Any, ...]]) -> None:
                if inserted.rowcount > 0:
                    _wake_on_commit()

            insert.on_rows = woken
            statements.append(insert)
            return
        if statements is not None:
            statements.append(insert)
        else:
            sql.batch([insert])
    else:
        MoveMailOutbox.objects.bulk_create(
            [row],
            ignore_conflicts=True,  # recorded already (never by a move, but nothing here may break one)
        )
    _wake_on_commit()


def _wake_on_commit() -> None:
    """``wake`` once when the transaction commits, however many rows it writes (a move writes up to one
    per channel): a wake-up already registered where this row's savepoints would discard it too covers
    this row."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        savepoints = set(connection.savepoint_ids)
        if any(func is wake and sids <= savepoints for sids, func, _ in connection.run_on_commit):
            return
    transaction.on_commit(wake)


class _Waker:
    """When this process's last wake-up of the drain runs (``time.monotonic()``; -inf: none pending)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.runs_at = -math.inf


_waker = _Waker()

#: A wake-up due this close after a commit is not counted on to run after it (clocks of the web and
#: worker machines differ by a few milliseconds): the commit asks for a wake-up of its own.
WAKE_MARGIN = 0.05


def wake() -> None:
    """After a commit that wrote outbox rows: make sure a drain (``drain_outbox``) runs after it.

    Coalesced per process: the first commit after a quiet spell publishes a wake-up at once; a commit
    while one is pending later than itself publishes nothing (that drain finds its rows); else it
    publishes one due ``NOTIFICATIONS_OUTBOX_WAKE`` seconds after the last (an ``eta``). So a lone move's
    effects go out at once, and under load one publish serves every move of the interval, each waiting at
    most the interval. A publish that fails (broker down) forgets its wake-up, so the next commit tries
    again; the rows wait for the sweep meanwhile, as with any lost task. In eager mode (tests) every
    commit drains at once.
    """
    if app.conf.task_always_eager:
        publish(DRAIN_OUTBOX, ())
        return
    interval = max(0.0, float(settings.NOTIFICATIONS_OUTBOX_WAKE))
    now = time.monotonic()
    with _waker.lock:
        if _waker.runs_at >= now + WAKE_MARGIN:
            return
        runs_at = _waker.runs_at = max(now, _waker.runs_at + interval)
    delay = runs_at - now
    eta = timezone.now() + timedelta(seconds=delay) if delay > 0 else None
    if not publish(DRAIN_OUTBOX, (), eta=eta):
        with _waker.lock:
            if _waker.runs_at == runs_at:
                _waker.runs_at = -math.inf


#: Rows one drain takes at most (the next wake-up or the sweep takes the rest).
DRAIN_BATCH = 500


def drain(*, now: datetime | None = None, limit: int = DRAIN_BATCH) -> int:
    """Do the work of every outbox row (a move's, a game end's) that no task has taken yet, oldest first;
    returns how many rows were done.

    A row no task has taken has ``queued_at`` at or before its ``created_at`` (``record`` sets
    ``queued_at`` first); taking it moves ``queued_at`` to now with a conditional UPDATE, as the sweep
    does, so two drains take each row once, and a row whose work fails (or whose worker dies) is left to
    the sweep, which queues its own task (with that task's retries) after ``NOTIFICATIONS_OUTBOX_RETRY``
    seconds. The work is the channel's task run here (``notify_move_applied``, ``webhooks_fanout``,
    ``push_decisions``), which consumes the row; the tasks are found by name, as they are published.
    """
    now = now or timezone.now()
    rows = MoveMailOutbox.objects.filter(queued_at__lte=F("created_at")).order_by("pk")
    done = 0
    for row in rows[:limit]:
        if not MoveMailOutbox.objects.filter(pk=row.pk, queued_at=row.queued_at).update(queued_at=now):
            continue  # another drain or the sweep took it, or its work is done
        task = _task(row.channel, row.kind, row.game_id, row.version, row.move_id, row.opened)
        if task is None:
            continue
        try:
            _run(*task)
        except Exception:  # noqa: BLE001 - one row's failure must not hold up the others
            log.exception("outbox row %s (%s) failed; the sweep will queue it again", row.pk, task[0])
            continue
        done += 1
    return done


def _run(name: str, args: tuple[Any, ...]) -> None:
    """Run the task ``name`` here, in this process (found by name, as ``publish`` finds it)."""
    if name not in app.tasks:
        import_task_modules()
    app.tasks[name](*args)


def _insert_ignoring_conflicts(row: MoveMailOutbox, *, move_by_number: bool = False) -> sql.Statement:
    """``bulk_create([row], ignore_conflicts=True)`` as one statement whose SQL Django compiled once
    (``GAMES_HAND_SQL``, as the rest of a move's writes): the ORM spent about 1 ms CPU a move building
    it again each time, several times what the database takes to run it. ``move_by_number``: the row's
    ``move_id`` is the id of the game's move numbered ``row.version``, found by the INSERT itself."""
    text, fields = _insert_sql(sql.vendor(), move_by_number)
    params: list[Any] = []
    for f, value in zip(fields, sql.save_values(row, fields, True), strict=True):
        if move_by_number and f.attname == "move_id":
            params += [row.game_id, row.version]
        else:
            params.append(value)
    return sql.Statement(text, params)


@cache
def _insert_sql(vendor: str, move_by_number: bool = False) -> tuple[str, tuple[Any, ...]]:
    """The outbox's INSERT that skips a row already there, as Django's compiler writes it; with
    ``move_by_number``, its ``move_id`` value a sub-select of the move by game and number."""
    connection = connections[DEFAULT_DB_ALIAS]
    fields = tuple(f for f in MoveMailOutbox._meta.concrete_fields if not f.primary_key)
    query = InsertQuery(MoveMailOutbox, on_conflict=OnConflict.IGNORE)
    query.insert_values(fields, [MoveMailOutbox(game_id=0, version=0, opened=[], queued_at=timezone.now())])
    [(text, _)] = query.get_compiler(connection=connection).as_sql()
    if move_by_number:
        head, values, tail = re.fullmatch(r"(.* VALUES \()([^)]*)(\).*)", text, re.DOTALL).groups()  # type: ignore[union-attr]
        slots = values.split(", ")
        assert len(slots) == len(fields) and set(slots) == {"%s"}
        quote = connection.ops.quote_name
        move = {f.name: quote(str(f.column)) for f in Move._meta.concrete_fields}
        slots[[f.attname for f in fields].index("move_id")] = (
            f"(SELECT {move['id']} FROM {quote(Move._meta.db_table)} "
            f"WHERE {move['game']} = %s AND {move['seq']} = %s)"
        )
        text = head + ", ".join(slots) + tail
    return text, fields


def consume(*, game_id: int, version: int, channel: str = Channel.MAIL) -> None:
    """The move's effects of ``channel`` are recorded (notifications, deliveries, bursts): its outbox
    row is done."""
    MoveMailOutbox.objects.filter(game_id=game_id, channel=channel, kind=Kind.MOVE, version=version).delete()


def record_game_end(*, game_id: int, channel: str = Channel.MAIL) -> None:
    """In the transaction that ends the game (``game_ending``): write its end's outbox row of
    ``channel``, and wake the drain when it commits (``wake``), which runs the channel's end task (the
    result mails, the ``game.ended`` event) as it runs a move's. The row commits with the end or not at
    all, so nothing of the end is lost with a wake-up, the broker, a worker or a web process that dies
    after the commit: the sweep queues the task again.
    """
    if _muted.get():
        return
    row = MoveMailOutbox(
        game_id=game_id, channel=channel, kind=Kind.GAME_END, version=0, opened=[], queued_at=timezone.now()
    )
    if sql.hand_sql():
        sql.batch([_insert_ignoring_conflicts(row)])
    else:
        MoveMailOutbox.objects.bulk_create([row], ignore_conflicts=True)  # an end written twice
    _wake_on_commit()


def consume_game_end(*, game_id: int, channel: str = Channel.MAIL) -> None:
    """The end's effects of ``channel`` are recorded: the end's outbox row is done."""
    MoveMailOutbox.objects.filter(game_id=game_id, channel=channel, kind=Kind.GAME_END).delete()


def requeue_stale(*, now: datetime | None = None) -> int:
    """Queue the channel's task (``notify_move_applied``, ``webhooks_fanout``, ``push_decisions``; an
    end's) again for every outbox row whose task has not run for ``NOTIFICATIONS_OUTBOX_RETRY`` seconds;
    each row once per such period (a conditional update claims it, so two sweeps queue it once).
    Returns the number of tasks queued."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.NOTIFICATIONS_OUTBOX_RETRY)
    requeued = 0
    for row in MoveMailOutbox.objects.filter(queued_at__lt=cutoff).order_by("pk")[:500]:
        if not MoveMailOutbox.objects.filter(pk=row.pk, queued_at=row.queued_at).update(queued_at=now):
            continue  # another sweep took it, or its task consumed it
        requeued += _publish(row.channel, row.kind, row.game_id, row.version, row.move_id, row.opened)
    if requeued:
        log.warning("%d lost outbox tasks (mail, webhooks, push) queued again", requeued)
    return requeued
