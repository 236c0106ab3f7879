"""The Celery application; configuration comes from Django settings (``CELERY_*``).

Queues by urgency (DESIGN.md, "Deadlines"; docs/production.md says which worker serves
which): ``deadlines`` (deadline tasks, the sweep, mail recovery), ``people`` (bots and mails of games
where a person waits), ``background`` (all-bot play, digests, housekeeping). Each name is prefixed
with ``CELERY_QUEUE_PREFIX`` (empty in production; the real-worker tests use their own).
"""

from __future__ import annotations

import logging
import os
import threading
from datetime import datetime
from functools import partial
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baogame.settings")

log = logging.getLogger(__name__)


def _patch_kombu_redis_detached_channel() -> None:
    """Make a Redis channel whose connection was already closed fail with a *connection* error.

    kombu 5.7's Redis transport (requirements/base.txt pins it) can kill a worker in a broker outage:
    when the consumer drops its connection, ``Connection._close`` may close a channel of a transport
    that an earlier, failed close had already detached (``transport.client = None``); closing the
    channel restores its unacked messages, which builds a new connection pool from
    ``transport.client.hostname`` and raises ``AttributeError: 'NoneType' object has no attribute
    'hostname'``. That is not one of the transport's connection errors, so nothing catches it and the
    worker exits with "Unrecoverable error" (seen in 2 of 3 Redis outages of ~20 s, and reproduced by
    tests/games/test_chaos.py). Raised as ``redis.ConnectionError`` instead, it is ignored like any
    error of a connection being thrown away, and the worker reconnects; the unacked messages come back
    after the visibility timeout. The worker is still supervised (docs/production.md), in case of other
    failures.
    """
    import redis
    from kombu.transport import redis as kombu_redis

    channel: Any = kombu_redis.Channel
    original = channel._connparams
    if getattr(original, "baogame_patched", False):
        return

    def _connparams(self: Any, asynchronous: bool = False) -> Any:
        transport = self.connection
        if transport is None or transport.client is None:
            raise redis.ConnectionError("this channel's connection is already closed")
        return original(self, asynchronous=asynchronous)

    _connparams.baogame_patched = True  # type: ignore[attr-defined]
    channel._connparams = _connparams


