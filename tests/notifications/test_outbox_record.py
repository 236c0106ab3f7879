"""A move's outbox row is written by one statement compiled once (``GAMES_HAND_SQL``),
the same row the ORM's ``bulk_create(ignore_conflicts=True)`` writes; a row already there is kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from apps.games import pipeline
from apps.notifications import outbox
from apps.notifications.models import MoveMailOutbox
from baogame.rules.registry import get_engine
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

OPENED = [[1, "turn", "v3-0-turn"]]


def _row(game_id: int) -> dict[str, Any]:
    return MoveMailOutbox.objects.filter(game_id=game_id, version=3).values(
        "kind", "version", "move_id", "opened", "created_at", "queued_at"
    )[0]


@pytest.mark.parametrize("hand", [True, False], ids=["hand", "orm"])
def test_record_writes_the_moves_outbox_row_and_queues_its_task_on_commit(
    hand, settings, django_capture_on_commit_callbacks
) -> None:
    settings.GAMES_HAND_SQL = hand
    game = GameFactory()

    with django_capture_on_commit_callbacks() as callbacks:
        outbox.record(game_id=game.pk, version=3, move_id=None, opened=OPENED)

    row = _row(game.pk)
    assert (row["kind"], row["version"], row["move_id"], row["opened"]) == ("move", 3, None, OPENED)
    assert row["created_at"] is not None and row["queued_at"] is not None
    assert len(callbacks) == 1


@pytest.mark.parametrize("hand", [True, False], ids=["hand", "orm"])
def test_a_second_record_of_the_same_version_keeps_the_first_row_and_breaks_nothing(hand, settings) -> None:
    settings.GAMES_HAND_SQL = hand
    game = GameFactory()

    with transaction.atomic():
        outbox.record(game_id=game.pk, version=3, move_id=None, opened=OPENED)
        outbox.record(game_id=game.pk, version=3, move_id=None, opened=[[0, "turn", "other"]])
        assert MoveMailOutbox.objects.filter(game=game, version=3).count() == 1  # the transaction works

    assert _row(game.pk)["opened"] == OPENED


def test_the_hand_path_writes_the_row_in_one_statement(settings) -> None:
    settings.GAMES_HAND_SQL = True
    game = GameFactory()

    with CaptureQueriesContext(connection) as captured:
        outbox.record(game_id=game.pk, version=3, move_id=7, opened=OPENED)

    statements = [q["sql"] for q in captured.captured_queries]
    # SQLite spells "skip a row already there" in the verb, PostgreSQL in an ON CONFLICT clause.
    verb = "INSERT OR IGNORE INTO" if connection.vendor == "sqlite" else "INSERT INTO"
    assert len(statements) == 1 and statements[0].startswith(f'{verb} "notifications_movemailoutbox"')
    assert _row(game.pk)["move_id"] == 7


def test_a_row_written_in_a_move_that_rolls_back_is_gone(settings) -> None:
    settings.GAMES_HAND_SQL = True
    game = GameFactory()

    with pytest.raises(RuntimeError), transaction.atomic():
        outbox.record(game_id=game.pk, version=3, move_id=None, opened=OPENED)
        raise RuntimeError("the move failed")

    assert not MoveMailOutbox.objects.filter(game=game, version=3).exists()


@pytest.mark.parametrize("hand", [True, False], ids=["hand", "orm"])
def test_a_moves_row_names_the_move_written_with_it(
    hand: bool, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """On the hand path the row's INSERT runs in the move's own batch, before the move's id is known to
    Python: it finds the move by the game and the move's number."""
    settings.GAMES_HAND_SQL = hand
    game = GameFactory(players=2)
    engine = get_engine(game.engine)
    move_ids = {}
    while len(move_ids) < 30 and MoveMailOutbox.objects.filter(game=game, version__gt=0).count() < 3:
        game.refresh_from_db()
        seat = engine.pending(game.state)[0]["seats"][0]
        action = engine.legal_actions(game.state, seat)[0]
        with django_capture_on_commit_callbacks():  # the drain does not run: the rows stay
            user = game.seats.get(position=seat).user
            result = pipeline.submit_action(game_id=game.pk, user=user, action=action)
        assert result.move is not None
        move_ids[result.move.seq] = result.move.pk

    rows = MoveMailOutbox.objects.filter(game=game, kind="move", version__gt=0)
    assert rows.count() == 3
    assert {row.version: row.move_id for row in rows} == {row.version: move_ids[row.version] for row in rows}
