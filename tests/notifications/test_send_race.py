"""Two workers at once on one burst: the rows of one person and game due together go out in one mail.

Real concurrency on PostgreSQL: each worker is a thread with its own connection (``tests.support.race``).
"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from apps.games.models import Decision
from apps.notifications import send
from apps.notifications.models import Category, Notification
from tests.conftest import requires_postgres
from tests.factories import GameFactory
from tests.support.race import race

from .conftest import mails_to

#: On SQLite the test database is in memory with a shared cache, where a second writer is refused at
#: once ("database table is locked") instead of waiting for the first as a database file's does: the
#: race cannot be run there. The code path is the same (the claim's transaction is the lock there).
pytestmark = [pytest.mark.django_db(transaction=True), requires_postgres]


def _due_decision_rows(game: Any, user: Any, versions: list[int]) -> list[Notification]:
    """Decision notifications of ``user`` in ``game``, one per version, all pending and due now."""
    turn = Decision.objects.get(game=game, seat=0)
    return [
        Notification.objects.create(
            user=user,
            game=game,
            version=version,
            kind=Notification.Kind.DECISION,
            category=Category.TURN,
            seat=0,
            decision_id=turn.decision_id,
            decision_kind=turn.kind,
            due_at=timezone.now() - timedelta(seconds=1),
        )
        for version in versions
    ]


def test_two_workers_sending_two_rows_of_one_burst_send_one_mail(
    toy_engine: str, users: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each worker is sent one row of the same person and game. Each claims its own row, then the
    rest of the burst: had both claimed their own rows first, each would find the other's taken and
    send a mail of its own. The window between the two claims is held open (each worker, once it has
    claimed its own row, waits up to 3 s for the other to have claimed its own too), so that without a
    lock both workers are inside it every run; with the lock the second never gets there."""
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2], options={"hand": 5})
    player = users[0]
    mail.outbox.clear()
    rows = _due_decision_rows(game, player, [game.version + 1, game.version + 2])
    real_claim_group = send._claim_group
    own_claims: list[int] = []
    guard, both_claimed = threading.Lock(), threading.Event()

    def claim_group_when_both_claimed(note: Notification, *, now: Any) -> list[int]:
        with guard:
            own_claims.append(note.pk)
            if len(own_claims) == 2:
                both_claimed.set()
        both_claimed.wait(timeout=3)
        return real_claim_group(note, now=now)

    monkeypatch.setattr(send, "_claim_group", claim_group_when_both_claimed)

    results = race([lambda pk=row.pk: send.notification_send(notification_id=pk) for row in rows])

    assert sorted(results) == [False, True], results
    assert len(own_claims) == 1
    assert len(mails_to(player)) == 1
    statuses = Notification.objects.filter(pk__in=[r.pk for r in rows]).values_list("status", flat=True)
    assert sorted(statuses) == [Notification.Status.MERGED, Notification.Status.SENT]


@pytest.mark.parametrize("attempt", range(3))
def test_many_workers_on_one_burst_send_one_mail(attempt: int, toy_engine: str, users: list) -> None:
    """Four rows of one person and game, a worker each, released together: one mail, whatever order
    the workers' claims come in."""
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2], options={"hand": 5})
    player = users[0]
    mail.outbox.clear()
    rows = _due_decision_rows(game, player, [game.version + v for v in range(1, 5)])

    results = race([lambda pk=row.pk: send.notification_send(notification_id=pk) for row in rows])

    assert sorted(results) == [False, False, False, True], results
    assert len(mails_to(player)) == 1
    statuses = list(Notification.objects.filter(pk__in=[r.pk for r in rows]).values_list("status", flat=True))
    assert sorted(statuses) == [Notification.Status.MERGED] * 3 + [Notification.Status.SENT]
