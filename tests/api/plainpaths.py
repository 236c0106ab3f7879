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

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.test import override_settings
from django.urls import get_resolver


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
