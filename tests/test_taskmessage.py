"""``baogame.celery.publish`` sends its task message by hand (``baogame.taskmessage``),
and the message is the one ``apply_async`` sends: compared field by field on a real Redis broker for
every kind of task the site queues, and sent through Celery's own path when the broker fails."""

from __future__ import annotations

import base64
import json
import logging
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import redis
from celery._state import _task_stack
from django.test import override_settings

from baogame import taskmessage
from baogame.celery import HEARTBEAT_TASK, TASK_QUEUES, app, publish
from tests.support.celery_worker import BROKER_URL, _redis_reachable, _reset_producer_pool, publishing_to

#: Fields that differ between any two messages (ids made per message).
PER_MESSAGE = {"id", "root_id", "correlation_id", "delivery_tag"}

#: Every task the site publishes (by name), with arguments of its shape and the ``publish`` options.
SENT: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("apps.games.tasks.settle_game", (7,), {}),
    ("apps.games.tasks.sweep_due", (), {}),
    ("apps.notifications.tasks.reclaim_stale_notifications", (), {}),
    ("apps.push.tasks.send_due_bursts", (), {}),
    ("apps.games.tasks.play_bots", (7, 12), {}),
    ("apps.games.tasks.let_go_of_closed_account", (7,), {}),
    ("apps.games.tasks.sweep_closed_accounts", (), {}),
    ("apps.notifications.tasks.notify_game_ended", (7,), {}),
    ("apps.notifications.tasks.send_notification", (7,), {}),
    ("apps.notifications.tasks.send_answer", (7,), {}),
    ("apps.notifications.tasks.mail_talk_report", (7,), {}),
    ("apps.push.tasks.send_burst", (7,), {}),
    ("apps.notifications.tasks.send_reminders", (), {}),
    ("apps.leagues.tasks.start_due_rounds", (), {}),
    ("apps.leagues.tasks.mail_join_request", (7,), {}),
    ("apps.leagues.tasks.mail_join_approved", (7,), {}),
    ("apps.leagues.tasks.mail_join_declined", (7,), {}),
    ("apps.leagues.tasks.recover_join_request_mails", (), {}),
    ("apps.notifications.tasks.send_digests", (), {}),
    ("apps.notifications.tasks.expire_reply_addresses", (), {}),
    ("apps.webhooks.tasks.deliver_webhook", (7,), {}),
    ("apps.notifications.tasks.notify_move_applied", (7, 12, 99, [[1, "turn", "v12-0-turn"]]), {}),
    ("apps.notifications.tasks.drain_outbox", (), {}),
    ("apps.notifications.tasks.drain_outbox", (), {"eta": datetime(2030, 1, 2, 3, 4, 5, 678, tzinfo=UTC)}),
    ("apps.games.tasks.play_bots", (7, 12), {"queue": "background"}),
    ("apps.games.tasks.settle_game", (7,), {"eta": datetime(2030, 1, 2, 3, 4, 5, 678, tzinfo=UTC)}),
    ("apps.webhooks.tasks.webhooks_fanout", (7, 99), {}),
    ("apps.webhooks.tasks.webhooks_fanout", (7, None, True), {}),
    ("apps.push.tasks.push_decisions", (7, 12, [[1, "turn", "x"]]), {}),
    ("apps.sittings.tasks.send_invitations", ([7, 8],), {}),
    ("apps.sittings.tasks.send_reminders", (), {}),
    ("apps.sittings.tasks.advance_sittings", (), {}),
    ("apps.sittings.tasks.send_starting", (7,), {}),
    ("apps.sittings.tasks.send_calendar_updates", (7,), {}),
    ("apps.sittings.tasks.send_calendar_cancellations", ([7, 8],), {}),
    ("apps.sittings.tasks.close_sittings_of_game", (7,), {}),
    (HEARTBEAT_TASK, ("deadlines",), {}),
]


def test_every_routed_task_is_compared() -> None:
    assert set(TASK_QUEUES) <= {name for name, _, _ in SENT}


@pytest.fixture
def broker() -> Iterator[tuple[redis.Redis, str]]:
    """This process publishing for real to the test broker, into queues of the test's own."""
    if not _redis_reachable(BROKER_URL):
        pytest.skip(f"needs Redis at {BROKER_URL}")
    prefix = f"tm-{uuid.uuid4().hex[:10]}-"
    client = redis.Redis.from_url(BROKER_URL)
    with publishing_to(app, BROKER_URL, f"{prefix}people"):
        try:
            with override_settings(CELERY_QUEUE_PREFIX=prefix):
                yield client, prefix
        finally:
            for key in client.scan_iter(f"*{prefix}*"):
                client.delete(key)


def _taken(client: redis.Redis, prefix: str) -> list[tuple[str, dict[str, Any]]]:
    """Every message waiting in the test's queues, oldest first, with its queue (without the prefix)."""
    out = []
    for key in sorted(k.decode() for k in client.scan_iter(f"{prefix}*") if client.type(k) == b"list"):
        while (raw := client.rpop(key)) is not None:
            message = json.loads(raw)
            message["body"] = json.loads(base64.b64decode(message["body"]))
            out.append((key.removeprefix(prefix), message))
    return out


