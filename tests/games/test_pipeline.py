"""The move pipeline (DESIGN.md, "One move, end to end"), against the toy engine."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from apps.games import lifecycle, pipeline
from apps.games.models import Decision, Game, Move, Seat
from baogame.rules.core import RuleError
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def _turn(game: Game) -> dict:
    from baogame.rules.registry import get_engine

    game.refresh_from_db()
    return get_engine(game.engine).pending(game.state)[0]


def _first_play(game: Game) -> dict:
    """Seat 0's turn: play the first card of its hand."""
    d = _turn(game)
    return {"type": "play", "decision_id": d["decision_id"], "card": game.state["hands"][0][0]}


def test_game_starts_when_every_seat_is_taken(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=3, seated=users[:3])

    assert game.status == Game.Status.ACTIVE
    assert game.state is not None
    assert list(Decision.objects.filter(game=game).values_list("seat", flat=True)) == [0]


def test_accepted_action_appends_a_move_and_bumps_the_version(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    d = _turn(game)
    card = game.state["hands"][0][0]

    result = pipeline.submit_action(
        game_id=game.pk, user=users[0], action={"type": "play", "decision_id": d["decision_id"], "card": card}
    )

    assert result.game.version == 1
    assert Move.objects.get(game=game).seq == 1
    assert [e["type"] for e in result.events] == ["played", "hand"]


def test_refused_action_writes_nothing(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    d = _turn(game)
    before = (game.state, game.version)

    with pytest.raises(RuleError) as exc:
        pipeline.submit_action(
            game_id=game.pk,
            user=users[0],
            action={"type": "play", "decision_id": d["decision_id"], "card": 99},
        )

    game.refresh_from_db()
    assert exc.value.code == "card_not_in_hand"
    assert (game.state, game.version) == before
    assert not Move.objects.filter(game=game).exists()


def test_unseated_user_cannot_act(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    d = _turn(game)

    with pytest.raises(RuleError) as exc:
        pipeline.submit_action(
            game_id=game.pk,
            user=users[5],
            action={"type": "play", "decision_id": d["decision_id"], "card": 1},
        )

    assert exc.value.code == "not_seated"


def test_one_seat_cannot_act_for_another(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    d = _turn(game)

    with pytest.raises(RuleError) as exc:
        pipeline.submit_action(
            game_id=game.pk,
            user=users[1],
            action={"type": "play", "decision_id": d["decision_id"], "card": 1},
        )

    assert exc.value.code == "not_your_turn"


def test_client_cannot_send_the_timeout_flag(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])

    with pytest.raises(RuleError) as exc:
        pipeline.submit_action(game_id=game.pk, user=users[0], action={**_first_play(game), "timeout": True})

    assert exc.value.code == "malformed_action"


def test_idempotency_key_applies_once(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    action = _first_play(game)

    first = pipeline.submit_action(game_id=game.pk, user=users[0], action=action, key="k-1")
    second = pipeline.submit_action(game_id=game.pk, user=users[0], action=action, key="k-1")

    assert not first.replayed and second.replayed
    assert second.move.pk == first.move.pk
    assert Move.objects.filter(game=game).count() == 1


def test_idempotency_key_of_another_user_is_refused(toy_engine: str, users: list) -> None:
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    pipeline.submit_action(game_id=game.pk, user=users[0], key="shared", action=_first_play(game))

    with pytest.raises(RuleError) as exc:
        pipeline.submit_action(game_id=game.pk, user=users[1], key="shared", action={"type": "pass"})

    assert exc.value.code == "idempotency_key_reused"


def test_bots_answer_their_decisions(
    toy_engine: str, users: list, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = lifecycle.game_create(creator=users[0], engine=toy_engine, players=2, bots=1)
        pipeline.submit_action(game_id=game.pk, user=users[0], action=_first_play(game))

    game.refresh_from_db()
    assert Move.objects.filter(game=game, by_bot=True).exists()
    pending_seats = set(Decision.objects.filter(game=game).values_list("seat", flat=True))
    assert pending_seats <= {0}


def test_an_outsider_learns_nothing_about_used_idempotency_keys(toy_engine: str, users: list) -> None:
    """Not seated is refused before the key is looked at: 403 either way, never 409 for a used key."""
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    pipeline.submit_action(game_id=game.pk, user=users[0], key="used", action=_first_play(game))

    codes = []
    for key in ("used", "never-used"):
        with pytest.raises(RuleError) as exc:
            pipeline.submit_action(game_id=game.pk, user=users[4], key=key, action={"type": "pass"})
        codes.append(exc.value.code)

    assert codes == ["not_seated", "not_seated"]


def test_a_player_no_longer_seated_cannot_replay_an_old_key(toy_engine: str, users: list) -> None:
    """A replay would answer the seat's current decisions and legal actions, now another player's."""
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    action = _first_play(game)
    pipeline.submit_action(game_id=game.pk, user=users[0], key="mine", action=action)
    Seat.objects.filter(game=game, position=0).update(user=users[5])  # as a substitution does

    with pytest.raises(RuleError) as exc:
        pipeline.submit_action(game_id=game.pk, user=users[0], key="mine", action=action)

    assert exc.value.code == "not_seated"


def test_a_lost_key_race_with_another_users_key_is_refused(toy_engine: str, users: list) -> None:
    """The unique-key race path (the INSERT found the key taken) checks the user like the others."""
    game = GameFactory(engine=toy_engine, players=2, seated=users[:2])
    pipeline.submit_action(game_id=game.pk, user=users[0], key="raced", action=_first_play(game))
    window = _turn(game)
    real = pipeline.lock_game

    def blind(game_id: int, *, move_key: str | None = None, ahead: Any = None) -> Any:  # key not seen yet
        locked = real(game_id, move_key=move_key, ahead=ahead)
        locked.key_move_id = None
        return locked

    passing = {"type": "pass", "decision_id": window["decision_id"]}
    with mock.patch.object(pipeline, "lock_game", blind), pytest.raises(RuleError) as exc:
        pipeline.submit_action(game_id=game.pk, user=users[1], key="raced", action=passing)

    assert exc.value.code == "idempotency_key_reused"
    assert Move.objects.filter(game=game).count() == 1
