"""The end of a game is counted in its league's standings; a game outside any league costs one SELECT."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games.models import Game
from apps.leagues.signals import record_result
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("hand", [True, False], ids=["hand", "orm"])
def test_the_end_of_a_game_outside_any_league_costs_one_select(
    hand: bool, settings: Any, django_assert_num_queries: Any
) -> None:
    settings.GAMES_HAND_SQL = hand
    game = GameFactory()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result={"totals": [0, 0]})

    with django_assert_num_queries(1):
        record_result(sender=Game, game_id=game.pk)
