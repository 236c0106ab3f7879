"""Absent players: the bot takes the seat after K consecutive timeouts and hands it back."""

from __future__ import annotations

import pytest

from apps.games import clock, lifecycle, pipeline, signals
from apps.games.models import Move, Seat

from .helpers import a_game, overdue, pending, toy_play

pytestmark = pytest.mark.django_db


def _time_out_turn(game) -> None:
    overdue(game, kind="turn")
    clock.settle_game(game.pk)


def _until_turn_of(game, seat: int, users: list, *, silent: int | None = None) -> None:
    """Others play and pass until it is ``seat``'s turn (toy game); ``silent`` lets its windows time out."""
    while (d := pending(game)[0]) and not (d["kind"] == "turn" and d["seats"] == [seat]):
        if d["kind"] == "window":
            for owner in d["seats"]:
                if owner == silent:
                    overdue(game, seat=owner)
                    clock.settle_game(game.pk)
                else:
                    pipeline.submit_action(
                        game_id=game.pk,
                        user=users[owner],
                        action={"type": "pass", "decision_id": d["decision_id"]},
                    )
        else:
            toy_play(game, users[d["seats"][0]])


@pytest.fixture
def told() -> list[tuple[int, int]]:
    calls: list[tuple[int, int]] = []

    def receiver(sender, game_id, seat, **kwargs) -> None:
        calls.append((game_id, seat))

    signals.seat_handed_to_bot.connect(receiver)
    yield calls
    signals.seat_handed_to_bot.disconnect(receiver)


def test_bot_takes_the_seat_after_k_consecutive_timeouts_and_the_creator_is_told(
    toy_engine: str, users: list, told: list, django_capture_on_commit_callbacks
) -> None:
    game = a_game(toy_engine, users, players=2, absent_limit=2, options={"hand": 5})
    _time_out_turn(game)
    after_one = Seat.objects.get(game=game, position=0)
    _until_turn_of(game, 0, users, silent=0)  # window timeouts are passes: they do not count

    with django_capture_on_commit_callbacks(execute=True):
        _time_out_turn(game)

    seat = Seat.objects.get(game=game, position=0)
    assert after_one.consecutive_timeouts == 1 and not after_one.bot_takeover
    assert seat.bot_takeover and seat.played_by_bot
    assert told == [(game.pk, 0)]


def test_a_move_by_the_player_resets_the_count(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, players=2, absent_limit=3, options={"hand": 5})
    _time_out_turn(game)
    _until_turn_of(game, 0, users)

    toy_play(game, users[0])

    assert Seat.objects.get(game=game, position=0).consecutive_timeouts == 0


def test_the_bot_plays_for_the_absent_seat_until_the_player_takes_it_back(
    toy_engine: str, users: list, django_capture_on_commit_callbacks
) -> None:
    game = a_game(toy_engine, users, players=2, absent_limit=1, options={"hand": 5})
    with django_capture_on_commit_callbacks(execute=True):
        _time_out_turn(game)  # handed to the bot at once (K = 1)
    with django_capture_on_commit_callbacks(execute=True):
        _until_turn_of(game, 1, users)  # the bot answers seat 0's windows and turns meanwhile
        toy_play(game, users[1])
    bot_moves = Move.objects.filter(game=game, seat=0, by_bot=True).count()

    seat = lifecycle.seat_take_back(game_id=game.pk, user=users[0])
    _until_turn_of(game, 1, users)
    with django_capture_on_commit_callbacks(execute=True):
        toy_play(game, users[1])  # opens a window for seat 0: nobody answers it for the player now

    seat.refresh_from_db()
    assert bot_moves >= 1
    assert not seat.bot_takeover and seat.consecutive_timeouts == 0
    assert (pending(game)[0]["kind"], pending(game)[0]["seats"]) == ("window", [0])
    assert Move.objects.filter(game=game, seat=0, by_bot=True).count() == bot_moves
