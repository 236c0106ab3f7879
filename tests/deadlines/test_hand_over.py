"""A player hands their own seat to the bot ("Let the bot play my seat"), until they take it back: the
bot answers what is open for the seat at once, the table need not wait for the player's deadlines, and
the player's record counts the seat as handed to the bot."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.games import lifecycle
from apps.games.errors import ServiceError
from apps.games.models import Game, Move, Seat, SeatTenure

from .helpers import a_game, pending

pytestmark = pytest.mark.django_db


def test_the_bot_answers_the_handed_seats_open_turn_at_once(
    toy_engine: str, users: list, django_capture_on_commit_callbacks
) -> None:
    game = a_game(toy_engine, users, players=2, options={"hand": 5})
    assert (pending(game)[0]["kind"], pending(game)[0]["seats"]) == ("turn", [0])

    with django_capture_on_commit_callbacks(execute=True):
        seat = lifecycle.seat_hand_to_bot(game_id=game.pk, user=users[0])

    seat.refresh_from_db()
    assert seat.bot_takeover and seat.played_by_bot and not seat.bot_hold
    assert seat.consecutive_timeouts == 0  # no timeout was counted
    assert Move.objects.filter(game=game, seat=0, by_bot=True).exists()
    assert SeatTenure.objects.get(game=game, position=0, ended_at=None).handed_to_bot


def test_taking_the_seat_back_after_handing_it_over_stops_the_bot(
    toy_engine: str, users: list, django_capture_on_commit_callbacks
) -> None:
    game = a_game(toy_engine, users, players=2, options={"hand": 5})
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.seat_hand_to_bot(game_id=game.pk, user=users[0])
    again = lifecycle.seat_hand_to_bot(game_id=game.pk, user=users[0])  # already the bot's: no change

    seat = lifecycle.seat_take_back(game_id=game.pk, user=users[0])

    assert again.bot_takeover and not seat.bot_takeover
    assert not Seat.objects.get(game=game, position=0).played_by_bot


def test_only_a_seated_player_of_a_game_in_play_hands_a_seat_over(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, players=2, options={"hand": 5})
    with pytest.raises(ServiceError) as outsider:
        lifecycle.seat_hand_to_bot(game_id=game.pk, user=users[3])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(ServiceError) as over:
        lifecycle.seat_hand_to_bot(game_id=game.pk, user=users[0])

    assert (outsider.value.code, outsider.value.status) == ("not_seated", 403)
    assert (over.value.code, over.value.status) == ("game_not_active", 409)
    assert not Seat.objects.get(game=game, position=0).bot_takeover


def test_the_game_page_offers_the_hand_over_and_then_says_who_handed_it(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, players=2, options={"hand": 5})
    client = Client()
    client.force_login(users[0])
    before = client.get(game.get_absolute_url()).content.decode()

    answer = client.post(f"/games/{game.public_id}/hand-over/")
    after = client.get(game.get_absolute_url()).content.decode()
    home = client.get("/").content.decode()

    assert 'id="hand-over"' in before and "Let the bot play my seat" in before
    assert answer.status_code == 302 and answer["Location"] == game.get_absolute_url()
    assert 'id="hand-over"' not in after
    assert "You handed it to the bot, and it plays your decisions until you take the seat back." in after
    assert "Take my seat back" in after and "missed" not in after.split('id="takeover"')[1].split("</div>")[0]
    assert "You handed it to the bot." in home
