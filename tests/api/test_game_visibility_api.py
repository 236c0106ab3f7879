"""A game's ``visibility`` in the API says who may see it, as ``selectors.game_may_view`` decides: a
private league's game is ``private`` whatever its own setting (its players, its creator and whoever may
see the league see it: nobody else), any other game gives its own setting (``selectors.game_visibility``).
Lists read the league with the games, in no query per game."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.games.models import Game
from tests.factories import GameFactory, UserFactory
from tests.support.leagues import game_in_league

pytestmark = pytest.mark.django_db


def _visibility_everywhere(client: Any, game: Game) -> set[str]:
    """The game's ``visibility`` in its own answer and in the list of my games."""
    detail = client.get(f"/api/v1/games/{game.pk}/").json()["visibility"]
    listed = [g["visibility"] for g in client.get("/api/v1/games/").json() if g["id"] == game.pk]
    return {detail, *listed}


def test_a_private_leagues_game_says_private_though_its_own_setting_is_public(client_for: Any) -> None:
    player = UserFactory()
    game = GameFactory(seated=[player, UserFactory(), UserFactory()], visibility=Game.Visibility.PUBLIC)
    game_in_league(game, public=False)

    assert _visibility_everywhere(client_for(player), game) == {"private"}


@pytest.mark.parametrize("visibility", ["public", "unlisted", "private"])
def test_a_public_leagues_game_and_a_game_of_no_league_say_their_own_setting(
    client_for: Any, visibility: str
) -> None:
    player = UserFactory()
    in_league = GameFactory(seated=[player, UserFactory(), UserFactory()], visibility=visibility)
    game_in_league(in_league, public=True)
    alone = GameFactory(seated=[player, UserFactory(), UserFactory()], visibility=visibility)

    client = client_for(player)

    assert _visibility_everywhere(client, in_league) == _visibility_everywhere(client, alone) == {visibility}


def test_my_games_list_costs_the_same_queries_with_many_league_games_as_with_one(client_for: Any) -> None:
    player = UserFactory()
    client = client_for(player)
    game_in_league(GameFactory(seated=[player, UserFactory(), UserFactory()]), public=False)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/api/v1/games/").status_code == 200
        return len(captured.captured_queries)

    queries()  # the token's first use is recorded once
    one = queries()
    for public in (True, False, False):
        game_in_league(GameFactory(seated=[player, UserFactory(), UserFactory()]), public=public)

    assert queries() == one