def _comparable(message: dict[str, Any]) -> dict[str, Any]:
    """The message without the fields made per message."""
    out = {k: v for k, v in message.items() if k not in {"headers", "properties"}}
    for part in ("headers", "properties"):
        out[part] = {k: v for k, v in message[part].items() if k not in PER_MESSAGE}
    return out


def _apply_async(name: str, args: tuple[Any, ...], options: dict[str, Any]) -> None:
    """Celery's own path, with the options ``publish`` would give it."""
    from baogame.celery import queue_name

    extra = dict(options)
    if "queue" in extra:
        extra["queue"] = queue_name(extra["queue"])
    app.tasks[name].apply_async(args, **extra)


@pytest.mark.parametrize(
    ("name", "args", "options"), SENT, ids=[f"{n.split('.')[-1]}-{a}" for n, a, _ in SENT]
)
def test_publish_sends_the_message_apply_async_sends(broker, name, args, options) -> None:
    client, prefix = broker
    app.loader.import_default_modules()
    assert taskmessage.plain(app, name), "every task of the site takes the lean path"

    _apply_async(name, args, options)
    ((queue_celery, by_celery),) = _taken(client, prefix)
    assert publish(name, args, **options)
    ((queue_lean, by_publish),) = _taken(client, prefix)

    assert queue_lean == queue_celery
    assert _comparable(by_publish) == _comparable(by_celery)
    headers, properties = by_publish["headers"], by_publish["properties"]
    assert headers["root_id"] == headers["id"] == properties["correlation_id"]
    if "eta" in options:
        assert headers["eta"] == options["eta"].isoformat()


def test_a_message_sent_from_a_task_names_its_parent_and_root_as_celery_does(broker) -> None:
    client, prefix = broker
    app.loader.import_default_modules()
    name, args = "apps.games.tasks.play_bots", (7, 12)
    parent = app.tasks["apps.games.tasks.settle_game"]
    parent.push_request(id="parent-id", root_id="root-id", called_directly=False)
    _task_stack.push(parent)  # as a worker runs it
    try:
        _apply_async(name, args, {})
        assert publish(name, args)
    finally:
        _task_stack.pop()
        parent.pop_request()

    (_, by_celery), (_, by_publish) = _taken(client, prefix)
    assert _comparable(by_publish) == _comparable(by_celery)
    assert by_publish["headers"]["parent_id"] == "parent-id"
    assert by_publish["headers"]["root_id"] == "root-id"


def test_a_broker_that_fails_is_tried_again_by_celerys_path_then_logged(monkeypatch, caplog) -> None:
    """The lean attempt does not retry: Celery's path (with its retry policy) gets the publish, and when
    that fails too the failure is logged and ``publish`` answers False (the sweep recovers the work)."""
    saved = {key: app.conf.get(key) for key in ("task_always_eager", "broker_url")}
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    app.conf.update(task_always_eager=False, broker_url="redis://127.0.0.1:1/0")
    _reset_producer_pool(app)
    calls: list[str] = []
    real = app.tasks["apps.games.tasks.play_bots"].__class__.apply_async

    def counted(self: Any, *a: Any, **k: Any) -> Any:
        calls.append(self.name)
        return real(self, *a, **k)

    monkeypatch.setattr(app.tasks["apps.games.tasks.play_bots"].__class__, "apply_async", counted)
    try:
        with caplog.at_level(logging.ERROR, logger="baogame.celery"):
            sent = publish("apps.games.tasks.play_bots", (7, 12), queue="people")
    finally:
        monkeypatch.undo()
        app.conf.update(saved)
        _reset_producer_pool(app)

    assert sent is False
    assert calls == ["apps.games.tasks.play_bots"]
    assert "the sweep will recover it" in caplog.text


def test_a_task_with_options_of_its_own_goes_through_apply_async() -> None:
    app.loader.import_default_modules()
    task = app.tasks["apps.games.tasks.play_bots"]

    with_priority = type(task)()
    with_priority.priority = 5

    assert taskmessage._task_plain(task)
    assert not taskmessage._task_plain(with_priority)


def test_argsrepr_is_the_arguments_repr_cut_to_celerys_limit() -> None:
    app.loader.import_default_modules()
    long = ("x" * 5000,)

    headers, _, body = taskmessage.message(app, "apps.games.tasks.play_bots", (7, 12))
    long_headers, _, _ = taskmessage.message(app, "apps.games.tasks.play_bots", long)

    assert headers["argsrepr"] == "(7, 12)"
    assert body == ((7, 12), {}, {"callbacks": None, "errbacks": None, "chain": None, "chord": None})
    assert len(long_headers["argsrepr"]) == taskmessage.ARGSREPR_MAX


def test_an_eta_goes_in_the_header_as_celery_writes_it() -> None:
    app.loader.import_default_modules()
    eta = datetime.now(UTC) + timedelta(seconds=30)

    headers, _, _ = taskmessage.message(app, "apps.games.tasks.settle_game", (7,), eta=eta)

    assert headers["eta"] == eta.isoformat()
