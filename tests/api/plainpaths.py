"""Asking a request of the plain path and of DRF's view on the same database (``apps.api.plainmove``;
``test_plain_moves.py``, ``test_plain_legal.py``).

``both`` makes one request on the plain path, rolls the database back to where it was, and makes it
again through DRF's view (``API_PLAIN_MOVES = False``), with the write limit's counters emptied
before each. While the plain path answers, DRF's view refuses to be called (``drf_refuses_to_answer``),
so that a comparison cannot compare DRF with itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.test import override_settings
from django.urls import get_resolver

from apps.games.models import Game
from baogame.rules.registry import get_engine
from tests.factories import GameFactory


def empty_counters() -> None:
    caches[settings.API_THROTTLE_CACHE].clear()


@contextmanager
def drf_refuses_to_answer(view_class: type) -> Iterator[None]:
    """DRF's view ``view_class`` is not called: what answers is the plain path."""
    get_resolver().url_patterns  # noqa: B018 - the URL map (its views) made before the patch
    with mock.patch.object(view_class, "dispatch", side_effect=AssertionError("DRF's view answered")):
        yield


def answer_of(response: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    """What a client receives: the status, the headers and the bytes."""
    return response.status_code, sorted(response.items()), response.content


def both(view_class: type, request: Callable[[], Any], *, served: bool = True) -> tuple[Any, Any]:
    """``request()`` answered with the plain path on (by it, DRF's view ``view_class`` refusing to
    answer, unless not ``served``), then, on the same database, with the plain path off (by DRF's)."""
    saved = transaction.savepoint()
    empty_counters()
    with drf_refuses_to_answer(view_class) if served else nullcontext():
        plain = request()
    transaction.savepoint_rollback(saved)
    empty_counters()
    with override_settings(API_PLAIN_MOVES=False):
        drf = request()
    return plain, drf


def assert_answered_alike(plain: Any, drf: Any, status: int) -> None:
    """A request left to DRF's view answers as with the plain path switched off: ``status`` (a 401 with
    ``WWW-Authenticate``), and the same headers and bytes, except the browsable API's page, whose CSRF
    token is fresh each time (its status and type then)."""
    assert plain.status_code == status
    if status == 401:
        assert plain["WWW-Authenticate"] == 'Bearer realm="api"'
    if plain["Content-Type"].startswith("text/html"):
        assert (plain.status_code, plain["Content-Type"]) == (drf.status_code, drf["Content-Type"])
    else:
        assert answer_of(plain) == answer_of(drf)


def started_game(engine: str, users: list[Any]) -> tuple[Any, int]:
    """A started game of ``engine`` (Bao Bei with 2 seats, Bao Huang with 5) of ``users``, and the seat
    of its first open decision."""
    players = 2 if engine == "baobei" else 5
    game = GameFactory(engine=engine, players=players, seated=users[:players])
    game.refresh_from_db()
    return game, get_engine(engine).pending(game.state)[0]["seats"][0]


def strangers_cases(game: Any, users: list[Any]) -> list[tuple[int, str, int]]:
    """(game id, code, status) that a user seated in none of them gets: no such game (404), ``game``
    which they may watch but have no seat in (403 ``not_seated``), and a private game of ``users[:2]``
    (404, as if it did not exist)."""
    private = GameFactory(engine=game.engine, players=2, seated=users[:2], visibility=Game.Visibility.PRIVATE)
    return [
        (game.pk + 10_000, "not_found", 404),
        (game.pk, "not_seated", 403),
        (private.pk, "not_found", 404),
    ]


def assert_left_to_drf(view_class: type, request: Callable[[], Any]) -> None:
    """``request()`` is not answered by the plain path: DRF's view ``view_class`` is called for it."""
    with drf_refuses_to_answer(view_class), pytest.raises(AssertionError, match="DRF's view answered"):
        request()


#: The three ways a refusal's language is chosen: none (English), ``Accept-Language``, the profile's.
in_three_languages = pytest.mark.parametrize(
    ("language", "profile"),
    [(None, ""), ("zh-CN,zh;q=0.9", ""), (None, "zh-hans")],
    ids=["english", "accept-language", "profile-language"],
)
