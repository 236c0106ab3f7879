"""A program's plain move request is answered without DRF's objects (``apps.api.plainmove``), and the
answer is DRF's: the same status, headers and bytes for every kind of request, on the same state of
the same game (DESIGN.md, the move pipeline; the rules' errors BB-23, BH-21 keep their codes).

Each comparison asks both on the same database (``tests.api.plainpaths.both``), DRF's view refusing
to be called while the plain path answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.accounts.models import Profile
from apps.api.views_games import MoveSubmitApi
from apps.games.models import Game, Move
from baogame.rules.registry import get_engine
from tests.api.plainpaths import (
    answer_of,
    assert_answered_alike,
    assert_left_to_drf,
    both,
    drf_refuses_to_answer,
    in_three_languages,
    started_game,
    strangers_cases,
)

pytestmark = pytest.mark.django_db


def _action(game: Game, seat: int = 0) -> dict[str, Any]:
    game.refresh_from_db()
    return get_engine(game.engine).legal_actions(game.state, seat)[0]


def _illegal(game: Game) -> dict[str, Any]:
    """Seat 0's play of a card nobody holds (``card_not_in_hand``)."""
    game.refresh_from_db()
    decision = get_engine(game.engine).pending(game.state)[0]
    return {"type": "play", "decision_id": decision["decision_id"], "card": 99}


def _drf_refuses_to_answer() -> Any:
    return drf_refuses_to_answer(MoveSubmitApi)


def _both(request: Callable[[], Any], *, served: bool = True) -> tuple[Any, Any]:
    return both(MoveSubmitApi, request, served=served)


def _post(client: APIClient, game_id: int, body: Any, query: str = "", **headers: Any) -> Any:
    return client.post(f"/api/v1/games/{game_id}/actions/{query}", body, format="json", headers=headers)


@pytest.mark.parametrize(
    "query",
    ["", "?legal=3", "?fields=version,status,legal&legal=2", "?fields=events"],
    ids=["whole", "legal", "some-fields", "events-only"],
)
def test_a_move_is_answered_as_drf_answers_it(
    query: str, toy_game: Game, users: list, client_for: Any
) -> None:
    client = client_for(users[0])

    plain, drf = _both(lambda: _post(client, toy_game.pk, {"action": _action(toy_game)}, query))

    assert plain.status_code == 201
    assert answer_of(plain) == answer_of(drf)


@pytest.mark.parametrize("engine", ["baobei", "baohuang"])
def test_a_move_of_either_game_is_answered_as_drf_answers_it(
    engine: str, users: list, client_for: Any
) -> None:
    """Both engines' replies, events and open decisions (BB-30.6: only the owners a seat may know of)."""
    game, seat = started_game(engine, users)
    client = client_for(users[seat])

    plain, drf = _both(lambda: _post(client, game.pk, {"action": _action(game, seat)}, "?legal=5"))

    assert plain.status_code == 201
    assert answer_of(plain) == answer_of(drf)


def test_a_replayed_move_is_answered_as_drf_answers_it(toy_game: Game, users: list, client_for: Any) -> None:
    """The Idempotency-Key's replay: 200 with the first move's reply."""
    client = client_for(users[0])
    body = {"action": _action(toy_game)}
    assert _post(client, toy_game.pk, body, Idempotency_Key="k-1").status_code == 201

    plain, drf = _both(lambda: _post(client, toy_game.pk, body, Idempotency_Key="k-1"))

    assert plain.status_code == 200 and plain.json()["replayed"] is True
    assert answer_of(plain) == answer_of(drf)


@in_three_languages
def test_a_refused_move_is_answered_as_drf_answers_it_in_the_same_language(
    language: str | None, profile: str, toy_game: Game, users: list, client_for: Any
) -> None:
    """BB-23 style refusal (``card_not_in_hand``): 400, its code, its sentence in the asker's language."""
    Profile.objects.filter(user=users[0]).update(language=profile)
    client = client_for(users[0])
    headers = {"Accept-Language": language} if language else {}

    plain, drf = _both(lambda: _post(client, toy_game.pk, {"action": _illegal(toy_game)}, **headers))

    assert plain.status_code == 400 and plain.json()["code"] == "card_not_in_hand"
    assert answer_of(plain) == answer_of(drf)


