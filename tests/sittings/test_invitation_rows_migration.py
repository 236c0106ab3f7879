"""Migration 0006: each sitting gets the invitation rows of the invitation that covered it (a series'
first sitting held them alone), and the sittings whose end was moved to the moment they ended are
marked as ended early."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.factories import GameFactory, UserFactory

BEFORE = [("sittings", "0005_calendar_changes")]
AFTER = [("sittings", "0006_invitation_rows_per_sitting")]


@pytest.mark.django_db(transaction=True)
def test_the_sittings_of_an_invitation_get_its_rows_and_early_ends_are_marked() -> None:
    people = [UserFactory() for _ in range(2)]
    game = GameFactory(engine="baobei", players=2, seated=people)
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Proposal = old.get_model("sittings", "SittingProposal")
    Sitting = old.get_model("sittings", "Sitting")
    Reminder = old.get_model("sittings", "SittingReminder")
    now = timezone.now()
    proposal = Proposal.objects.create(
        game_id=game.pk, length=timedelta(hours=1), time_zone="UTC", created_at=now
    )

    def sitting(days: int, **fields: object) -> object:
        start = now + timedelta(days=days)
        return Sitting.objects.create(
            game_id=game.pk, proposal=proposal, starts_at=start, ends_at=start + timedelta(hours=1), **fields
        )

    # One answer agreed the first two (invited on the first); a later one the third (its own invitation,
    # to one player only), before the second in time.
    first, second, third = sitting(1), sitting(5), sitting(3)
    Reminder.objects.create(sitting=first, user_id=people[0].pk, kind="invitation", sent_at=now)
    Reminder.objects.create(sitting=first, user_id=people[1].pk, kind="invitation", sent_at=now)
    Reminder.objects.create(sitting=third, user_id=people[0].pk, kind="invitation", sent_at=now)
    early = sitting(-1, status="ended", ended_at=now - timedelta(days=1, minutes=-20))
    early.ends_at = early.ended_at
    early.save()
    on_time = sitting(-2, status="ended", ended_at=now - timedelta(days=2, hours=-1, seconds=-5))

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    rows = new.get_model("sittings", "SittingReminder").objects.filter(kind="invitation")
    marked = new.get_model("sittings", "Sitting").objects.filter(ended_early=True)

    def invited(row: object) -> list[int]:
        return sorted(rows.filter(sitting_id=row.pk).values_list("user_id", flat=True))  # type: ignore[attr-defined]

    assert invited(first) == invited(second) == sorted(u.pk for u in people)
    assert invited(third) == [people[0].pk]
    assert list(marked.values_list("pk", flat=True)) == [early.pk]  # type: ignore[attr-defined]
    assert on_time.pk not in set(marked.values_list("pk", flat=True))  # type: ignore[attr-defined]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
