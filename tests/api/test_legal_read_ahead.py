"""A ``/legal`` read with a token reads the token and the game in one statement
(``authentication.read_with_token``), and still answers only once the token lets the request in: the
same answers as reading them one after the other, for every kind of caller."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.api import authentication
from apps.api.models import ApiToken
from apps.games import sql
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _legal(client: Any, game_id: int) -> Any:
    return client.get(f"/api/v1/games/{game_id}/legal/")


@pytest.fixture
def game(toy_engine: str, users: list[Any]) -> Any:
    return GameFactory(engine=toy_engine, players=2, seated=users[:2])


@pytest.mark.parametrize("hand", [True, False], ids=["hand", "orm"])
def test_a_seated_player_an_outsider_and_a_missing_game_get_the_same_answers_both_ways(
    hand: bool, settings: Any, game: Any, users: list[Any], client_for: Any
) -> None:
    settings.GAMES_HAND_SQL = hand
    player, outsider = client_for(users[1]), client_for(UserFactory())

    answer = _legal(player, game.pk)
    assert answer.status_code == 200 and answer.json()["seat"] == 1
    assert _legal(outsider, game.pk).status_code == 403  # a game they may watch, but no seat of theirs
    assert _legal(player, game.pk + 10_000).status_code == 404


def test_the_token_and_the_game_are_read_in_one_round_trip(
    settings: Any, game: Any, users: list[Any], client_for: Any, monkeypatch: Any
) -> None:
    settings.GAMES_HAND_SQL = True
    client = client_for(users[0])
    batches: list[int] = []
    real = sql.batch
    monkeypatch.setattr(
        sql,
        "batch",
        lambda statements, using="default": batches.append(len(statements)) or real(statements, using),
    )

    with CaptureQueriesContext(connection) as captured:
        assert _legal(client, game.pk).status_code == 200

    assert batches == [1]  # the token and the game, together
    [select] = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]
    assert '"api_apitoken"' in select and '"games_game"' in select  # one statement reads both


@pytest.mark.parametrize(
    "header",
    ["Bearer not-a-token", "Bearer", "Bearer two words", "Token \u00e9t\u00e9"],
    ids=["unknown", "no-token", "two-words", "not-ascii"],
)
def test_a_bad_token_is_refused_as_before_and_shows_nothing_of_the_game(
    header: str, settings: Any, game: Any, client_for: Any
) -> None:
    settings.GAMES_HAND_SQL = True
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION=header.encode("utf-8").decode("latin-1"))

    answer = _legal(client, game.pk)

    assert answer.status_code == 401
    assert set(answer.json()) <= {"detail", "code", "errors", "type"}
    assert "actions" not in answer.content.decode()


def test_a_revoked_token_and_an_inactive_user_are_refused(
    settings: Any, game: Any, users: list[Any], client_for: Any
) -> None:
    settings.GAMES_HAND_SQL = True
    revoked, inactive = client_for(users[0]), client_for(users[1])
    ApiToken.objects.filter(user=users[0]).delete()
    users[1].is_active = False
    users[1].save(update_fields=["is_active"])

    assert _legal(revoked, game.pk).status_code == 401
    assert _legal(inactive, game.pk).status_code == 401


def test_authentication_uses_the_token_read_with_the_game_only_for_the_same_digest(
    settings: Any, game: Any, users: list[Any], client_for: Any, rf: Any
) -> None:
    """A token read ahead for another digest is not taken for this request's."""
    from rest_framework.request import Request

    settings.GAMES_HAND_SQL = True
    client_for(users[0])  # a token for users[0] exists; the request carries another, unknown one
    request = Request(rf.get("/", HTTP_AUTHORIZATION="Bearer unknown"))
    stranger = ApiToken.objects.get(user=users[0])
    setattr(request._request, authentication._TOKEN_READ, ("another digest", stranger))

    with pytest.raises(authentication.exceptions.AuthenticationFailed):
        authentication.ApiTokenAuthentication().authenticate(request)
