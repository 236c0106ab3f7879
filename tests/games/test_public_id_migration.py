"""Migration 0007: every existing game gets its own public id; open games keep their invitation links."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0006_seat_bot_hold_and_bot_test_games")]
AFTER = [("games", "0007_game_public_id_visibility_invitations")]


@pytest.mark.django_db(transaction=True)
def test_existing_games_get_distinct_public_ids_and_open_games_keep_their_links() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Game = old.get_model("games", "Game")
    open_game = Game.objects.create(engine="baobei", players=2, status="open", invite_token="old-link")
    started = Game.objects.create(engine="baobei", players=2, status="active", invite_token="spent-link")

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    games = new.get_model("games", "Game").objects.in_bulk([open_game.pk, started.pk])
    invitations = new.get_model("games", "Invitation").objects.all()

    assert games[open_game.pk].public_id and games[started.pk].public_id
    assert games[open_game.pk].public_id != games[started.pk].public_id
    assert [(i.game_id, i.token, i.single_use) for i in invitations] == [(open_game.pk, "old-link", False)]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
