"""Cancelling a waiting game on PostgreSQL while players take its last seats: the game row's lock
(``store.lock_game``) puts the cancelling before or after each seat taken, so the game either started
and the cancelling is refused (``game_not_open``), or it was cancelled with exactly the seats taken
before it, and whoever came after is told it was cancelled (``game_cancelled``)."""

from __future__ import annotations

import pytest

from apps.games import lifecycle, lobby
from apps.games.models import Decision, Game, Move, SeatTenure
from baogame.rules.core import RuleError
from tests.conftest import requires_postgres
from tests.factories import UserFactory
from tests.support.race import race

pytestmark = [pytest.mark.django_db(transaction=True), requires_postgres]


@pytest.mark.parametrize("attempt", range(4))
def test_a_cancelling_and_the_last_joins_at_once_end_in_one_consistent_order(attempt: int) -> None:
    creator = UserFactory()
    game = lifecycle.game_create(creator=creator, engine="baobei", players=3, open_table=True)
    strangers = [UserFactory(), UserFactory()]

    results = race(
        [lambda: lobby.game_cancel(game_id=game.pk, by=creator)]
        + [lambda u=u: lobby.open_table_join(game_id=game.pk, user=u) for u in strangers]
    )

    game.refresh_from_db()
    cancelling, joins = results[0], results[1:]
    sat = [u for u, r in zip(strangers, joins, strict=True) if isinstance(r, Game)]
    turned_away = [r for r in joins if not isinstance(r, Game)]
    assert all(isinstance(r, RuleError) for r in turned_away), turned_away
    assert set(game.seats.filter(user__in=strangers).values_list("user_id", flat=True)) == {u.pk for u in sat}
    if isinstance(cancelling, Game):  # cancelled before the table filled: nothing was dealt
        assert game.cancelled and game.state is None and len(sat) < len(strangers)
        assert {r.code for r in turned_away} == {"game_cancelled"}
        assert not Move.objects.filter(game=game).exists() and not Decision.objects.filter(game=game).exists()
        assert not SeatTenure.objects.filter(game=game).exists()
    else:  # both seats were taken first: the game started, and it goes on
        assert isinstance(cancelling, RuleError) and cancelling.code == "game_not_open"
        assert game.status == Game.Status.ACTIVE and len(sat) == len(strangers)
