"""Send a Celery task message without Celery's per-call machinery.

Nearly every move queues a task after commit (``notify_move_applied`` when someone is to be mailed; a bot
or deadline task otherwise), and ``Task.apply_async`` costs more CPU than the rest of the move's
after-commit work together: it merges the task's execution options, runs the router, checks the
arguments against the task's signature, builds ``argsrepr`` with ``saferepr``, sends the publish signals,
makes an ``AsyncResult`` and re-checks the queue's declaration, on every call: 0.9-1.6 ms CPU a
publish in a loop (filesystem or Redis broker), where this module's path takes 0.35-0.8 ms. Inside a
move request (cold caches) the whole publish went from about 2.25 to 1.95 ms with the load test's
filesystem broker, most of what is left being the broker's own work (writing the message file).

``send`` builds the same protocol-2 message a worker receives from ``apply_async`` (the same headers,
properties and body; ``tests/test_taskmessage.py`` compares them field by field for every kind of task
the site queues) and publishes it with a producer from Celery's own producer pool (safe across forks
and threads, as ``apply_async`` is), declaring each queue once per connection. What it leaves out:

* ``argsrepr`` is ``repr(args)`` (cut to Celery's 1024 characters), not ``saferepr``: the same text for
  the ids, versions and (seat, kind, decision id) triples the site's tasks take. It is shown by
  monitoring tools only, and holds nothing more than the arguments themselves.
* No ``before_task_publish`` / ``after_task_publish`` signals (nothing in the site connects to them) and
  no ``AsyncResult`` (results are ignored: ``CELERY_TASK_IGNORE_RESULT``).
* No check of the arguments against the task's signature: eager mode (the tests) still goes through
  ``apply_async``, which checks them.

A task with execution options of its own (a priority, an expiry, time limits, a serializer, a queue
set on the task), a configuration with ``task_queues``, sent events or another protocol falls back to
``apply_async`` (``plain`` says which), as does a publish whose broker connection fails: the first
attempt does not retry, ``apply_async`` then retries with Celery's publish retry policy on a revived
connection. Every task of the site is idempotent, so a message sent twice when a connection broke
after the broker had it is harmless.
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import Any

from celery import Celery
from celery.utils.nodenames import anon_nodename
from kombu import Queue
from kombu.exceptions import OperationalError
from kombu.utils.uuid import uuid

#: Celery's ``argsrepr`` limit (``amqp.argsrepr_maxsize``).
ARGSREPR_MAX = 1024

#: The body's third part: no callbacks, errbacks, chain or chord (the site sends none).
_EMBED = {"callbacks": None, "errbacks": None, "chain": None, "chord": None}

_origin: tuple[int, str] = (0, "")


def _origin_name() -> str:
    """``gen<pid>@<host>``, as Celery names the sending process, computed once per process."""
    global _origin
    pid = os.getpid()
    if _origin[0] != pid:
        _origin = (pid, anon_nodename())
    return _origin[1]


class BrokerFailed(Exception):
    """The broker connection failed on the first attempt: the caller falls back to ``apply_async``."""


def plain(app: Celery, name: str) -> bool:
    """Whether ``send`` builds exactly what ``apply_async`` would for the task ``name``: no execution
    option of its own (``serializer`` aside, when it is ``json``), and a configuration without anything
    ``send`` omits. Decided once per task and process: Celery's configuration look-ups cost 30-60 µs
    each (through Django's settings), and none of these is changed while the site runs."""
    answer = _plain.get(name)
    if answer is None:
        answer = _plain[name] = _conf_plain(app) and _task_plain(app.tasks[name])
    return answer


_plain: dict[str, bool] = {}


def _conf_plain(app: Celery) -> bool:
    conf = app.conf
    if conf.task_protocol != 2 or conf.task_send_sent_event or conf.task_queues:
        return False
    if conf.task_compression or conf.task_inherit_parent_priority:
        return False
    return bool(conf.task_serializer == "json")


def _task_plain(task: Any) -> bool:
    options = task._get_exec_options()
    return options.pop("serializer", "json") == "json" and all(value is None for value in options.values())


def message(
    app: Celery, name: str, args: tuple[Any, ...], *, eta: datetime | None = None
) -> tuple[dict[str, Any], dict[str, Any], tuple[Any, ...]]:
    """The headers, properties and body of the task message ``apply_async(args, eta=eta)`` would send."""
    task_id = uuid()
    root_id, parent_id = task_id, None
    parent = app.current_worker_task  # sent from a task: the parent and root ids Celery would give
    if parent:
        parent_id = parent.request.id
        root_id = parent.request.root_id or parent_id or task_id
    headers: dict[str, Any] = {
        "lang": "py",
        "task": name,
        "id": task_id,
        "shadow": None,
        "eta": eta.isoformat() if eta is not None else None,
        "expires": None,
        "group": None,
        "group_index": None,
        "retries": 0,
        "timelimit": [None, None],
        "root_id": root_id,
        "parent_id": parent_id,
        "argsrepr": repr(args)[:ARGSREPR_MAX],
        "kwargsrepr": "{}",
        "origin": _origin_name(),
        "ignore_result": bool(app.tasks[name].ignore_result),
        "replaced_task_nesting": 0,
        "stamped_headers": None,
        "stamps": {},
    }
    properties = {"correlation_id": task_id, "reply_to": app.thread_oid}
    return headers, properties, (args, {}, _EMBED)


def send(app: Celery, name: str, args: tuple[Any, ...], *, queue: str, eta: datetime | None = None) -> bool:
    """Publish the task ``name`` to the broker queue ``queue`` (its full name); False when the queue's
    exchange is not a direct one (the caller sends with ``apply_async`` then). ``BrokerFailed`` when
    the broker connection fails."""
    entity = app.amqp.queues[queue]  # created as Celery creates a missing queue
    if entity.exchange.type != "direct":
        return False
    headers, properties, body = message(app, name, args, eta=eta)
    try:
        with app.producer_pool.acquire(block=True) as producer:
            connection: Any = producer.connection
            declared = connection.declared_entities
            producer.publish(
                body,
                exchange="",  # a direct exchange: the anonymous one, to the queue by name (as Celery)
                routing_key=queue,
                serializer="json",
                headers=headers,
                delivery_mode=_delivery_mode(app, entity),
                declare=None if declared is not None and entity in declared else [entity],
                retry=False,
                **properties,
            )
    except _broker_errors(app) as exc:
        raise BrokerFailed(str(exc)) from exc
    return True


def _broker_errors(app: Celery) -> tuple[type[BaseException], ...]:
    """What a broker connection raises when it fails: kombu's wrapper and the transport's own errors
    (evaluated only when something was raised; the connection made here never connects)."""
    conn = app.connection_for_write()
    return (OSError, OperationalError, *conn.connection_errors, *conn.channel_errors)


def _delivery_mode(app: Celery, entity: Queue) -> int:
    """The queue's exchange's delivery mode, else ``task_default_delivery_mode`` (as Celery); the
    default read once per process (see ``plain``)."""
    mode = getattr(entity.exchange, "delivery_mode", None)
    if mode:
        return int(mode)
    global _default_mode
    if _default_mode is None:
        default = app.conf.task_default_delivery_mode
        _default_mode = int({"persistent": 2, "transient": 1}.get(default, default))
    return _default_mode


_default_mode: int | None = None
