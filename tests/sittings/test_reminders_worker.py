"""On PostgreSQL with a real Celery worker: agreeing a sitting queues the invitations, and the beat's
reminder task, run twice by the worker, reminds each player once."""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from apps.sittings import services
from apps.sittings.models import Sitting, SittingReminder
from baogame.celery import publish
from tests.factories import GameFactory, UserFactory
from tests.support.celery_worker import celery_worker  # noqa: F401 - the module-scoped fixture

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

MAIL_FOLDER = Path(tempfile.mkdtemp(prefix="sitting-mail-"))
CELERY_WORKER_ENV = {"EMAIL_URL": f"file://{MAIL_FOLDER}"}


def test_invitations_and_reminders_go_out_once_each_through_the_worker(celery_worker: Any) -> None:  # noqa: F811
    people = [UserFactory() for _ in range(2)]
    game = GameFactory(engine="baobei", players=2, seated=people)
    proposal = services.proposal_create(
        game=game, user=people[0], times=[timezone.now() + timedelta(minutes=10)]
    )

    services.answer(game=game, user=people[1], proposal_id=proposal.pk, accept=True)  # commits: queues
    sitting = Sitting.objects.get(game=game)
    celery_worker.wait_for(
        lambda: SittingReminder.objects.filter(sitting=sitting, kind="invitation").count() == 2, timeout=30
    )
    publish("apps.sittings.tasks.send_reminders")
    publish("apps.sittings.tasks.send_reminders")
    # Each player's mail reminder is claimed before their push one: wait for every row the two runs
    # make (a third of any kind would be a reminder sent twice, and shows in the list below).
    celery_worker.wait_for(lambda: len(_reminded(sitting)) >= 6, timeout=30)

    assert _reminded(sitting) == ["invitation", "invitation", "mail", "mail", "push", "push"]
    celery_worker.wait_for(
        lambda: _mails_saying("sitting agreed") >= 2 and _mails_saying("the sitting starts at") >= 2,
        timeout=30,
    )
    assert _mails_saying("sitting agreed") == 2
    assert _mails_saying("the sitting starts at") == 2


def _reminded(sitting: Sitting) -> list[str]:
    return sorted(SittingReminder.objects.filter(sitting=sitting).values_list("kind", flat=True))


def _mails_saying(words: str) -> int:
    return sum(words in path.read_text() for path in MAIL_FOLDER.iterdir())
