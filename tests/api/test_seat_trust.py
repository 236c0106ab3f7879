"""Who may hold and take back a seat: one person does not seat two of their own
accounts in one game unless its creator made it a bot-test game; a player cannot undo an organiser's
"hand this seat to the bot"."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.api import services as api_services
from apps.games import lifecycle as game_lifecycle
from apps.games import selectors as game_selectors
from apps.games.models import Game
from apps.leagues import game_tools, seasons
from apps.leagues import services as league_services
from apps.leagues.models import Fixture

pytestmark = pytest.mark.django_db


def _join(client: Any, game: Game) -> Any:
    invitation = game_selectors.invitation_current(game=game)
    assert invitation is not None
    return client.post("/api/v1/games/join/", {"invite_token": invitation.token}, format="json")


def test_a_bot_account_cannot_join_a_game_its_owner_plays(client_for: Any, users: list) -> None:
    game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=3)
    bot = api_services.bot_account_create(owner=users[0], username="wren-bot")

    answer = _join(client_for(bot), game)

    assert (answer.status_code, answer.json()["code"]) == (409, "same_person")
    assert not game.seats.filter(user=bot).exists()


def test_the_owner_cannot_join_a_game_their_bot_account_plays(client_for: Any, users: list) -> None:
    bot = api_services.bot_account_create(owner=users[1], username="robin-bot")
    game = game_lifecycle.game_create(creator=users[0], engine="baobei", players=3)
    game_lifecycle.game_join(game_id=game.pk, user=bot)

    answer = _join(client_for(users[1]), game)

    assert (answer.status_code, answer.json()["code"]) == (409, "same_person")


def test_a_bot_test_game_lets_one_person_seat_their_accounts_and_says_so(
    client_for: Any, users: list
) -> None:
    owner = client_for(users[0])
    bot = api_services.bot_account_create(owner=users[0], username="wren-bot")
    created = owner.post(
        "/api/v1/games/", {"engine": "baobei", "players": 2, "bot_test": True}, format="json"
    ).json()
    game = Game.objects.get(pk=created["id"])

    answer = _join(client_for(bot), game)
    page = Client()
    page.force_login(users[0])

    assert answer.status_code == 200 and answer.json()["bot_test"] is True
    assert b"Bot-test game" in page.get(f"/games/{game.public_id}/").content


@pytest.fixture
def held_seat(toy_engine: str, users: list) -> tuple[Game, Any, Any]:
    """A league game whose seat 0 an organiser (who does not play) handed to the bot; returns the game,
    the seat's player and the organiser."""
    organiser = users[5]
    league = league_services.league_create(
        creator=organiser, name="Held", game=toy_engine, players_per_table=2
    )
    for user in users[:2]:
        league_services.membership_join_by_link(league=league, user=user, token=league.invite_token)
    season = seasons.season_create(league=league, by=organiser)
    seasons.round_start(season_id=season.pk, by=organiser)
    game = Fixture.objects.get(round__season=season).game
    player = game.seats.get(position=0).user
    game_tools.seat_bot_takeover(league=league, game_id=game.pk, position=0, on=True, by=organiser)
    return game, player, organiser


def test_a_player_cannot_take_back_a_seat_an_organiser_handed_to_the_bot(
    held_seat: tuple[Game, Any, Any], client_for: Any
) -> None:
    game, player, _ = held_seat

    answer = client_for(player).post(f"/api/v1/games/{game.pk}/seat/take-back/")

    assert (answer.status_code, answer.json()["code"]) == (403, "organiser_hold")
    assert (
        "organiser of the league who does not play in this game, or a site admin" in answer.json()["detail"]
    )
    assert game.seats.get(position=0).bot_takeover


def test_the_game_page_says_who_can_end_an_organisers_hold(held_seat: tuple[Game, Any, Any]) -> None:
    game, player, _ = held_seat
    client = Client()
    client.force_login(player)

    page = client.get(f"/games/{game.public_id}/").content

    assert b"only an organiser of the league who does not play in this game, or a site admin" in page
    assert b"Take my seat back" not in page


def test_a_player_takes_back_from_the_page_a_seat_the_bot_played_for_absence(
    toy_game: Game, users: list
) -> None:
    toy_game.seats.filter(position=1).update(bot_takeover=True)
    client = Client()
    client.force_login(users[1])

    shown = client.get(f"/games/{toy_game.public_id}/").content
    client.post(f"/games/{toy_game.public_id}/take-back/")

    assert b"Take my seat back" in shown
    assert not toy_game.seats.get(position=1).bot_takeover
