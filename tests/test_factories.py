"""The database factories make games the way players do (``game_create`` then ``game_join``)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.models import Decision, Game
from tests.factories import GameFactory, SeatFactory

pytestmark = pytest.mark.django_db


def test_a_game_with_every_seat_taken_has_started() -> None:
    game = GameFactory()

    assert game.engine == "baobei" and game.status == Game.Status.ACTIVE
    assert game.state is not None and Decision.objects.filter(game=game).exists()
    assert [s.user is not None for s in game.seats.order_by("position")] == [True, True, True]


def test_the_seated_users_take_the_seats_in_order_and_the_first_creates(users: list[Any]) -> None:
    game = GameFactory(engine="baohuang", players=5, seated=users[:5])

    assert game.created_by == users[0]
    assert list(game.seats.order_by("position").values_list("user", flat=True)) == [u.pk for u in users[:5]]


def test_a_game_with_free_seats_stays_open(users: list[Any]) -> None:
    game = GameFactory(players=3, seated=users[:1])

    assert game.status == Game.Status.OPEN and game.state is None


def test_bots_take_the_last_seats(toy_engine: str, users: list[Any]) -> None:
    game = GameFactory(engine=toy_engine, players=3, bots=1, seated=users[:2])

    assert game.status == Game.Status.ACTIVE
    assert game.seats.get(position=2).bot != ""


def test_a_seat_taken_by_the_last_player_starts_the_game(users: list[Any]) -> None:
    game = GameFactory(players=2, seated=users[:1])

    seat = SeatFactory(game=game, user=users[1])

    assert seat.position == 1 and seat.user == users[1]
    assert seat.game.status == Game.Status.ACTIVE


def test_a_seat_on_its_own_joins_an_open_game() -> None:
    seat = SeatFactory()

    assert seat.position == 1 and seat.game.status == Game.Status.OPEN
