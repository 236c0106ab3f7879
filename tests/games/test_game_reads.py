"""The reads a game's creation, join and first read make (``selectors``, ``invitations``, ``estimates``,
``reliability``) give exactly what the ORM's querysets give, with ``GAMES_HAND_SQL`` on (SQL built
once) and off (the plain ORM), on SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from apps.games import estimates, invitations, reliability, selectors
from apps.games.models import Decision, Game, Invitation, SeatTenure
from tests.factories import GameFactory
from tests.support.both_paths import both_paths, model_values  # noqa: F401 - both_paths: every test twice

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(toy_engine: str, users: list[Any]) -> Game:
    """A started 3-seat toy game: two players and a bot."""
    return GameFactory(engine=toy_engine, players=3, bots=1, seated=users[:2])


def _decision(game: Game, seat: int, decision_id: str, deadline: Any) -> Decision:
    return Decision.objects.create(
        game=game, seat=seat, decision_id=decision_id, kind="window", timing="reaction",
        opened_at=timezone.now(), deadline=deadline, remaining=timedelta(hours=3),
    )  # fmt: skip


def test_open_decisions_equal_the_orms_rows_soonest_deadline_first(game: Game) -> None:
    Decision.objects.filter(game=game).delete()
    soon = timezone.now() + timedelta(hours=1)
    for seat, deadline in ((2, soon + timedelta(hours=1)), (1, soon), (0, soon)):
        _decision(game, seat, f"d{seat}", deadline)

    loaded = selectors.open_decisions(game=game)

    expected = Decision.objects.filter(game=game).order_by("deadline", "seat")
    assert [model_values(d) for d in loaded] == [model_values(d) for d in expected]
    assert [d.seat for d in loaded] == [0, 1, 2]


def test_a_seat_waits_only_while_one_of_the_open_decisions_is_its_own(game: Game) -> None:
    Decision.objects.filter(game=game).delete()
    _decision(game, 1, "w", None)

    assert [selectors.seat_waits(game=game, seat=s) for s in (0, 1, 2, None)] == [False, True, False, False]


def test_seats_attached_to_a_read_game_equal_the_stored_seats_and_answer_without_a_query(
    game: Game, django_assert_num_queries: Any
) -> None:
    loaded = selectors.game_read(game.pk)
    assert loaded is not None

    with django_assert_num_queries(0):
        seats = list(loaded.seats.all())
        names = [s.user.profile.pk for s in seats if s.user is not None]

    assert [model_values(s) for s in seats] == [model_values(s) for s in game.seats.order_by("position")]
    assert len(names) == 2


def test_an_invitation_is_found_by_its_token_when_it_is_accepted(toy_engine: str, users: list[Any]) -> None:
    game = GameFactory(engine=toy_engine, players=3, seated=users[:1])
    token = Invitation.objects.get(game=game).token

    joined = invitations.invitation_accept(token=token, user=users[1])

    assert joined.pk == game.pk
    assert game.seats.get(position=1).user_id == users[1].pk


def test_an_unknown_invitation_token_is_refused(users: list[Any]) -> None:
    with pytest.raises(Exception, match="not valid"):
        invitations.invitation_accept(token="nope", user=users[1])


def test_a_started_game_opens_a_tenure_for_each_player_once(game: Game, users: list[Any]) -> None:
    SeatTenure.objects.filter(game=game).delete()

    with transaction.atomic():
        reliability.game_started(game_id=game.pk)
        reliability.game_started(game_id=game.pk)

    opened = SeatTenure.objects.filter(game=game, ended_at=None).order_by("position")
    assert [(t.position, t.user_id) for t in opened] == [(0, users[0].pk), (1, users[1].pk)]


def test_the_site_record_reads_the_same_games_on_either_path() -> None:
    end = timezone.now()
    Game.objects.bulk_create(
        Game(
            engine="baohuang", players=5, length="short", control="daily", status=Game.Status.FINISHED,
            started_at=end - timedelta(hours=i, days=days), finished_at=end - timedelta(hours=i),
        )
        for i, days in enumerate((1, 2.5, 4))
    )  # fmt: skip
    Game.objects.create(
        engine="baohuang", players=5, length="short", control="daily", status=Game.Status.FINISHED,
        started_at=end - timedelta(days=9), finished_at=end, bot_test=True,
    )  # fmt: skip

    assert estimates.site_days("baohuang", 5, "short", "daily") == [1.0, 2.5, 4.0]
