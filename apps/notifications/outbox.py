"""The transactional outbox of a move's outgoing effects: nothing a move calls for is lost with its task.

One outbox for every channel (``MoveMailOutbox.channel``): mail, webhooks and Web Push, and any later
one (a channel is a row kind and the name of the task that fans it out, ``CHANNEL_TASKS``). A move's
transaction writes one row per channel the move calls for (mail: a person has a new decision or a
round ended; webhooks: a seat's player has an active webhook; push: a person with a subscribed browser
has a new decision), unique per (game, channel, kind, version), and queues the channel's task when it
commits. The task fans the effect out to its recipients (a notification per person, a delivery per
webhook endpoint and seat, a burst per person) and deletes the row; for webhooks and push in the same
transaction as the recipients' rows, so the row goes exactly when they exist. The broker only makes this
quick: a task lost on the way (a publish that failed after commit, a broker down or restarted empty, a
worker killed before it ran) leaves its row behind, and the sweep (``requeue_stale``, every
``GAMES_SWEEP_INTERVAL``) claims it with a conditional UPDATE and queues the task again, every
``NOTIFICATIONS_OUTBOX_RETRY`` seconds until it is done. Each recipient's row then carries the
delivery's stable id (the webhook's ``event_id``, the push notice's ``id``).

Mail: a move's transaction writes one ``MoveMailOutbox`` row when the move calls for any mail (a person
has a new decision, or a round ended in a game a person plays), and queues ``notify_move_applied`` when
it commits. The task records the notifications and deletes the row (``consume``). A task lost on the way
(a publish that failed after commit, a broker that restarted empty, a worker killed before it ran)
leaves its row behind: the recovery sweep (``requeue_stale``) queues the task again for every row
older than ``NOTIFICATIONS_OUTBOX_RETRY`` seconds.

Mail stays at most once: a notification is unique per (user, game, version, kind), so a task run twice
(a late task and the sweep's) records each one once, and sending claims the row first. The only
at-least-once case is the send's own (``notifications_reclaim_stale``: a worker that died after the
SMTP server accepted a mail but before writing ``sent``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta
from functools import cache, partial
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models.constants import OnConflict
from django.db.models.sql import InsertQuery
from django.utils import timezone

from apps.games import sql
from baogame.celery import publish

from .models import MoveMailOutbox

#: Events that end a round (Bao Bei) or a deal (Bao Huang): their move brings the round's result mail.
ROUND_END_EVENTS = {"round_ended", "deal_ended"}

log = logging.getLogger(__name__)

NOTIFY_MOVE_APPLIED = "apps.notifications.tasks.notify_move_applied"
NOTIFY_GAME_ENDED = "apps.notifications.tasks.notify_game_ended"
WEBHOOKS_FANOUT = "apps.webhooks.tasks.webhooks_fanout"
PUSH_DECISIONS = "apps.push.tasks.push_decisions"

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


def wanted_mails(
    *,
    opened: list[list[Any]],
    in_person_seat: int | None,
    event_types: frozenset[str],
    people: frozenset[int] | None,
) -> tuple[list[list[Any]], bool]:
    """The opened decisions to mail about, and whether a round result is to be mailed.

    Only seats a person plays are mailed (``people``). A player who has just moved in person is not
    mailed about the decisions their own move opened for them: the page, the API reply or the answer
    to their mail shows those already (a reminder still comes near the deadline).
    """
    wanted = [
        list(o)
        for o in opened
        if (in_person_seat is None or o[0] != in_person_seat) and (people is None or o[0] in people)
    ]
    round_ended = bool(event_types & ROUND_END_EVENTS) and (people is None or bool(people))
    return wanted, round_ended


def record(
    *,
    game_id: int,
    version: int,
    move_id: int | None,
    opened: list[list[Any]],
    statements: list[sql.Statement] | None = None,
    channel: str = Channel.MAIL,
) -> None:
    """In the move's transaction: write its outbox row of ``channel``, and queue the channel's task when
    the move commits.

    ``statements``: the INSERT is appended there, to be run by the caller with others in one round
    trip (``move_recorded``), instead of being run now."""
    if _muted.get():
        return
    now = timezone.now()
    row = MoveMailOutbox(
        game_id=game_id, channel=channel, version=version, move_id=move_id, opened=opened, queued_at=now
    )
    if sql.hand_sql():
        insert = _insert_ignoring_conflicts(row)
        if statements is not None:
            statements.append(insert)
        else:
            sql.batch([insert])
    else:
        MoveMailOutbox.objects.bulk_create(
            [row],
            ignore_conflicts=True,  # recorded already (never by a move, but nothing here may break one)
        )
    transaction.on_commit(partial(_publish, channel, Kind.MOVE, game_id, version, move_id, opened))


def _insert_ignoring_conflicts(row: MoveMailOutbox) -> sql.Statement:
    """``bulk_create([row], ignore_conflicts=True)`` as one statement whose SQL Django compiled once
    (``GAMES_HAND_SQL``, as the rest of a move's writes): the ORM spent about 1 ms CPU a move building
    it again each time, several times what the database takes to run it."""
    connection = connections[DEFAULT_DB_ALIAS]
    text, fields = _insert_sql(connection.vendor)
    return sql.Statement(text, [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields])


@cache
def _insert_sql(vendor: str) -> tuple[str, tuple[Any, ...]]:
    """The outbox's INSERT that skips a row already there, as Django's compiler writes it."""
    connection = connections[DEFAULT_DB_ALIAS]
    fields = tuple(f for f in MoveMailOutbox._meta.concrete_fields if not f.primary_key)
    query = InsertQuery(MoveMailOutbox, on_conflict=OnConflict.IGNORE)
    query.insert_values(fields, [MoveMailOutbox(game_id=0, version=0, opened=[], queued_at=timezone.now())])
    [(text, _)] = query.get_compiler(connection=connection).as_sql()
    return text, fields


def consume(*, game_id: int, version: int, channel: str = Channel.MAIL) -> None:
    """The move's effects of ``channel`` are recorded (notifications, deliveries, bursts): its outbox
    row is done."""
    MoveMailOutbox.objects.filter(game_id=game_id, channel=channel, kind=Kind.MOVE, version=version).delete()


def record_game_end(*, game_id: int, channel: str = Channel.MAIL) -> None:
    """The game has ended (its end is committed): write its outbox row, then queue the result mails.

    Unlike a move's row this one is written just after the end commits (the end is published on
    commit), so it covers a task lost with the broker or a worker, not a web process that died in
    between.
    """
    if _muted.get():
        return
    MoveMailOutbox.objects.bulk_create(
        [
            MoveMailOutbox(
                game_id=game_id,
                channel=channel,
                kind=MoveMailOutbox.Kind.GAME_END,
                version=0,
                opened=[],
                queued_at=timezone.now(),
            )
        ],
        ignore_conflicts=True,  # an end published twice
    )
    _publish(channel, Kind.GAME_END, game_id, 0, None, [])


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
