"""Fixtures for league tests: a toy-engine league with an organiser and members."""

from __future__ import annotations

from typing import Any

import factory
import pytest

from apps.leagues import services
from apps.leagues.models import League
from tests.factories import UserFactory

#: Users log in with ``force_login``: skip the slow password hashing.
NO_PASSWORD = factory.Transformer.Force("!")


@pytest.fixture
def organiser(db: None) -> Any:
    return UserFactory(username="organiser", password=NO_PASSWORD)


@pytest.fixture
def toy_league(toy_engine: str, organiser: Any) -> League:
    """A league of the test-only toy engine (2-4 players), tables of 3."""
    return services.league_create(creator=organiser, name="Toy League", game=toy_engine, players_per_table=3)


@pytest.fixture
def members(toy_league: League) -> list[Any]:
    people = [UserFactory(username=f"member{i}", password=NO_PASSWORD) for i in range(6)]
    for user in people:
        services.membership_join_by_link(league=toy_league, user=user, token=toy_league.invite_token)
    return people
