"""Fixtures for league tests: a toy-engine league with an organiser and members."""

from __future__ import annotations

from typing import Any

import factory
import pytest

from apps.leagues import services
from apps.leagues.models import League, Membership
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


@pytest.fixture
def open_league(organiser: Any) -> League:
    """A public Bao Bei league, tables of 4, that people ask to join (the request and decline mails)."""
    return services.league_create(creator=organiser, name="Open Court", game="baobei", players_per_table=4)


def ask_to_join(league: League, user: Any, capture: Any) -> Membership:
    """``user`` asks to join ``league``, and what waits for the commit runs (``capture``:
    ``django_capture_on_commit_callbacks``): the organisers' mail is sent."""
    with capture(execute=True):
        return services.membership_request(league=league, user=user)
