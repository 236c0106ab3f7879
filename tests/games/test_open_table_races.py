"""Open tables on PostgreSQL: strangers racing for the seats, and a creator taking the table off the
list while strangers sit down, serialised by the game row's lock (``apps.games.lobby``): nobody sits
twice, no seat is taken twice, and whoever is turned away gets a stable code."""

from __future__ import annotations

import pytest

from apps.games import lifecycle, lobby
from apps.games.models import Game
from baogame.rules.core import RuleError
from tests.conftest import requires_postgres
from tests.factories import UserFactory
from tests.support.race import race

pytestmark = [pytest.mark.django_db(transaction=True), requires_postgres]


def test_strangers_racing_for_an_open_tables_seats_fill_each_once() -> None:
    game = lifecycle.game_create(creator=UserFactory(), engine="baobei", players=3, open_table=True)
    strangers = [UserFactory() for _ in range(6)]

    results = race([lambda u=u: lobby.open_table_join(game_id=game.pk, user=u) for u in strangers])

    seated = [r for r in results if isinstance(r, Game)]
    refused = [r for r in results if isinstance(r, RuleError)]
    assert len(seated) == 2 and len(refused) == 4
    assert {r.code for r in refused} <= {"game_not_open", "no_open_seat"}
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.seats.filter(user__isnull=True).count() == 0


def test_closing_a_table_while_strangers_sit_leaves_each_seated_or_turned_away_with_a_code() -> None:
    creator = UserFactory()
    # six seats for the creator and four strangers: the table never fills, so the closing always applies
    game = lifecycle.game_create(creator=creator, engine="baobei", players=6, open_table=True)
    strangers = [UserFactory() for _ in range(4)]

    results = race(
        [lambda: lobby.open_table_close(game_id=game.pk, by=creator)]
        + [lambda u=u: lobby.open_table_join(game_id=game.pk, user=u) for u in strangers]
    )

    game.refresh_from_db()
    sat = [r for r in results[1:] if isinstance(r, Game)]
    turned_away = [r for r in results[1:] if isinstance(r, RuleError)]
    assert isinstance(results[0], Game) and not game.open_table
    assert game.seats.filter(user__in=strangers).count() == len(sat)
    assert {r.code for r in turned_away} <= {"not_an_open_table"}  # only those who came after the closing
    assert len(sat) + len(turned_away) == len(strangers)