def test_a_key_used_for_another_action_is_refused_as_drf_refuses_it(
    toy_game: Game, users: list, client_for: Any
) -> None:
    client = client_for(users[0])
    assert _post(client, toy_game.pk, {"action": _action(toy_game)}, Idempotency_Key="k-2").status_code == 201

    plain, drf = _both(
        lambda: _post(client, toy_game.pk, {"action": _illegal(toy_game)}, Idempotency_Key="k-2")
    )

    assert plain.status_code == 422 and plain.json()["code"] == "idempotency_key_mismatch"
    assert answer_of(plain) == answer_of(drf)


def test_no_game_and_a_game_without_the_asker_are_answered_as_drf_answers_them(
    toy_game: Game, users: list, client_for: Any
) -> None:
    """No such game: 404. A game the asker may watch but has no seat in: 403 ``not_seated``; one it may
    not see: 404, as if it did not exist."""
    stranger = client_for(users[4])

    for game_id, code, status in strangers_cases(toy_game, users):
        plain, drf = _both(lambda game_id=game_id: _post(stranger, game_id, {"action": {"type": "play"}}))

        assert (plain.status_code, plain.json()["code"]) == (status, code)
        assert answer_of(plain) == answer_of(drf)


def test_a_move_in_a_finished_game_is_refused_as_drf_refuses_it(
    toy_game: Game, users: list, client_for: Any
) -> None:
    Game.objects.filter(pk=toy_game.pk).update(status=Game.Status.FINISHED)
    client = client_for(users[0])

    plain, drf = _both(lambda: _post(client, toy_game.pk, {"action": {"type": "play"}}))

    assert plain.status_code == 409 and plain.json()["code"] == "game_not_active"
    assert answer_of(plain) == answer_of(drf)


@pytest.mark.parametrize(
    ("body", "query", "headers", "status"),
    [
        ({"action": {"type": "play"}}, "", {"Authorization": "Bearer not-a-token"}, 401),  # unknown token
        ('{"action": ', "", {}, 400),  # a body that does not parse
        ({"nothing": 1}, "", {}, 400),  # no action
        ({"action": {"type": "play"}}, "?legal=x", {}, 400),  # a query its serializer refuses
        ({"action": {"type": "play"}}, "", {"Idempotency-Key": "a\x00b"}, 400),  # refused before the token
        ({"action": {"type": "play"}}, "", {"Accept": "text/html"}, 201),  # the browsable API
        ({"action": {"type": "play"}}, "?format=json", {}, 201),
    ],
    ids=["bad-token", "bad-json", "no-action", "bad-query", "bad-key", "browser", "format"],
)
def test_a_request_the_plain_path_does_not_serve_is_drfs(
    body: Any, query: str, headers: dict[str, str], status: int, toy_game: Game, users: list, client_for: Any
) -> None:
    """Left to DRF's view before anything is done: the same answer as with the plain path switched off."""
    client = client_for(users[0])
    if "Authorization" in headers:  # the client's own credentials would win over a header
        client.credentials(HTTP_AUTHORIZATION=headers.pop("Authorization"))
    if isinstance(body, dict) and body.get("action") == {"type": "play"}:
        body = {"action": _action(toy_game)}
    raw = isinstance(body, str)

    def move() -> Any:
        if raw:
            return client.post(
                f"/api/v1/games/{toy_game.pk}/actions/{query}",
                body,
                content_type="application/json",
                headers=headers,
            )
        return _post(client, toy_game.pk, body, query, **headers)

    plain, drf = _both(move, served=False)

    assert_answered_alike(plain, drf, status)


