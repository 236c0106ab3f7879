"""Standing orders, stored and applied (DESIGN.md "Standing orders").

Applied in the transaction of the move that reaches the seat, one Move row each, exactly like an answer
the player sent; dropped when illegal; never a timeout; never counted against the reliability record.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.games import orders, pipeline
from apps.games.errors import ServiceError
from apps.games.models import Game, Move, Seat, SeatTenure, StandingOrder
from baogame.rules.core import RuleError
from baogame.rules.registry import get_engine
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

#: Seat 0 (RJ*) is the emperor and leads; after its A A only seat 3 (2 2) can beat (BH-11.1).
HANDS = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]


def bh_game() -> tuple[Game, list[Any]]:
    """A Bao Huang game of five people at the start of play: seat 0 is the emperor, to lead."""
    users = [UserFactory() for _ in range(5)]
    game = GameFactory(engine="baohuang", players=5, seated=users, options={"deals": [{"hands": HANDS}]})
    send(game, users[0], {"type": "keep_emperor"})
    for seat in range(5):
        send(game, users[seat], {"type": "no_declaration"})
    return game, users


def send(game: Game, user: Any, action: dict[str, Any]) -> pipeline.MoveResult:
    return pipeline.submit_action(game_id=game.pk, user=user, action=action)


def turn(game: Game) -> int:
    game.refresh_from_db()
    return int(get_engine(game.engine).pending(game.state)[0]["seats"][0])


def test_a_move_of_another_seat_triggers_the_pass_in_its_transaction_bh_12_5(users: list) -> None:
    """BH-11, BH-12.5: seats 1 and 2 cannot beat A A and have "pass when I cannot beat": seat 0's play
    is followed, in its own transaction, by their passes, one Move row each, and seat 3 is asked."""
    game, people = bh_game()
    for seat in (1, 2):
        orders.arm(game_id=game.pk, user=people[seat], kind="pass_unbeatable")
    before = Move.objects.filter(game=game).count()

    with CaptureQueriesContext(connection) as queries:
        send(game, people[0], {"type": "play", "cards": ["A", "A"]})

    moves = list(Move.objects.filter(game=game).order_by("seq"))[before:]
    assert [(m.seat, m.action) for m in moves] == [
        (0, {"type": "play", "cards": ["A", "A"]}),
        (1, {"type": "pass"}),
        (2, {"type": "pass"}),
    ]
    assert turn(game) == 3
    begins = [q for q in queries.captured_queries if q["sql"].upper().startswith(("SAVEPOINT", "BEGIN"))]
    assert len(begins) == 1  # one transaction (one atomic block) for the move and both passes
    assert all(m.user_id == people[m.seat].pk and not m.by_timeout and not m.by_bot for m in moves)


def test_an_order_answer_is_recorded_like_a_played_answer(users: list) -> None:
    """Invisible to others: the Move of an order's pass has the shape of a pass the player sent."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[1], kind="pass_trick")
    send(game, people[0], {"type": "play", "cards": ["A", "A"]})
    by_order = Move.objects.filter(game=game, seat=1, action__type="pass").get()
    send(game, people[2], {"type": "pass"})
    by_hand = Move.objects.filter(game=game, seat=2, action__type="pass").get()

    fields = ("action", "events", "by_timeout", "by_bot", "hidden", "idempotency_key")
    shape = [{f: getattr(m, f) for f in fields} for m in (by_order, by_hand)]
    for s in shape:
        s["events"] = [{k: v for k, v in e.items() if k != "seat"} for e in s["events"]]
    assert shape[0] == shape[1]


def test_an_illegal_order_is_dropped_and_the_player_asked_bh_20_7(users: list) -> None:
    """BH-20.7: "play Q Q if it beats" does not beat A A: seat 4 is asked, the order is gone."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[4], kind="play_if_beats", params={"cards": ["Q", "Q"]})
    send(game, people[0], {"type": "play", "cards": ["A", "A"]})
    for seat in (1, 2, 3):
        send(game, people[seat], {"type": "pass"})

    assert turn(game) == 4
    assert not StandingOrder.objects.filter(seat__game=game).exists()
    assert not Seat.objects.get(game=game, position=4).has_orders


def test_trick_orders_end_with_the_trick_bh_12_7(users: list) -> None:
    """BH-12.7: "pass to the end of this trick" passes seat 3 in this trick only, then is gone."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[3], kind="pass_trick")
    send(game, people[0], {"type": "play", "cards": ["A", "A"]})
    for seat in (1, 2):
        send(game, people[seat], {"type": "pass"})
    assert Move.objects.filter(game=game, seat=3, action__type="pass").get().action == {"type": "pass"}
    send(game, people[4], {"type": "pass"})  # the trick ends: seat 0 leads again

    assert turn(game) == 0
    assert orders.mine(game=game, user=people[3]) == []


