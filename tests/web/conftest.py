"""Fixtures for the page tests: games with signed-in clients per seat."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import GameFactory, UserFactory


@pytest.fixture
def client_for():
    """A test client signed in as ``user`` (or anonymous for ``None``)."""

    def make(user: Any) -> Client:
        c = Client()
        if user is not None:
            c.force_login(user)
        return c

    return make


@pytest.fixture
def baobei_game(db: None) -> Any:
    """A started 3-seat Bao Bei game of three people (no bots)."""
    players = [UserFactory() for _ in range(3)]
    return GameFactory(engine="baobei", players=3, seated=players), players


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Page tests create many users; a fast hasher keeps them quick."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
