"""Set-ups the sitting tests share: a table of three people, and a sitting they agreed."""

from __future__ import annotations

from datetime import date, time, timedelta
from typing import Any

from django.core import mail
from django.utils import timezone

from apps.games.models import Game
from apps.sittings import services
from apps.sittings.acceptance import Recurrence
from apps.sittings.models import Sitting
from tests.factories import GameFactory, UserFactory


def three_at_a_table() -> tuple[Game, list[Any]]:
    """A started 3-seat Bao Bei game of three people, and them (a module's ``table`` fixture)."""
    people = [UserFactory() for _ in range(3)]
    return GameFactory(engine="baobei", players=3, seated=people), people


def agree(game: Game, people: list[Any], capture: Any, *, hours: float = 30, quiet: bool = False) -> Sitting:
    """``people[0]`` proposes a sitting ``hours`` from now and the others accept it: the sitting, its
    invitations sent (the outbox holds what agreeing sent, nothing before; with ``quiet``, nothing at
    all, for a test of what comes after)."""
    mail.outbox.clear()
    with capture(execute=True):
        proposal = services.proposal_create(
            game=game, user=people[0], times=[timezone.now() + timedelta(hours=hours)]
        )
        for user in people[1:]:
            services.answer(game=game, user=user, proposal_id=proposal.pk, accept=True)
    if quiet:
        mail.outbox.clear()
    return Sitting.objects.get(game=game)


def week_of_evenings() -> Recurrence:
    """A weekly series of one week: every evening at 20:00 UTC from tomorrow."""
    tomorrow = date.today() + timedelta(days=1)
    return Recurrence(weekdays=tuple(range(7)), at=time(20), weeks=1, first_day=tomorrow, time_zone="UTC")
