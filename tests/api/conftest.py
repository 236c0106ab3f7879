"""Fixtures for the API tests: token-authenticated clients and small games."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from apps.api import services as api_services
from apps.games.models import Game
from tests.factories import GameFactory


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """The shared ``users`` fixture hashes passwords; a fast hasher keeps these tests quick."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_throttle_cache() -> Iterator[None]:
    """The write throttle counts in the cache: every test starts with empty counters."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def client_for(db: None) -> Callable[[Any], APIClient]:
    """An API client authenticated with a fresh personal token of ``user`` (None: anonymous)."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            _, raw = api_services.token_create(user=user, name="tests")
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
        return client

    return make


@pytest.fixture
def toy_game(toy_engine: str, users: list[Any]) -> Game:
    """An active 2-seat toy game: users[0] (the creator) at seat 0, users[1] at seat 1."""
    return GameFactory(engine=toy_engine, players=2, seated=users[:2])