def _patch_kombu_filesystem_atomic_put() -> None:
    """Make the filesystem transport (``make run``) publish each message file atomically.

    kombu's filesystem ``Channel._put`` creates the message file under its final name and only then
    writes it, while ``_get`` moves and reads any file with that name without taking the lock: a
    worker polling at that moment reads an empty file, fails with ``JSONDecodeError`` ("Unrecoverable
    error") and exits, and ``rundev`` stops the whole site (seen with three workers polling every
    0.1 s). Here the message is written under a name no queue matches (``.<uuid>.writing``) and renamed
    to its final name, which is atomic on one file system, so a reader sees a whole message or none.
    """
    import uuid
    from time import monotonic

    from kombu.exceptions import ChannelError
    from kombu.transport import filesystem as kombu_fs
    from kombu.utils.encoding import str_to_bytes
    from kombu.utils.json import dumps

    channel: Any = kombu_fs.Channel
    if getattr(channel._put, "baogame_patched", False):
        return

    def _put(self: Any, queue: str, payload: Any, **kwargs: Any) -> None:
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial_name = os.path.join(self.data_folder_out, f".{uuid.uuid4()}.writing")
        try:
            with open(partial_name, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial_name, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    _put.baogame_patched = True  # type: ignore[attr-defined]
    channel._put = _put


_patch_kombu_redis_detached_channel()
_patch_kombu_filesystem_atomic_put()

app = Celery("baogame")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

DEADLINES, PEOPLE, BACKGROUND = "deadlines", "people", "background"
QUEUES = (DEADLINES, PEOPLE, BACKGROUND)

#: The queue of every task that always goes to the same one. ``play_bots`` is sent to ``people`` or
#: ``background`` by its caller (apps.games.scheduling); ``heartbeat`` to the queue it is about.
TASK_QUEUES = {
    "apps.games.tasks.settle_game": DEADLINES,
    "apps.games.tasks.sweep_due": DEADLINES,
    "apps.notifications.tasks.reclaim_stale_notifications": DEADLINES,
    "apps.push.tasks.send_due_bursts": DEADLINES,
    "apps.games.tasks.play_bots": PEOPLE,
    "apps.games.tasks.let_go_of_closed_account": PEOPLE,
    "apps.notifications.tasks.notify_move_applied": PEOPLE,
    "apps.notifications.tasks.drain_outbox": PEOPLE,
    "apps.notifications.tasks.notify_game_ended": PEOPLE,
    "apps.notifications.tasks.send_notification": PEOPLE,
    "apps.notifications.tasks.send_answer": PEOPLE,
    "apps.push.tasks.send_burst": PEOPLE,
    "apps.notifications.tasks.send_reminders": PEOPLE,
    "apps.leagues.tasks.start_due_rounds": PEOPLE,
    "apps.leagues.tasks.mail_join_request": PEOPLE,
    "apps.leagues.tasks.mail_join_approved": PEOPLE,
    "apps.leagues.tasks.mail_join_declined": PEOPLE,
    "apps.leagues.tasks.recover_join_request_mails": BACKGROUND,
    "apps.sittings.tasks.send_invitations": PEOPLE,
    "apps.sittings.tasks.send_reminders": PEOPLE,
    "apps.sittings.tasks.advance_sittings": DEADLINES,
    "apps.sittings.tasks.send_starting": PEOPLE,
    "apps.sittings.tasks.send_calendar_updates": PEOPLE,
    "apps.sittings.tasks.send_calendar_cancellations": PEOPLE,
    "apps.sittings.tasks.close_sittings_of_game": PEOPLE,
    "apps.games.tasks.sweep_closed_accounts": BACKGROUND,
    "apps.notifications.tasks.send_digests": BACKGROUND,
    "apps.notifications.tasks.expire_reply_addresses": BACKGROUND,
}
HEARTBEAT_TASK = "apps.games.tasks.heartbeat"


def queue_name(kind: str) -> str:
    """The broker queue of an urgency class (``deadlines``, ``people`` or ``background``)."""
    from django.conf import settings

    return f"{settings.CELERY_QUEUE_PREFIX}{kind}"


def route_task(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **kw: Any) -> Any:
    """Celery router (``CELERY_TASK_ROUTES``): each task to its urgency queue."""
    if name == HEARTBEAT_TASK and args:
        return {"queue": queue_name(args[0])}
    kind = TASK_QUEUES.get(name)
    return {"queue": queue_name(kind)} if kind else None


#: Held while the apps' task modules are imported on a first ``publish`` (``import_task_modules``).
_task_modules_lock = threading.Lock()


def import_task_modules() -> None:
    """Import the apps' task modules, once, whatever the number of threads asking.

    Celery's discovery of the task modules runs once (a promise on its ``import_modules`` signal): a
    second thread asking while the first is still importing returned at once, before the task it wanted
    was registered, and its request failed with ``NotRegistered`` (seen under gunicorn's threaded
    workers). The lock makes the second thread wait for the first's imports.
    """
    with _task_modules_lock:
        app.loader.import_default_modules()


def publish(
    name: str, args: tuple[Any, ...] = (), *, queue: str | None = None, eta: datetime | None = None
) -> bool:
    """Send the task ``name`` (to the urgency class ``queue``, else its route); False if the broker failed.

    Called after a commit: a broker that is down must never turn a committed move into an error, so
    the failure is logged and the sweep recovers the work (it re-queues stalled bots, due deadlines
    and pending mails). Eager mode (tests) runs the task here and lets its errors through.

    The message is built and sent by ``baogame.taskmessage`` (the same message as ``apply_async``'s,
    for a fraction of its CPU: nearly every move sends one); a task or configuration it does not cover,
    and a broker connection that fails on that first attempt, go through ``apply_async``, which retries
    with Celery's publish retry policy.
    """
    from . import taskmessage

    if name not in app.tasks:  # the web process has not imported the apps' task modules yet
        import_task_modules()
    task = app.tasks[name]
    options: dict[str, Any] = {"eta": eta} if eta is not None else {}
    if queue is not None:
        options["queue"] = queue_name(queue)
    send = partial(task.apply_async, args, **options) if options else partial(task.delay, *args)
    if app.conf.task_always_eager:
        send()
        return True
    try:
        if taskmessage.plain(app, name):
            destination = options.get("queue") or _routed_queue(name, args)
            if taskmessage.send(app, name, args, queue=destination, eta=eta):
                return True
        send()
    except taskmessage.BrokerFailed:
        try:
            send()  # Celery's own path: retries on a revived connection
        except Exception:  # noqa: BLE001 - any broker failure: log it, the sweep recovers
            log.exception("could not queue %s%r; the sweep will recover it", name, args)
            return False
    except Exception:  # noqa: BLE001 - any broker failure: log it, the sweep recovers
        log.exception("could not queue %s%r; the sweep will recover it", name, args)
        return False
    return True


def _routed_queue(name: str, args: tuple[Any, ...]) -> str:
    """The queue ``route_task`` gives the task, else the default queue (as Celery's router decides)."""
    route = route_task(name, args, {}, {})
    return str(route["queue"]) if route else str(app.conf.task_default_queue)
