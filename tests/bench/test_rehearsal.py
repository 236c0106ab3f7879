"""A short two-node rehearsal (``manage.py rehearsal``) finds no anomaly: two gunicorns,
two real Celery workers and beat on Redis, PostgreSQL; a web node and a worker SIGKILLed mid-run and
started again, and before that the broker unreachable from the web nodes for 5 s; then every game
checked (move numbering, replay, deadlines, mails, the outbox's webhook events).

Needs PostgreSQL (the subprocesses share pytest-django's test database) and Redis; skipped otherwise.
About 40 s on an idle 2-core machine (process start-up is most of it).
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
import redis
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command

from apps.games.models import Game
from tests.conftest import requires_postgres
from tests.support.celery_worker import BROKER_URL

pytestmark = [requires_postgres, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def broker() -> str:
    try:
        redis.Redis.from_url(BROKER_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip(f"the rehearsal needs Redis at {BROKER_URL}")
    return BROKER_URL


def test_a_short_rehearsal_with_a_killed_node_and_worker_finds_no_anomaly(broker):
    out = StringIO()

    try:
        call_command(
            "rehearsal",
            seconds=12,
            clients=3,
            down=2,
            # the drain ends as soon as nothing is overdue; the limit only matters on a loaded machine,
            # whose two workers once took longer than 30 s to deliver the last webhook
            drain=60,
            walk_away=1.0,  # every game left to its deadlines after a few moves: timeouts, then bots
            broker=broker,
            stdout=out,
        )
    except SystemExit as exc:  # status 1: an anomaly; the JSON line below says which
        assert exc.code == 1

    lines = out.getvalue().splitlines()
    result = json.loads(lines[-1])
    assert result["checks"] == {
        "outbox_left": 0,
        "webhooks_undelivered": 0,
        "webhooks_unreceived": 0,
        "seq_anomalies": 0,
        "replay_anomalies": 0,
        "timeouts_twice": 0,
        "timeouts_early": 0,
        "deadlines_unsettled": 0,
        "notifications_twice": 0,
        "notifications_lost": 0,
    }, "\n".join(lines)
    assert result["ok"] and result["client_errors"] == 0
    # the command's own process (it pauses the games, settling what is overdue) mailed into the nodes'
    # mailbox, which the mail checks read, not into this test's
    assert mail.outbox == []
    assert result["kills"] == 2 and result["restarts"] == 2
    # moves committed while the web nodes had no broker, their effects through the outbox
    assert result["moves_in_broker_outage"] > 0 and result["webhook_events"] > 0
    assert result["retries"] > 0  # requests did meet the killed node, and were sent again
    assert result["client_moves"] > 0 and result["games"] > 0
    assert result["timeouts"] > 0 and result["bot_moves"] > 0  # deadlines and bots ran on the workers
    assert any(line.startswith("cleaned up:") for line in lines)
    assert not get_user_model().objects.filter(username__startswith="rehearsal-").exists()
    assert not Game.objects.exists()
    left = redis.Redis.from_url(broker)
    assert not left.keys("rehearsal-*")  # the run's queues
    assert not [raw for raw in left.hvals("unacked") if b'"rehearsal-' in raw]  # held by the killed worker
