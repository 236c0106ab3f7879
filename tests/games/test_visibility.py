"""Who may see a game: private leagues' games, unlisted and private games, old links by number.

One rule (``apps.games.selectors.game_may_view``) answers for the page, its poll, the history, every
API read and write and the mail links; whoever may not see a game gets the 404 of a game that does not
exist.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.games.models import Game
from apps.leagues import seasons
from apps.leagues import services as league_services
from apps.notifications import tokens
from tests.factories import GameFactory, UserFactory, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _two_player_game(toy_engine: str, **kwargs: Any) -> tuple[Game, list[Any]]:
    players = [UserFactory(), UserFactory()]
    return GameFactory(engine=toy_engine, players=2, seated=players, **kwargs), players


def _reads(client: Client, game: Game) -> dict[str, int]:
    """The status of every read of the game: pages by link and by number, the poll, the API."""
    page = f"/games/{game.public_id}/"
    api = f"/api/v1/games/{game.pk}/"
    return {
        "page": client.get(page).status_code,
        "poll": client.get(f"{page}?since=0-active", HTTP_HX_REQUEST="true").status_code,
        "history": client.get(f"{page}history/").status_code,
        "old page": client.get(f"/games/{game.pk}/").status_code,
        "old history": client.get(f"/games/{game.pk}/history/").status_code,
        "api detail": client.get(api).status_code,
        "api history": client.get(f"{api}history/").status_code,
        "api legal": client.get(f"{api}legal/").status_code,
    }


HIDDEN = {
    "page": 404,
    "poll": 404,
    "history": 404,
    "old page": 404,
    "old history": 404,
    "api detail": 404,
    "api history": 404,
    "api legal": 404,
}


@pytest.fixture
def private_league_game(toy_engine: str) -> tuple[Game, dict[str, Any]]:
    """A game of a private league of three members at tables of two: one member sits out (a bye)."""
    organiser = UserFactory()
    league = league_services.league_create(
        creator=organiser, name="Club", game=toy_engine, is_public=False, players_per_table=2, join=True
    )
    for _ in range(2):
        league_services.membership_join_by_link(league=league, user=UserFactory(), token=league.invite_token)
    season = seasons.season_create(league=league, by=organiser)
    rnd = seasons.round_start(season_id=season.pk, by=organiser)
    game = rnd.fixtures.get().game
    seated = {s.user_id for s in game.seats.all()}
    members = [m.user for m in league.memberships.all()]
    people = {
        "player": next(u for u in members if u.pk in seated),
        "bye": next(u for u in members if u.pk not in seated),
    }
    return Game.objects.get(pk=game.pk), people


def test_private_league_game_is_hidden_from_anonymous_visitors(private_league_game: Any) -> None:
    game, _ = private_league_game

    assert _reads(signed_in(None), game) == {
        **HIDDEN,
        "api detail": 401,
        "api history": 401,
        "api legal": 401,
    }


def test_private_league_game_is_hidden_from_signed_in_strangers(private_league_game: Any) -> None:
    game, _ = private_league_game

    assert _reads(signed_in(UserFactory()), game) == HIDDEN


def test_private_league_game_answers_moves_of_strangers_as_not_found(private_league_game: Any) -> None:
    game, _ = private_league_game
    stranger = signed_in(UserFactory())

    api = stranger.post(f"/api/v1/games/{game.pk}/actions/", {"action": {"type": "pass"}}, "application/json")
    page = stranger.post(f"/games/{game.public_id}/act/", {"action": "{}"})

    assert (api.status_code, api.json()["code"]) == (404, "not_found")
    assert page.status_code == 404


def test_private_league_game_is_watched_by_a_member_who_sits_out(private_league_game: Any) -> None:
    game, people = private_league_game

    reads = _reads(signed_in(people["bye"]), game)

    assert reads["page"] == reads["history"] == reads["api detail"] == reads["api history"] == 200
    assert reads["old page"] == 302
    assert reads["api legal"] == 403  # not seated: may watch, not play


def test_private_league_game_mail_link_of_a_player_opens_the_game(private_league_game: Any) -> None:
    game, people = private_league_game
    link = f"/mail/go/{tokens.game_link_token(game_id=game.pk, user_id=people['player'].pk)}/"

    response = signed_in(people["player"]).get(link, follow=True)

    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == f"/games/{game.public_id}/"


def test_private_game_is_seen_by_its_players_only(toy_engine: str) -> None:
    game, players = _two_player_game(toy_engine, visibility="private")

    assert _reads(signed_in(UserFactory()), game) == HIDDEN
    assert _reads(signed_in(players[1]), game)["page"] == 200
    assert _reads(signed_in(players[1]), game)["api detail"] == 200


def test_unlisted_game_is_watched_by_link_but_not_found_by_number(toy_engine: str) -> None:
    game, players = _two_player_game(toy_engine, visibility="unlisted")

    reads = _reads(signed_in(UserFactory()), game)

    assert (reads["page"], reads["history"]) == (200, 200)
    assert (reads["old page"], reads["api detail"], reads["api history"]) == (404, 404, 404)
    assert _reads(signed_in(players[1]), game)["api detail"] == 200


def test_public_game_is_watched_by_anyone_and_its_old_link_redirects(toy_engine: str) -> None:
    game, _ = _two_player_game(toy_engine)

    response = signed_in(None).get(f"/games/{game.pk}/")

    assert response.status_code == 302 and response["Location"] == f"/games/{game.public_id}/"
    assert signed_in(None).get(f"/games/{game.public_id}/").status_code == 200


def test_game_links_name_the_public_id_not_the_number(toy_engine: str) -> None:
    first, _ = _two_player_game(toy_engine)
    second, _ = _two_player_game(toy_engine)

    assert first.get_absolute_url() == f"/games/{first.public_id}/"
    assert len(first.public_id) >= 16 and first.public_id != second.public_id
    assert f"/{first.pk}/" not in first.get_absolute_url()


def test_visibility_is_chosen_on_the_creation_form(client: Any) -> None:
    me = UserFactory()
    client.force_login(me)

    client.post(
        "/games/new/",
        {
            "engine": "baobei",
            "players": 3,
            "bots": 1,
            "control": "daily",
            "title": "Friends",
            "visibility": "unlisted",
        },
    )

    assert Game.objects.get(title="Friends").visibility == Game.Visibility.UNLISTED


def test_visibility_is_chosen_through_the_api(client: Any) -> None:
    client.force_login(UserFactory())

    created = client.post(
        "/api/v1/games/", {"engine": "baobei", "players": 2, "visibility": "private"}, "application/json"
    ).json()

    assert created["visibility"] == "private"
    assert Game.objects.get(pk=created["id"]).visibility == Game.Visibility.PRIVATE
    assert created["url"] == f"/games/{created['public_id']}/"


def test_api_refuses_an_unknown_visibility(client: Any) -> None:
    client.force_login(UserFactory())

    response = client.post(
        "/api/v1/games/", {"engine": "baobei", "players": 2, "visibility": "secret"}, "application/json"
    )

    assert response.status_code == 400 and not Game.objects.exists()
