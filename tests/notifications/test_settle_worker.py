"""One mail per burst on a REAL worker (Redis broker, PostgreSQL): moves in quick succession that
concern one player give them one mail, not one each.

The worker records the notifications (the move signal's task), queues each send with its ETA and
sends when due; the bots answer in the worker too. The settle time is short here (the worker's real
clock runs), the behaviour measured with a moved clock is in test_settle.py.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.db.models import Q

from apps.games import pipeline as game_pipeline
from apps.games.models import Decision, Game
from apps.notifications import devmail
from apps.notifications.models import Notification
from baogame.rules.registry import get_bots, get_engine
from tests.factories import GameFactory, UserFactory
from tests.support.celery_worker import celery_worker  # noqa: F401 - the module-scoped fixture

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

MAIL_FOLDER = Path(tempfile.mkdtemp(prefix="settle-mail-"))
SETTLE = 15
CELERY_WORKER_ENV = {"NOTIFY_SETTLE_SECONDS": str(SETTLE), "EMAIL_URL": f"file://{MAIL_FOLDER}"}


def _open_for(game: Game, seat: int) -> Decision | None:
    return Decision.objects.filter(game=game, seat=seat).first()


def test_BH_page_play_with_bots_answering_on_the_worker_sends_one_mail(
    celery_worker: Any,  # noqa: F811
    settings: Any,
) -> None:
    settings.EMAIL_FILE_PATH = str(MAIL_FOLDER)  # where the worker writes its mail
    player = UserFactory()
    game = GameFactory(engine="baohuang", players=5, bots=4, seated=[player])
    seat = game.seats.get(user=player).position
    engine, (bots, default) = get_engine("baohuang"), get_bots("baohuang")
    rng = random.Random("worker-settle")
    decisions = Notification.objects.filter(user=player, kind=Notification.Kind.DECISION)

    while decisions.count() < 3:  # the player plays on the page each time the bots hand back
        celery_worker.wait_for(lambda: _open_for(game, seat) is not None, timeout=30)
        game.refresh_from_db()
        action = bots[default](engine.view(game.state, seat), rng)
        game_pipeline.submit_action(game_id=game.pk, user=player, action=action)
    first = decisions.order_by("created_at").first()
    assert first is not None
    assert abs((first.due_at - first.created_at).total_seconds() - SETTLE) < 1  # the worker's settle time

    unsettled = Q(status__in=["pending", "sending", "failed"])
    celery_worker.wait_for(
        lambda: decisions.count() >= 3 and not Notification.objects.filter(unsettled, user=player).exists(),
        timeout=SETTLE + 60,
    )

    statuses = sorted(Notification.objects.filter(user=player).values_list("status", flat=True))
    assert statuses.count("sent") == 1 and set(statuses) <= {"sent", "merged"}, statuses
    mails = [m for m in devmail.mails_list() if player.email in m.to]
    assert len(mails) == 1
