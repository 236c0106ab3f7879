"""API requests with a token and no cookie take the short middleware chain (``baogame.tokenapi``): no
session, CSRF, messages, allauth or htmx work, and answers exactly what the whole chain gives."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client, RequestFactory, override_settings
from django.urls import get_resolver, path

from apps.api import services as api_services
from apps.games import lifecycle as game_lifecycle
from baogame.rules.registry import get_engine
from baogame.tokenapi import _hot_match, token_api_request

pytestmark = pytest.mark.django_db

#: The whole chain for every request: ``MIDDLEWARE`` without the switch to the short chain.
WHOLE_CHAIN = [name for name in settings.MIDDLEWARE if name != "baogame.tokenapi.TokenApiMiddleware"]


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

    client = Client()  # one handler: its second answer has the headers learnt from the first
    first, lean = (getattr(client, method)(url, HTTP_AUTHORIZATION=f"Bearer {raw}") for _ in range(2))
    with override_settings(MIDDLEWARE=WHOLE_CHAIN):
        full = getattr(Client(), method)(url, HTTP_AUTHORIZATION=f"Bearer {raw}")

    assert not hasattr(lean.wsgi_request, "session") and hasattr(full.wsgi_request, "session")
    assert not hasattr(lean.wsgi_request, "csrf_processing_done")
    assert _answer(first) == _answer(lean) == _answer(full)
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


@pytest.mark.parametrize("cookie", [False, True])
def test_a_token_request_creates_no_session_and_sets_no_cookie(users: list, cookie: bool) -> None:
    """A move and a /legal read with a token: no session row, no Set-Cookie (no session, no CSRF
    cookie), whether or not the program sends a cookie of its own (then the whole chain runs, and still
    nothing is stored for it)."""
    game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=2, bots=1)
    _, raw = api_services.token_create(user=users[0], name="t")
    client = Client()
    headers: dict[str, str] = {"HTTP_AUTHORIZATION": f"Bearer {raw}"}
    if cookie:
        headers["HTTP_COOKIE"] = "theme=dark"
    rules = get_engine("baobei")
    game.refresh_from_db()
    seat = rules.pending(game.state)[0]["seats"][0]
    action = rules.legal_actions(game.state, seat)[0]

    read = client.get(f"/api/v1/games/{game.pk}/legal/", **headers)
    move = client.post(
        f"/api/v1/games/{game.pk}/actions/", {"action": action}, content_type="application/json", **headers
    )

    assert (read.status_code, move.status_code) == (200, 201), move.content
    for response in (read, move):
        assert "Set-Cookie" not in response
        assert not response.cookies
    assert not Session.objects.exists()


@pytest.mark.parametrize(
    "accept", ["", "zh-hans", "zh-CN,zh;q=0.9", "fr-CA, zh-Hant;q=0.5", "*", "en-GB;q=x"]
)
@pytest.mark.parametrize(
    "path", ["/api/v1/games/{game}/legal/?limit=1", "/api/v1/games/{game}/legal/?limit=0", "/api/v1/nothing/"]
)
def test_a_token_requests_language_is_the_one_djangos_locale_middleware_picks(
    users: list, accept: str, path: str
) -> None:
    """The short chain reads the language from Accept-Language alone (a token request has no cookie and
    its user is known only inside the view): the same language, ``Content-Language``, ``Vary`` and
    translated refusal as through the whole chain, whatever the header says, a second time too (the
    language is remembered per header value)."""
    game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=2, bots=1)
    _, raw = api_services.token_create(user=users[0], name="t")
    url = path.format(game=game.pk)
    headers: dict[str, Any] = {"HTTP_AUTHORIZATION": f"Bearer {raw}", "HTTP_ACCEPT_LANGUAGE": accept}

    lean = [Client().get(url, **headers) for _ in range(2)]
    with override_settings(MIDDLEWARE=WHOLE_CHAIN):
        full = Client().get(url, **headers)

    assert _answer(lean[0]) == _answer(lean[1]) == _answer(full)
    assert lean[0].wsgi_request.LANGUAGE_CODE == full.wsgi_request.LANGUAGE_CODE
    expected = "zh-hans" if "zh" in accept.lower() else "en"  # zh-Hant too: Django falls back to zh-hans
    assert lean[0]["Content-Language"] == expected


@override_settings(SECURE_HSTS_SECONDS=3600)
def test_the_answer_headers_learnt_for_one_kind_of_answer_keep_https_apart(users: list) -> None:
    """``AnswerHeadersMiddleware`` remembers what the security, privacy, CSP and frame middleware add
    to a kind of answer: an HTTPS request still gets ``Strict-Transport-Security`` after a plain one of
    the same kind, and the plain one never does, as through the whole chain."""
    _, raw = api_services.token_create(user=users[0], name="t")
    client = Client()

    lean = [client.get("/api/v1/me/", secure=s, HTTP_AUTHORIZATION=f"Bearer {raw}") for s in (0, 1, 0, 1)]
    with override_settings(MIDDLEWARE=WHOLE_CHAIN):
        full = [Client().get("/api/v1/me/", secure=s, HTTP_AUTHORIZATION=f"Bearer {raw}") for s in (0, 1)]

    assert [_answer(a) for a in lean] == [_answer(full[0]), _answer(full[1])] * 2
    assert [("Strict-Transport-Security" in a) for a in lean] == [False, True, False, True]


def test_a_change_of_settings_is_not_hidden_by_the_headers_learnt_before(users: list) -> None:
    _, raw = api_services.token_create(user=users[0], name="t")
    client = Client()

    before = client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Bearer {raw}")
    with override_settings(X_FRAME_OPTIONS="SAMEORIGIN"):
        after = client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Bearer {raw}")

    assert (before["X-Frame-Options"], after["X-Frame-Options"]) == ("DENY", "SAMEORIGIN")


def test_an_answer_exempted_from_frame_options_is_not_given_the_headers_learnt_for_its_kind() -> None:
    """A view may exempt its answer (``xframe_options_exempt``, django-csp's decorators): such an answer
    goes through the four middleware itself, not by the headers learnt from an answer of its kind."""
    from django.http import HttpResponse

    from baogame.tokenapi import AnswerHeadersMiddleware

    answers = [HttpResponse(b"{}", content_type="application/json") for _ in range(3)]
    answers[2].xframe_options_exempt = True  # type: ignore[attr-defined]
    given = iter(answers)
    middleware = AnswerHeadersMiddleware(lambda request: next(given))
    request = RequestFactory().get("/api/v1/me/", HTTP_AUTHORIZATION="Bearer bg_x")

    plain, learnt, exempt = (middleware(request) for _ in range(3))

    assert plain["X-Frame-Options"] == learnt["X-Frame-Options"] == "DENY"
    assert "X-Frame-Options" not in exempt
    assert exempt["Cache-Control"] == learnt["Cache-Control"] == "private, no-store"


#: A URL map in which the two hot paths resolve elsewhere than in the site's (``ROOT_URLCONF`` below).
def _elsewhere(request: Any, **kwargs: Any) -> Any:
    raise AssertionError("never called")


urlpatterns = [
    path("api/v1/games/<id:game_id>/actions/", _elsewhere, name="elsewhere-act"),
    path("api/v1/games/<int:game_id>/legal/", _elsewhere, {"extra": 1}, name="elsewhere-legal"),
]


@pytest.mark.parametrize("kind", ["actions", "legal"])
@pytest.mark.parametrize("number", [1, 123, 2**63 - 1])
def test_a_move_or_legal_path_is_matched_as_the_url_map_matches_it(kind: str, number: int) -> None:
    path_info = f"/api/v1/games/{number}/{kind}/"
    for _ in range(2):  # learnt from the first, copied for the second
        match = _hot_match(path_info)
        assert match is not None
        assert vars(match) == vars(get_resolver().resolve(path_info))


@pytest.mark.parametrize(
    "path_info",
    [
        f"/api/v1/games/{2**63}/actions/",  # beyond <id:…>: the map refuses it (404)
        "/api/v1/games/12/actions",
        "/api/v1/games/12/legal/x/",
        "/api/v1/games/-1/legal/",
        "/api/v1/games/12/",
        "/api/v1/games/x/actions/",
        "/api/v2/games/12/actions/",
    ],
)
def test_any_other_path_is_left_to_the_url_map(path_info: str) -> None:
    assert _hot_match(path_info) is None


def test_a_number_beyond_a_64_bit_column_still_answers_404_through_the_short_chain(users: list) -> None:
    _, raw = api_services.token_create(user=users[0], name="t")
    response = Client().post(
        f"/api/v1/games/{2**63}/actions/",
        {"action": {}},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw}",
    )
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"


def test_another_url_map_is_learnt_again_and_followed() -> None:
    """The copies follow the URL map of the moment; one with extra arguments is resolved every time."""
    assert _hot_match("/api/v1/games/5/actions/").url_name == "game-act"  # type: ignore[union-attr]
    with override_settings(ROOT_URLCONF=__name__):
        act = _hot_match("/api/v1/games/5/actions/")
        assert act is not None and act.url_name == "elsewhere-act" and act.kwargs == {"game_id": 5}
        legal = _hot_match("/api/v1/games/6/legal/")
        assert legal is not None and legal.kwargs == {"game_id": 6, "extra": 1}
        assert vars(legal) == vars(get_resolver().resolve("/api/v1/games/6/legal/"))
    assert _hot_match("/api/v1/games/5/actions/").url_name == "game-act"  # type: ignore[union-attr]
