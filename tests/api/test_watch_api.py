"""``GET /api/v1/games/watch/``: the watch page's lists through the API (the same selector), as
summaries a spectator may read: a watcher's version counts public moves only (BB-30.6)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from apps.api import views_games
from apps.games import lifecycle, store
from apps.games.models import Game
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _finish(game: Game) -> None:
    with transaction.atomic():
        lifecycle.game_adjudicate(store.lock_game(game.pk), places={0: 1, 1: 2, 2: 3}, reason="test")


def test_public_games_in_play_are_listed_and_unlisted_or_private_ones_are_not(client_for: Any) -> None:
    public = GameFactory()
    GameFactory(visibility=Game.Visibility.UNLISTED)
    GameFactory(visibility=Game.Visibility.PRIVATE)
    GameFactory(seated=[UserFactory()])  # waiting for players

    body = client_for(UserFactory()).get("/api/v1/games/watch/").json()

    assert [g["public_id"] for g in body["results"]] == [public.public_id]
    assert body["count"] == 1 and body["page"] == 1 and body["pages"] == 1
    summary = body["results"][0]
    assert summary["my_seat"] is None and summary["waiting_for_me"] is False
    assert summary["version"] == public.public_version
    assert [s["name"] for s in summary["seats"]] == [s.label for s in public.seats.all()]


def test_finished_games_come_latest_first_and_a_seat_of_mine_is_named(client_for: Any) -> None:
    me = UserFactory()
    first, second = GameFactory(seated=[me, UserFactory(), UserFactory()]), GameFactory()
    _finish(first)
    _finish(second)

    body = client_for(me).get("/api/v1/games/watch/?status=finished").json()

    assert [g["public_id"] for g in body["results"]] == [second.public_id, first.public_id]
    assert [g["my_seat"] for g in body["results"]] == [None, 0]


def test_pages_of_games(client_for: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views_games.GameWatchApi, "PAGE_SIZE", 2)
    games = [GameFactory() for _ in range(3)]
    client = client_for(UserFactory())

    one = client.get("/api/v1/games/watch/").json()
    two = client.get("/api/v1/games/watch/?page=2").json()
    past = client.get("/api/v1/games/watch/?page=3").json()

    assert [g["public_id"] for g in one["results"]] == [games[2].public_id, games[1].public_id]
    assert [g["public_id"] for g in two["results"]] == [games[0].public_id]
    assert (one["count"], one["pages"], past["results"]) == (3, 2, [])


@pytest.mark.parametrize("query", ["?status=open", "?status=aborted", "?page=0", "?page=x"])
def test_a_bad_filter_is_refused_with_a_stable_code(client_for: Any, query: str) -> None:
    response = client_for(UserFactory()).get(f"/api/v1/games/watch/{query}")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_anybody_may_read_it_as_the_watch_page_and_the_api_docs_say(client_for: Any) -> None:
    """The watch page needs no sign-in, nor does its API; docs/api.md says so."""
    from pathlib import Path

    public = GameFactory()
    anonymous = client_for(None)

    answer = anonymous.get("/api/v1/games/watch/")
    page = anonymous.get("/games/")

    assert answer.status_code == 200 and page.status_code == 200
    assert [g["public_id"] for g in answer.json()["results"]] == [public.public_id]
    assert answer.json()["results"][0]["my_seat"] is None
    row = next(line for line in Path("docs/api.md").read_text().splitlines() if "`games/watch/`" in line)
    assert row.rstrip(" |").endswith("anybody (throttled per address)")


def test_anonymous_reads_of_it_are_throttled_per_address(client_for: Any, settings: Any) -> None:
    from django.core.cache import caches

    settings.API_ANON_READ_RATE = "3/min"
    caches[settings.API_THROTTLE_CACHE].clear()
    anonymous, signed_in = client_for(None), client_for(UserFactory())

    answers = [anonymous.get("/api/v1/games/watch/").status_code for _ in range(4)]
    mine = [signed_in.get("/api/v1/games/watch/").status_code for _ in range(4)]

    assert answers == [200, 200, 200, 429]
    assert mine == [200] * 4  # a signed-in reader is not counted as anonymous


def test_a_page_number_past_the_maximum_is_refused_not_a_server_error(client_for: Any) -> None:
    """``?page=400000000000000000`` once gave 500 (bigint out of range)."""
    for query in ("?page=400000000000000000", f"?page={views_games.MAX_PAGE + 1}", "?page=-5"):
        response = client_for(None).get(f"/api/v1/games/watch/{query}")
        assert (response.status_code, response.json()["code"]) == (400, "invalid"), query
    assert client_for(None).get(f"/api/v1/games/watch/?page={views_games.MAX_PAGE}").json()["results"] == []


def test_a_page_costs_the_same_queries_for_many_games_as_for_one(client_for: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(UserFactory())
    GameFactory(bots=1)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/api/v1/games/watch/").status_code == 200
        return len(captured.captured_queries)

    queries()  # the token's first use is recorded once (an UPDATE), not on every request
    one = queries()
    for _ in range(4):
        GameFactory(bots=2, seated=[UserFactory()])
    assert queries() == one