def test_a_move_that_the_write_limit_refuses_is_answered_429_with_retry_after(
    toy_game: Game, users: list, client_for: Any, settings: Any
) -> None:
    """The plain path counts a write exactly once, a refused move too, and leaves the 429 to DRF."""
    settings.API_WRITE_RATE = "2/min"
    client = client_for(users[0])

    with _drf_refuses_to_answer():
        refused = _post(client, toy_game.pk, {"action": _illegal(toy_game)})  # counted: 1
        played = _post(client, toy_game.pk, {"action": _action(toy_game)})  # counted: 2
    limited = _post(client, toy_game.pk, {"action": _action(toy_game, 1)})

    assert (refused.status_code, played.status_code, limited.status_code) == (400, 201, 429)
    assert limited.json()["code"] == "throttled" and int(limited["Retry-After"]) > 0
    assert Move.objects.filter(game=toy_game).count() == 1


def test_a_browser_request_with_a_cookie_goes_through_drf(
    toy_game: Game, users: list, client_for: Any
) -> None:
    client = client_for(users[0])
    client.cookies["somecookie"] = "1"

    assert_left_to_drf(MoveSubmitApi, lambda: _post(client, toy_game.pk, {"action": _action(toy_game)}))


def test_the_plain_path_switched_off_sends_every_move_to_drf(
    toy_game: Game, users: list, client_for: Any, settings: Any
) -> None:
    settings.API_PLAIN_MOVES = False
    client = client_for(users[0])

    assert_left_to_drf(MoveSubmitApi, lambda: _post(client, toy_game.pk, {"action": _action(toy_game)}))


def test_a_plain_move_answer_creates_no_session_and_sets_no_cookie(
    toy_game: Game, users: list, client_for: Any
) -> None:
    client = client_for(users[0])

    with _drf_refuses_to_answer():
        answer = _post(client, toy_game.pk, {"action": _action(toy_game)})

    assert answer.status_code == 201
    assert not answer.cookies and "Set-Cookie" not in answer


@pytest.mark.parametrize(
    ("content_type", "plain"),
    [("application/json; charset=utf-8", True), ("application/json; charset=latin-1", False)],
    ids=["utf-8", "latin-1"],
)
def test_a_body_is_read_here_only_in_the_charset_drf_would_read_it_in(
    content_type: str, plain: bool, toy_game: Game, users: list, client_for: Any
) -> None:
    client = client_for(users[0])

    def move() -> Any:
        body = json.dumps({"action": _action(toy_game)})
        return client.post(f"/api/v1/games/{toy_game.pk}/actions/", body, content_type=content_type)

    if plain:
        answered, drf = _both(move)
        assert answered.status_code == 201 and answer_of(answered) == answer_of(drf)
    else:
        assert_left_to_drf(MoveSubmitApi, move)


@pytest.mark.parametrize(
    "query",
    [
        "",
        "legal=30",
        "legal=3&legal=5",
        "a&legal=&=7&&b=c=d",
        "fields=version,status",
        "q=%20x",
        "q=a+b",
        "é=1",
    ],
)
def test_the_plain_path_reads_a_query_as_the_query_dict_does(query: str) -> None:
    """``_query``: the pairs of a plain query as ``request.GET`` has them (each name's last value); any
    other query is ``request.GET`` itself."""
    from django.test import RequestFactory

    from apps.api.plainmove import _query

    request = RequestFactory().get("/api/v1/games/1/actions/", QUERY_STRING=query)
    read = _query(request)

    assert dict(read.items()) == {name: request.GET.get(name) for name in request.GET}


@pytest.mark.parametrize("query", ["a=1&b=2&c=3", "a=1&b=2&c=3&d=4"])
def test_the_plain_path_leaves_too_many_query_pairs_to_the_query_dict(query: str, settings: Any) -> None:
    """More pairs than ``DATA_UPLOAD_MAX_NUMBER_FIELDS``: ``request.GET``, which refuses them."""
    from django.core.exceptions import TooManyFieldsSent
    from django.test import RequestFactory

    from apps.api.plainmove import _query

    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 3
    request = RequestFactory().get("/api/v1/games/1/actions/", QUERY_STRING=query)

    if query.count("&") < 3:
        assert _query(request) == {"a": "1", "b": "2", "c": "3"}
    else:
        with pytest.raises(TooManyFieldsSent):
            _query(request)
