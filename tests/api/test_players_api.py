"""``GET /api/v1/players/<username>/``: a player's public page through the API, under the page's rules
(``apps.games.players``): readable signed out, the games the caller may see, public leagues only, 404
for an unknown name or a closed account."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from apps.accounts.closing import account_close
from apps.accounts.models import Profile
from apps.games import lifecycle, store
from apps.games.models import Game, SeatTenure
from tests.factories import GameFactory, UserFactory
from tests.support.leagues import game_in_league, member_of_a_public_and_a_private_league

pytestmark = pytest.mark.django_db


def test_signed_out_the_record_and_the_public_games_are_read(client_for: Any) -> None:
    player = UserFactory(username="wren")
    playing = GameFactory(seated=[player, UserFactory(), UserFactory()], bots=0)
    over = GameFactory(seated=[UserFactory(), player, UserFactory()])
    with transaction.atomic():
        lifecycle.game_adjudicate(store.lock_game(over.pk), places={0: 1, 1: 2, 2: 3}, reason="test")
    SeatTenure.objects.update_or_create(
        game=playing, position=0, user=player, defaults={"started_at": timezone.now(), "answered": 3}
    )

    answer = client_for(None).get("/api/v1/players/wren/")

    body = answer.json()
    assert answer.status_code == 200
    assert (body["username"], body["name"], body["is_bot"], body["url"]) == (
        "wren",
        "wren",
        False,
        "/players/wren/",
    )
    assert body["reliability"]["on_time_percent"] == 100
    assert (body["reliability"]["answered"], body["reliability"]["games"]) == (None, None)  # the player's own
    assert body["reliability"]["summary"].startswith("100% on time")
    assert [g["public_id"] for g in body["in_play"]] == [playing.public_id]
    assert [g["public_id"] for g in body["finished"]] == [over.public_id]
    assert body["in_play"][0]["seats"][0] == {
        "position": 0,
        "name": "wren",
        "username": "wren",
        "is_bot": False,
    }
    assert not {"state", "version", "result", "scores"} & set(body["in_play"][0])


def test_unlisted_private_and_private_league_games_are_not_listed_but_to_their_players(
    client_for: Any,
) -> None:
    player, fellow = UserFactory(), UserFactory()
    unlisted = GameFactory(seated=[player, fellow, UserFactory()], visibility=Game.Visibility.UNLISTED)
    private = GameFactory(seated=[player, UserFactory(), UserFactory()], visibility=Game.Visibility.PRIVATE)
    league_game = GameFactory(seated=[player, UserFactory(), UserFactory()])
    game_in_league(league_game, public=False)
    path = f"/api/v1/players/{player.username}/"

    stranger = client_for(UserFactory()).get(path).json()
    anonymous = client_for(None).get(path).json()
    shared = client_for(fellow).get(path).json()

    assert stranger["in_play"] == [] and anonymous["in_play"] == []
    assert [g["public_id"] for g in shared["in_play"]] == [unlisted.public_id]
    assert private.public_id not in str(shared)


def test_an_unknown_name_and_a_closed_account_answer_404_not_found(client_for: Any) -> None:
    leaving = UserFactory(username="leaving")
    account_close(user=leaving, password="pw-for-tests-123")
    leaving.refresh_from_db()

    for path in (
        "/api/v1/players/leaving/",
        f"/api/v1/players/{leaving.username}/",
        "/api/v1/players/nobody/",
    ):
        answer = client_for(None).get(path)

        assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_a_bot_account_is_marked_as_a_bot(client_for: Any) -> None:
    bot = UserFactory(username="robin")
    Profile.objects.filter(user=bot).update(is_bot_account=True, bot_owner=UserFactory())

    body = client_for(None).get("/api/v1/players/robin/").json()

    assert body["is_bot"] is True


def test_only_public_leagues_are_listed_with_the_rating(client_for: Any) -> None:
    player = UserFactory()
    public, _ = member_of_a_public_and_a_private_league(player)

    body = client_for(None).get(f"/api/v1/players/{player.username}/").json()

    assert body["leagues"] == [
        {
            "slug": public.slug,
            "name": "Open Birds",
            "game": "baobei",
            "season": 1,
            "games_played": 2,
            "rating": 15.0,
        }
    ]


def test_only_the_player_reads_how_many_games_and_answers_their_record_counts(client_for: Any) -> None:
    """The counts take in games others may not see (here a private one): a stranger reads the share on
    time, the player the counts too."""
    player = UserFactory(username="shrike")
    hidden = GameFactory(seated=[player, UserFactory(), UserFactory()], visibility=Game.Visibility.PRIVATE)
    SeatTenure.objects.update_or_create(
        game=hidden, position=0, user=player, defaults={"started_at": timezone.now(), "answered": 4}
    )

    stranger = client_for(UserFactory()).get("/api/v1/players/shrike/").json()["reliability"]
    own = client_for(player).get("/api/v1/players/shrike/").json()["reliability"]

    assert (stranger["games"], stranger["answered"], stranger["on_time_percent"]) == (None, None, 100)
    assert (own["games"], own["answered"], own["on_time_percent"]) == (1, 4, 100)


def test_a_name_in_another_case_answers_the_player_under_its_own_spelling(client_for: Any) -> None:
    UserFactory(username="wren")

    answer = client_for(None).get("/api/v1/players/WREN/")

    assert answer.status_code == 200
    assert (answer.json()["username"], answer.json()["url"]) == ("wren", "/players/wren/")


def test_a_closed_account_asked_for_in_another_case_answers_as_an_unknown_name(client_for: Any) -> None:
    leaving = UserFactory(username="leaving")
    account_close(user=leaving, password="pw-for-tests-123")
    leaving.refresh_from_db()
    unknown = client_for(None).get("/api/v1/players/Nobody/")

    for name in ("Leaving", leaving.username.upper()):
        answer = client_for(None).get(f"/api/v1/players/{name}/")

        assert (answer.status_code, answer.json()) == (404, unknown.json())
