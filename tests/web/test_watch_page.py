"""The watch page (``/games/``): the games anybody may watch, for strangers to find them.

It lists what ``game_may_view`` lets a stranger see (public games, not those of a private league) and
nothing of a game's state: names, the game and dates.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from apps.games import lifecycle, store
from apps.games.models import Game
from tests.factories import GameFactory, UserFactory
from tests.support.leagues import game_in_league

pytestmark = pytest.mark.django_db


def _listed(client: Any, section: str, page: str = "") -> list[str]:
    """The public ids of the games the watch page lists in ``section`` (``in-play`` or ``finished``)."""
    html = client.get(f"/games/{page}").content.decode()
    block = html.split(f'id="{section}"')[1].split("</ul>")[0]
    return re.findall(r'data-game="([^"]+)"', block)


def _finish(game: Game) -> None:
    with transaction.atomic():
        lifecycle.game_adjudicate(store.lock_game(game.pk), places={0: 1, 1: 2, 2: 3}, reason="test")


def test_a_stranger_finds_public_games_in_play_and_not_unlisted_or_private_ones(client_for):
    public = GameFactory()
    unlisted = GameFactory(visibility=Game.Visibility.UNLISTED)
    private = GameFactory(visibility=Game.Visibility.PRIVATE)
    waiting = GameFactory(seated=[UserFactory()])  # open: two seats free, not in play

    listed = _listed(client_for(None), "in-play")

    assert public.public_id in listed
    assert not {unlisted.public_id, private.public_id, waiting.public_id} & set(listed)


def test_a_public_game_of_a_private_league_is_not_listed_and_of_a_public_one_is(client_for):
    hidden, shown = GameFactory(), GameFactory()
    game_in_league(hidden, public=False)
    game_in_league(shown, public=True)

    listed = _listed(client_for(None), "in-play")

    assert shown.public_id in listed and hidden.public_id not in listed


def test_finished_games_are_listed_apart_newest_first(client_for):
    first, second, playing = GameFactory(), GameFactory(), GameFactory()
    _finish(first)
    _finish(second)

    stranger = client_for(None)

    assert _listed(stranger, "finished") == [second.public_id, first.public_id]
    assert _listed(stranger, "in-play") == [playing.public_id]


def test_each_row_names_the_players_and_the_game_and_shows_nothing_of_the_state(client_for):
    people = [UserFactory(username=n) for n in ("ann", "bob", "cat")]
    game = GameFactory(seated=people, title="Birds at noon")

    html = client_for(None).get("/games/").content.decode()

    row = html.split(f'data-game="{game.public_id}"')[1].split("</li>")[0]
    assert "Birds at noon" in row and "Bao Bei" in row
    assert all(name in row for name in ("ann", "bob", "cat"))
    assert "data-card" not in html and "data-zone" not in html  # no card is drawn on the list


def test_games_in_play_come_a_page_at_a_time_newest_first(client_for, monkeypatch):
    from apps.games import views

    monkeypatch.setattr(views, "WATCH_PAGE", 2)
    games = [GameFactory() for _ in range(3)]
    stranger = client_for(None)

    assert _listed(stranger, "in-play") == [games[2].public_id, games[1].public_id]
    assert _listed(stranger, "in-play", "?page=2") == [games[0].public_id]
    assert 'href="?page=2"' in stranger.get("/games/").content.decode()


def _queries(client: Any) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/games/").status_code == 200
    return len(captured.captured_queries)


def test_the_list_costs_the_same_queries_for_many_games_as_for_one(client_for):
    stranger = client_for(None)
    GameFactory(bots=2, seated=[UserFactory()])
    _finish(GameFactory())
    one = _queries(stranger)  # one game in each list
    for _ in range(4):
        GameFactory(bots=1)
        _finish(GameFactory())

    assert _queries(stranger) == one


def test_every_page_links_the_watch_page(client_for):
    assert 'href="/games/"' in client_for(None).get("/").content.decode()
    assert 'href="/games/"' in client_for(UserFactory()).get("/").content.decode()
