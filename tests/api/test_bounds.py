"""No number from outside reaches the database unbounded.

Every route of the URL map with a number in its path is called (GET, POST, PATCH, DELETE) with a number
beyond 64 bits and one just past the signed 64-bit range: a 404, never a 5xx. Every paging or counting
query parameter of the API (read from its OpenAPI schema) and of the pages is called with huge,
negative and non-numeric values: a 400 (or the page clamping it), never a 5xx. On PostgreSQL and
SQLite alike (``.ci/run`` runs both).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter
from django.urls.resolvers import RoutePattern
from rest_framework.test import APIClient

from apps.api import services as api_services
from baogame.converters import MAX_ID, IdConverter
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

BEYOND_64_BITS = 14100001953817653232525115392  # the path schemathesis found
HUGE_NUMBERS = [str(BEYOND_64_BITS), str(MAX_ID + 1), str(2**64)]
#: ``²`` and ``٣`` are digits to ``str.isdigit``, and ``int("²")`` fails; ``int`` refuses 5,000 digits.
PAGING_VALUES = [
    *("400000000000000000", str(BEYOND_64_BITS), "9" * 5000, "-1", "-400000000000000000"),
    *("x", "1e9", "", "²", "٣"),
]
#: Query parameters that page or count, on the pages (the API's come from its schema).
PAGE_PARAMETERS = ["page", "limit", "offset", "since", "season"]


def _routes(resolver: URLResolver | None = None, prefix: str = "") -> Iterator[tuple[str, list[str]]]:
    """(route, names of its ``<id:…>`` parts) for every path route of the URL map."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if not isinstance(entry.pattern, RoutePattern):
            continue  # regex routes (the API's catch-all, admin's) take no numbers to a query
        route = prefix + str(entry.pattern)
        ids = [k for k, c in entry.pattern.converters.items() if isinstance(c, (IdConverter, IntConverter))]
        if isinstance(entry, URLResolver):
            yield from ((r, ids + inner) for r, inner in _routes(entry, route))
        elif isinstance(entry, URLPattern):
            yield route, ids


def _fill(route: str, value: str) -> str:
    """The route with each converter part replaced: numbers by ``value``, the others by a plain word."""
    import re

    return "/" + re.sub(r"<(\w+):\w+>", lambda m: value if m.group(1) in ("id", "int") else "nothing", route)


ID_ROUTES = sorted({r for r, ids in _routes() if ids})


@pytest.fixture
def signed_in() -> tuple[Client, APIClient]:
    user = UserFactory()
    page = Client()
    page.force_login(user)
    api = APIClient()
    _, raw = api_services.token_create(user=user, name="bounds")
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return page, api


def test_every_route_with_a_number_in_its_path_is_enumerated() -> None:
    """The enumeration sees the routes it must (so the tests below cannot pass on an empty list)."""
    assert len(ID_ROUTES) >= 30
    assert "api/v1/games/<id:game_id>/seat/" in ID_ROUTES


def test_every_number_in_a_path_goes_through_the_id_converter() -> None:
    """Django's ``<int:…>`` takes any run of digits: a number beyond the column's range would reach the
    query. Every number in a path is an ``<id:…>``."""
    assert [r for r in ID_ROUTES if "<int:" in r] == []


@pytest.mark.parametrize("route", ID_ROUTES)
def test_a_number_beyond_64_bits_in_a_path_answers_404(
    route: str, signed_in: tuple[Client, APIClient], settings: Any
) -> None:
    settings.API_WRITE_RATE = "off"
    page, api = signed_in
    for number in HUGE_NUMBERS:
        url = _fill(route, number)
        client = api if url.startswith("/api/") else page
        for method in ("get", "post", "patch", "delete"):
            answer = getattr(client, method)(url)
            assert answer.status_code == 404, (method, url, answer.status_code)


def _api_paging_parameters() -> list[tuple[str, str]]:
    """(path, query parameter) for every integer query parameter of a GET in the API's schema."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, operations in schema["paths"].items():
        for parameter in operations.get("get", {}).get("parameters", []):
            if parameter["in"] == "query" and parameter["schema"].get("type") == "integer":
                found.append((path, parameter["name"]))
    return sorted(found)


API_PAGING = _api_paging_parameters()


def test_the_api_paging_parameters_are_enumerated() -> None:
    names = {name for _, name in API_PAGING}
    assert {"page", "limit", "offset"} <= names


@pytest.mark.parametrize(("path", "name"), API_PAGING)
def test_api_paging_parameters_refuse_huge_negative_and_non_numeric_values(
    path: str, name: str, signed_in: tuple[Client, APIClient]
) -> None:
    _, api = signed_in
    game = GameFactory()
    url = "/api" + path.replace("{game_id}", str(game.pk))
    url = __import__("re").sub(r"\{\w+\}", "1", url)
    for value in PAGING_VALUES:
        answer = api.get(url, {name: value})
        assert answer.status_code < 500, (url, name, value, answer.status_code)
        if value and answer.status_code != 404:
            assert answer.status_code in (200, 400), (url, name, value, answer.status_code)


PAGE_ROUTES = sorted(
    r
    for r, ids in _routes()
    if not ids and "<" not in r and not r.startswith(("api/", "admin/")) and r != "healthz"  # 503: no worker
)


@pytest.mark.parametrize("route", PAGE_ROUTES)
def test_pages_take_huge_negative_and_non_numeric_paging_values_without_a_server_error(
    route: str, signed_in: tuple[Client, APIClient]
) -> None:
    page, _ = signed_in
    for name in PAGE_PARAMETERS:
        for value in PAGING_VALUES:
            answer = page.get("/" + route, {name: value})
            assert answer.status_code < 500, (route, name, value, answer.status_code)


def test_a_game_page_and_a_league_page_take_huge_paging_values(
    signed_in: tuple[Client, APIClient],
) -> None:
    from apps.leagues import services as league_services

    page, _ = signed_in
    game = GameFactory()
    league = league_services.league_create(creator=UserFactory(), name="Bounds", game="baobei", join=True)
    for url in (f"/games/{game.public_id}/", f"/leagues/{league.slug}/"):
        for name in PAGE_PARAMETERS:
            for value in PAGING_VALUES:
                answer = page.get(url, {name: value}, HTTP_HX_REQUEST="true")
                assert answer.status_code < 500, (url, name, value, answer.status_code)
