"""A program's plain ``/legal`` read is answered without DRF's objects (``apps.api.plainmove``), and
the answer is DRF's: the same status, headers and bytes for every kind of request, on the same state
of the same game (BB-23, BH-21: the legal actions are the engine's; a game the asker may not see
answers as if it did not exist).

Each comparison asks both on the same database (``tests.api.plainpaths.both``), DRF's view refusing to
be called while the plain path answers.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.accounts.models import Profile
from apps.api.models import ApiToken
from apps.api.views_games import GameLegalApi
from apps.games.models import Game
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


def _legal(client: APIClient, game_id: int, query: str = "", **headers: Any) -> Any:
    return client.get(f"/api/v1/games/{game_id}/legal/{query}", headers=headers)


@pytest.mark.parametrize("query", ["", "?limit=2", "?offset=1&limit=1"], ids=["whole", "limit", "page"])
def test_a_legal_read_is_answered_as_drf_answers_it(
    query: str, toy_game: Game, users: list, client_for: Any
) -> None:
    client = client_for(users[0])

    plain, drf = both(GameLegalApi, lambda: _legal(client, toy_game.pk, query))

    assert plain.status_code == 200 and plain.json()["seat"] == 0
    assert answer_of(plain) == answer_of(drf)


@pytest.mark.parametrize("engine", ["baobei", "baohuang"])
def test_a_legal_read_of_either_game_is_answered_as_drf_answers_it(
    engine: str, users: list, client_for: Any
) -> None:
    """Both engines' legal actions, for the seat whose turn it is and for one whose turn it is not."""
    game, turn = started_game(engine, users)
    waiting = next(seat for seat in range(game.players) if seat != turn)

    for seat in (turn, waiting):
        client = client_for(users[seat])
        plain, drf = both(GameLegalApi, lambda client=client: _legal(client, game.pk, "?limit=5"))

        assert plain.status_code == 200 and plain.json()["seat"] == seat
        assert answer_of(plain) == answer_of(drf)


def test_a_legal_read_of_a_finished_game_is_answered_as_drf_answers_it(
    toy_game: Game, users: list, client_for: Any
) -> None:
    Game.objects.filter(pk=toy_game.pk).update(status=Game.Status.FINISHED)
    client = client_for(users[1])

    plain, drf = both(GameLegalApi, lambda: _legal(client, toy_game.pk))

    assert plain.status_code == 200 and plain.json()["actions"] == []
    assert answer_of(plain) == answer_of(drf)


@in_three_languages
def test_no_game_and_a_game_without_the_asker_are_answered_as_drf_answers_them(
    language: str | None, profile: str, toy_game: Game, users: list, client_for: Any
) -> None:
    """No such game: 404. A game the asker may watch but has no seat in: 403 ``not_seated``; one it may
    not see: 404, as if it did not exist. Each in the asker's language."""
    Profile.objects.filter(user=users[4]).update(language=profile)
    stranger = client_for(users[4])
    headers = {"Accept-Language": language} if language else {}

    for game_id, code, status in strangers_cases(toy_game, users):
        plain, drf = both(GameLegalApi, lambda game_id=game_id: _legal(stranger, game_id, **headers))

        assert (plain.status_code, plain.json()["code"]) == (status, code)
        assert answer_of(plain) == answer_of(drf)


@pytest.mark.parametrize(
    ("query", "headers", "status"),
    [
        ("", {"Authorization": "Bearer not-a-token"}, 401),  # unknown token
        ("", {"Authorization": "Bearer"}, 401),  # malformed credentials
        ("", {"Authorization": None}, 401),  # none at all
        ("?limit=x", {}, 400),  # a query its serializer refuses
        ("?limit=0", {}, 400),  # out of range
        ("?colour=red", {}, 200),  # a name it does not know (its serializer ignores it)
        ("", {"Accept": "text/html"}, 200),  # the browsable API
        ("?format=json", {}, 200),
    ],
    ids=[
        "bad-token",
        "malformed",
        "anonymous",
        "bad-query",
        "out-of-range",
        "unknown-name",
        "browser",
        "format",
    ],
)
def test_a_read_the_plain_path_does_not_serve_is_drfs(
    query: str, headers: dict[str, Any], status: int, toy_game: Game, users: list, client_for: Any
) -> None:
    """Left to DRF's view before anything is used: the same answer as with the plain path switched off."""
    client = client_for(users[0])
    if "Authorization" in headers:  # the client's own credentials would win over a header
        credentials = headers.pop("Authorization")
        client.credentials(**({"HTTP_AUTHORIZATION": credentials} if credentials else {}))

    plain, drf = both(GameLegalApi, lambda: _legal(client, toy_game.pk, query, **headers), served=False)

    assert_answered_alike(plain, drf, status)


def test_a_revoked_token_is_refused_by_drf_before_the_game_is_used(
    toy_game: Game, users: list, client_for: Any
) -> None:
    """The token read with the game lets nothing of the game out unless it is admitted (401 as DRF says
    it); the same for a token whose user is no longer active."""
    client = client_for(users[0])
    ApiToken.objects.filter(user=users[0]).delete()

    plain, drf = both(GameLegalApi, lambda: _legal(client, toy_game.pk), served=False)

    assert plain.status_code == 401 and b"actions" not in plain.content
    assert answer_of(plain) == answer_of(drf)

    other = client_for(users[1])
    type(users[1]).objects.filter(pk=users[1].pk).update(is_active=False)
    plain, drf = both(GameLegalApi, lambda: _legal(other, toy_game.pk), served=False)
    assert plain.status_code == 401 and answer_of(plain) == answer_of(drf)


def test_a_browser_read_with_a_cookie_goes_through_drf(toy_game: Game, users: list, client_for: Any) -> None:
    client = client_for(users[0])
    client.cookies["somecookie"] = "1"

    assert_left_to_drf(GameLegalApi, lambda: _legal(client, toy_game.pk))


def test_the_plain_path_switched_off_sends_every_read_to_drf(
    toy_game: Game, users: list, client_for: Any, settings: Any
) -> None:
    settings.API_PLAIN_MOVES = False
    client = client_for(users[0])

    assert_left_to_drf(GameLegalApi, lambda: _legal(client, toy_game.pk))


def test_a_plain_legal_answer_creates_no_session_and_sets_no_cookie(
    toy_game: Game, users: list, client_for: Any
) -> None:
    client = client_for(users[0])

    with drf_refuses_to_answer(GameLegalApi):
        answer = _legal(client, toy_game.pk)

    assert answer.status_code == 200
    assert not answer.cookies and "Set-Cookie" not in answer


def test_a_plain_legal_read_brings_the_tokens_last_use_up_to_date(
    toy_game: Game, users: list, client_for: Any
) -> None:
    """As ``ApiTokenAuthentication`` does (at most once per ``LAST_USED_RESOLUTION``)."""
    client = client_for(users[0])
    ApiToken.objects.filter(user=users[0]).update(last_used_at=None)

    with drf_refuses_to_answer(GameLegalApi):
        assert _legal(client, toy_game.pk).status_code == 200

    assert ApiToken.objects.get(user=users[0]).last_used_at is not None
