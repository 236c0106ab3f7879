"""A server-played seat whose bank is empty under a control without increment still plays the bot's
moves (DESIGN.md, "Clocks, reaction windows, standing orders and sittings": repeated timeouts hand the
seat to a bot).

Under a +0 control a seat handed to the bot after its bank ran out owes every later decision with an
empty bank: each is due the moment it opens. Settling such a decision must answer it with the bot's
choice, not the engine's timeout default, or the bot never plays the seat it took over.
"""

from __future__ import annotations

import pytest

from apps.games import bot_moves, clock, pipeline
from apps.games.models import Move, Seat

from .helpers import a_game, overdue, pending

pytestmark = pytest.mark.django_db

#: A custom control of 72 s, +0 per move, up to 72 s: the QA report's 0.02 h bank without increment.
NO_INCREMENT = {"initial": 72, "increment": 0, "cap": 72}


def _handed_over_on_an_empty_bank(toy_engine: str, users: list, capture) -> object:
    game = a_game(
        toy_engine, users, players=2, absent_limit=1, options={"hand": 5}, control="custom",
        control_custom=NO_INCREMENT,
    )  # fmt: skip
    with capture(execute=True):
        overdue(game, kind="turn")  # seat 0's bank runs out: handed to the bot at once (K = 1)
        clock.settle_game(game.pk)
    seat = Seat.objects.get(game=game, position=0)
    assert seat.bot_takeover and seat.bank_seconds == 0
    return game


def _person_plays_on(game, user, capture) -> None:
    """Seat 1 (a person) answers its decisions until the game is over; the bot plays seat 0's."""
    while (decisions := pending(game)) and 1 in decisions[0]["seats"]:
        d = decisions[0]
        if d["kind"] == "turn":
            action = {"type": "play", "decision_id": d["decision_id"], "card": min(game.state["hands"][1])}
        else:
            action = {"type": "pass", "decision_id": d["decision_id"]}
        with capture(execute=True):
            pipeline.submit_action(game_id=game.pk, user=user, action=action)


def _on_to_seat_0s_turn(game, user) -> None:
    """Seat 1 (``user``) plays on until seat 0 alone must play a card; seat 0's windows time out on
    the way (no bot task runs here: a pass)."""
    while (d := pending(game)[0]) != {**d, "kind": "turn", "seats": [0]}:
        if 1 not in d["seats"]:
            overdue(game, seat=0)
            clock.settle_game(game.pk)
            continue
        action = (
            {"type": "play", "decision_id": d["decision_id"], "card": min(game.state["hands"][1])}
            if d["kind"] == "turn"
            else {"type": "pass", "decision_id": d["decision_id"]}
        )
        pipeline.submit_action(game_id=game.pk, user=user, action=action)


def test_the_bot_plays_a_taken_over_seat_whose_bank_is_empty_without_increment(
    toy_engine: str, users: list, django_capture_on_commit_callbacks
) -> None:
    game = _handed_over_on_an_empty_bank(toy_engine, users, django_capture_on_commit_callbacks)
    handed_at = Move.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True).first()

    _person_plays_on(game, users[1], django_capture_on_commit_callbacks)

    game.refresh_from_db()
    later = Move.objects.filter(game=game, seat=0, seq__gt=handed_at)
    turns = [m for m in later if m.action["type"] == "play"]
    assert game.status == game.Status.FINISHED
    assert turns, "seat 0 had turns after the hand-over"
    assert [(m.by_bot, m.by_timeout) for m in later] == [(True, False)] * len(later)
    # the engine marks the action of its timeout default
    assert all("timeout" not in m.action for m in later)


def test_settling_an_overdue_decision_of_a_bot_played_seat_plays_the_bot_choice(
    toy_engine: str, users: list, django_capture_on_commit_callbacks
) -> None:
    game = _handed_over_on_an_empty_bank(toy_engine, users, django_capture_on_commit_callbacks)
    _on_to_seat_0s_turn(game, users[1])
    d = pending(game)[0]
    assert (d["kind"], d["seats"]) == ("turn", [0])
    highest = max(game.state["hands"][0])

    overdue(game, seat=0)
    settled = clock.settle_game(game.pk)

    move = Move.objects.filter(game=game, seat=0).order_by("-seq").first()
    assert settled == 1
    assert (move.by_bot, move.by_timeout, move.action.get("card")) == (True, False, highest)


def test_a_bot_that_fails_to_choose_gets_the_timeout_default_and_the_settlement_goes_on(
    toy_engine: str, users: list, django_capture_on_commit_callbacks, monkeypatch, caplog
) -> None:
    """A bot's bug while the settlement answers its overdue decision: the decision takes the rules'
    timeout action (as a refused bot action does), the settlement does not fail (a sweep settles
    many games together), and the log names the exception's class, never its text."""
    game = _handed_over_on_an_empty_bank(toy_engine, users, django_capture_on_commit_callbacks)
    _on_to_seat_0s_turn(game, users[1])

    def broken(locked, seat):
        raise KeyError("a card's name")

    monkeypatch.setattr(bot_moves, "bot_action", broken)
    overdue(game, seat=0)
    settled = clock.settle_game(game.pk)

    move = Move.objects.filter(game=game, seat=0).order_by("-seq").first()
    assert settled == 1
    assert (move.by_bot, move.by_timeout) == (True, True)
    assert "KeyError" in caplog.text and "a card's name" not in caplog.text
