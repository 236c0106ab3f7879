"""Issue 18 point 2: API requests with a token and no cookie pass by the browser-only middleware
(``baogame.browsermiddleware``), and their answers stay exactly what the whole middleware chain gave."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client, RequestFactory, override_settings

from apps.api import services as api_services
from apps.games import lifecycle as game_lifecycle
from baogame.browsermiddleware import token_api_request

pytestmark = pytest.mark.django_db

#: Django's own middleware in place of the browser-only subclasses: the chain before this change.
DJANGO_MIDDLEWARE = [
    {
        "baogame.browsermiddleware.SessionMiddleware": "django.contrib.sessions.middleware.SessionMiddleware",
        "baogame.browsermiddleware.AuthenticationMiddleware": (
            "django.contrib.auth.middleware.AuthenticationMiddleware"
        ),
        "baogame.browsermiddleware.MessageMiddleware": "django.contrib.messages.middleware.MessageMiddleware",
        "baogame.browsermiddleware.HtmxMiddleware": "django_htmx.middleware.HtmxMiddleware",
    }.get(name, name)
    for name in settings.MIDDLEWARE
]


def _answer(response: Any) -> tuple[int, bytes, dict[str, str]]:
    headers = {k: v for k, v in response.headers.items() if k != "Vary"}
    headers["Vary"] = ", ".join(sorted(v.strip() for v in response.get("Vary", "").split(",")))
    return response.status_code, response.content, headers


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/games/{game}/"),
        ("get", "/api/v1/games/{game}/legal/?limit=3"),
        ("post", "/api/v1/games/{game}/actions/"),  # refused (no action): the error body and headers
        ("get", "/api/v1/me/"),
        ("get", "/api/v1/no-such-endpoint/"),
    ],
)
def test_a_token_request_gets_the_same_answer_as_through_djangos_middleware(
    users: list, method: str, path: str
) -> None:
    game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=2, bots=1)
    _, raw = api_services.token_create(user=users[0], name="t")
    url = path.format(game=game.pk)

    lean = getattr(Client(), method)(url, HTTP_AUTHORIZATION=f"Bearer {raw}")
    with override_settings(MIDDLEWARE=DJANGO_MIDDLEWARE):
        full = getattr(Client(), method)(url, HTTP_AUTHORIZATION=f"Bearer {raw}")

    assert not hasattr(lean.wsgi_request, "session") and hasattr(full.wsgi_request, "session")
    assert _answer(lean) == _answer(full)
    assert "Content-Security-Policy" in lean and "X-Frame-Options" in lean
    assert "no-store" in lean["Cache-Control"]


@pytest.mark.parametrize(
    ("path", "headers", "passes"),
    [
        ("/api/v1/games/", {"HTTP_AUTHORIZATION": "Bearer bg_x"}, True),
        ("/api/v1/games/", {"HTTP_AUTHORIZATION": "token bg_x"}, True),
        ("/api/v1/games/", {"HTTP_AUTHORIZATION": "Bearer bg_x", "HTTP_COOKIE": "sessionid=s"}, False),
        ("/api/v1/games/", {"HTTP_AUTHORIZATION": "Basic dTpw"}, False),
        ("/api/v1/games/", {}, False),
        ("/api/tokens/", {"HTTP_AUTHORIZATION": "Bearer bg_x"}, False),  # a browser page
        ("/games/", {"HTTP_AUTHORIZATION": "Bearer bg_x"}, False),
    ],
)
def test_only_api_requests_with_a_token_and_no_cookie_pass_by(
    path: str, headers: dict[str, str], passes: bool
) -> None:
    request = RequestFactory().get(path, **headers)

    assert token_api_request(request) is passes


def test_a_browser_api_call_still_uses_its_session(users: list) -> None:
    client = Client()
    client.force_login(users[0])

    response = client.get("/api/v1/me/", HTTP_AUTHORIZATION="Bearer not-a-token-but-a-cookie-is-sent")

    assert response.status_code == 401  # the token is checked first, with the session still loaded
    assert client.get("/api/v1/me/").json()["username"] == users[0].username
