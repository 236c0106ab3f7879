"""The organiser of a league proposes sittings to a league table (through the registry the leagues
fill); an organiser of another league may not."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from apps.games.errors import ServiceError
from apps.leagues import seasons, services
from apps.leagues.models import Fixture, League
from apps.sittings import selectors as sitting_selectors
from apps.sittings import services as sitting_services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_league_organiser_proposes_a_sitting_to_a_league_table(
    toy_league: League, organiser: Any, members: list[Any]
) -> None:
    season = seasons.season_create(league=toy_league, by=organiser, rounds=1)
    seasons.round_start(season_id=season.pk, by=organiser)
    game = Fixture.objects.filter(round__season=season).select_related("game").first().game  # type: ignore[union-attr]
    other = UserFactory(username="other-organiser")
    services.league_create(creator=other, name="Other League", game=toy_league.game)
    at = [timezone.now() + timedelta(days=1)]

    proposal = sitting_services.proposal_create(game=game, user=organiser, times=at)
    with pytest.raises(ServiceError) as refused:
        sitting_services.proposal_create(game=game, user=other, times=at)

    assert proposal.proposer == organiser
    assert refused.value.code == "not_at_table"
    assert sitting_selectors.panel(game=game, user=organiser) is not None
    assert sitting_selectors.panel(game=game, user=other) is None
