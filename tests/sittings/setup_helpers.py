"""Set-ups the sitting tests share: a table of three people, and a sitting they agreed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core import mail
from django.utils import timezone

from apps.games.models import Game
from apps.sittings import services
from apps.sittings.models import Sitting
from tests.factories import GameFactory, UserFactory


def three_at_a_table() -> tuple[Game, list[Any]]:
    """A started 3-seat Bao Bei game of three people, and them (a module's ``table`` fixture)."""
    people = [UserFactory() for _ in range(3)]
    return GameFactory(engine="baobei", players=3, seated=people), people


def agree(game: Game, people: list[Any], capture: Any, *, hours: float = 30) -> Sitting:
    """``people[0]`` proposes a sitting ``hours`` from now and the others accept it: the sitting, its
    invitations sent (the outbox holds what agreeing sent, nothing before)."""
    mail.outbox.clear()
    with capture(execute=True):
        proposal = services.proposal_create(
            game=game, user=people[0], times=[timezone.now() + timedelta(hours=hours)]
        )
        for user in people[1:]:
            services.answer(game=game, user=user, proposal_id=proposal.pk, accept=True)
    return Sitting.objects.get(game=game)
