"""``sql.new``: a model's new instance as ``Model(**values)`` makes it, without ``__init__``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from apps.games import sql
from apps.games.models import Decision, Move
from apps.notifications.models import MoveMailOutbox
from tests.support.both_paths import model_values

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("model", "values"),
    [
        (
            Move,
            {"game_id": 3, "seq": 4, "public_seq": 4, "seat": 1, "user_id": 9, "action": {"type": "pass"}},
        ),
        (Move, {"game_id": 3, "seq": 5, "public_seq": 4, "hidden": True, "seat": 0, "by_timeout": True}),
        (Decision, {"game_id": 3, "seat": 2, "decision_id": "d7", "kind": "turn", "opened_at": NOW}),
        (MoveMailOutbox, {"game_id": 3, "channel": "webhook", "version": 8, "opened": [], "queued_at": NOW}),
    ],
)
def test_a_new_instance_has_the_fields_and_state_init_gives_it(model: Any, values: dict[str, Any]) -> None:
    made, expected = sql.new(model, **values), model(**values)

    assert model_values(made) == model_values(expected)
    assert (made._state.adding, made._state.db) == (True, None)
    assert made.pk is None


def test_a_default_made_anew_is_not_shared() -> None:
    first = sql.new(Move, game_id=1, seq=1, public_seq=1, seat=0)
    second = sql.new(Move, game_id=1, seq=2, public_seq=2, seat=0)

    assert first.events == [] and first.events is not second.events


def test_an_unknown_field_is_refused_as_init_refuses_it() -> None:
    with pytest.raises(TypeError, match="nonsense"):
        sql.new(Move, game_id=1, nonsense=2)