def test_arming_answers_an_open_decision_at_once_bh_6_2(users: list) -> None:
    """BH-6.2: the offer answered ahead while it is open answers it in the arming transaction."""
    users5 = [UserFactory() for _ in range(5)]
    game = GameFactory(engine="baohuang", players=5, seated=users5, options={"deals": [{"hands": HANDS}]})

    orders.arm(game_id=game.pk, user=users5[0], kind="offer", params={"answer": "keep"})

    move = Move.objects.filter(game=game).get()
    assert (move.seat, move.action) == (0, {"type": "keep_emperor"})


def test_an_order_answer_is_not_a_timeout_and_keeps_the_reliability_record(users: list) -> None:
    """An order's answer is the player's own: no timeout counted, the run of timeouts is not
    increased, and the seat's record counts it as answered, never as timed out."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[1], kind="pass_unbeatable")
    send(game, people[0], {"type": "play", "cards": ["A", "A"]})

    seat = Seat.objects.get(game=game, position=1)
    tenure = SeatTenure.objects.get(game=game, position=1, ended_at=None)
    assert seat.consecutive_timeouts == 0 and not seat.bot_takeover
    assert tenure.timeouts == 0
    assert not Move.objects.filter(game=game, by_timeout=True).exists()


def test_orders_are_private_to_their_owner(users: list) -> None:
    """Someone without a seat cannot read or set a seat's orders (``not_seated``); each player lists
    only their own."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[1], kind="pass_unbeatable")
    stranger = UserFactory()

    with pytest.raises(ServiceError) as info:
        orders.mine(game=game, user=stranger)
    assert info.value.code == "not_seated"
    with pytest.raises(ServiceError):
        orders.arm(game_id=game.pk, user=stranger, kind="pass_unbeatable")
    assert orders.mine(game=game, user=people[2]) == []
    assert [o["kind"] for o in orders.mine(game=game, user=people[1])] == ["pass_unbeatable"]


def test_a_bad_order_is_refused_and_nothing_is_stored(users: list) -> None:
    """Bad input gets a stable code; nothing is stored."""
    game, people = bh_game()

    with pytest.raises(RuleError) as info:
        orders.arm(game_id=game.pk, user=people[1], kind="play_if_beats", params={"cards": ["RJ"]})

    assert info.value.code == "card_not_in_hand"
    assert not StandingOrder.objects.exists()


def test_revoking_an_order_stops_it(users: list) -> None:
    """Revocable: after "autopass off" seat 1 is asked again."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[1], kind="pass_unbeatable")
    orders.revoke(game_id=game.pk, user=people[1], kind="pass_unbeatable")
    send(game, people[0], {"type": "play", "cards": ["A", "A"]})

    assert turn(game) == 1
    assert not Seat.objects.get(game=game, position=1).has_orders


def test_a_substitute_does_not_inherit_the_orders(users: list) -> None:
    """Orders belong to the player, not the seat: another user in the seat has none applied."""
    game, people = bh_game()
    orders.arm(game_id=game.pk, user=people[1], kind="pass_unbeatable")
    Seat.objects.filter(game=game, position=1).update(user=UserFactory())
    send(game, people[0], {"type": "play", "cards": ["A", "A"]})

    assert turn(game) == 1


def test_bao_bei_end_turn_when_done_ends_the_turn_bb_20_7(users: list) -> None:
    """BB-20.7, BB-24: with "end my turn when nothing is left", the end_turn decision never waits."""
    game = GameFactory(engine="baobei", players=2, seated=users[:2])
    engine = get_engine("baobei")
    for user in users[:2]:
        orders.arm(game_id=game.pk, user=user, kind="end_turn_when_done")
    for _ in range(60):
        game.refresh_from_db()
        pending = engine.pending(game.state)
        if not pending:
            break
        assert pending[0]["kind"] != "end_turn"
        seat = pending[0]["seats"][0]
        action = engine.timeout_action(game.state, seat)
        action.pop("timeout")
        if action["type"] == "draw":
            action = {"type": "draw", "decision_id": action["decision_id"]}
        send(game, users[seat], action)
    assert Move.objects.filter(game=game, action__type="end_turn").exists()
