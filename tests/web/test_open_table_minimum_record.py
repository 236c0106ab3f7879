"""An open table's minimum record (``Game.min_reliability``, ``apps.games.lobby``): its creator asks that
who takes a seat answered at least a share of their decisions on time over the last 12 months, as a
league may (``apps.games.reliability``), over at least ``TABLE_MIN_DECISIONS`` decisions: unlike a
league's, a table's minimum is not met by an empty record, so a brand-new account may not sit."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from apps.games import lifecycle, lobby, reliability
from apps.games.errors import ServiceError
from apps.games.models import Game, SeatTenure
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _record(user: Any, *, answered: int, timeouts: int = 0) -> None:
    """A finished game's tenure: ``answered`` decisions answered, ``timeouts`` left to the deadline."""
    game = Game.objects.create(engine="toy", players=2, status=Game.Status.FINISHED)
    now = timezone.now()
    SeatTenure.objects.create(
        game=game, position=0, user=user, started_at=now, ended_at=now, answered=answered, timeouts=timeouts
    )


def _table(minimum: int) -> Game:
    return lifecycle.game_create(
        creator=UserFactory(), engine="baobei", players=3, open_table=True, min_reliability=minimum
    )


def test_a_player_below_the_tables_minimum_is_refused_a_seat() -> None:
    game = _table(80)
    shaky = UserFactory()
    _record(shaky, answered=30, timeouts=20)  # 60% on time

    with pytest.raises(ServiceError) as refused:
        lobby.open_table_join(game_id=game.pk, user=shaky)

    assert (refused.value.code, refused.value.status) == ("reliability_too_low", 403)
    assert "60%" in refused.value.message
    assert not game.seats.filter(user=shaky).exists()


def test_players_at_the_minimum_take_seats() -> None:
    game = _table(80)
    steady, sure = UserFactory(), UserFactory()
    _record(steady, answered=16, timeouts=4)  # 80% on time, over 20 decisions: just enough
    _record(sure, answered=reliability.TABLE_MIN_DECISIONS)

    lobby.open_table_join(game_id=game.pk, user=steady)
    lobby.open_table_join(game_id=game.pk, user=sure)
    game.refresh_from_db()

    assert {s.user_id for s in game.seats.all()} >= {steady.pk, sure.pk}
    assert game.status == Game.Status.ACTIVE


def test_a_new_account_with_no_record_is_refused_and_told_why() -> None:
    game = _table(80)
    newcomer = UserFactory()

    with pytest.raises(ServiceError) as refused:
        lobby.open_table_join(game_id=game.pk, user=newcomer)

    assert (refused.value.code, refused.value.status) == ("reliability_too_low", 403)
    assert f"at least {reliability.TABLE_MIN_DECISIONS} decisions" in refused.value.message
    assert "yours has 0 so far" in refused.value.message and "new account" in refused.value.message
    assert not game.seats.filter(user=newcomer).exists()


def test_a_perfect_but_short_record_is_refused() -> None:
    """Five decisions, all on time: 100%, but too few to tell."""
    game = _table(80)
    quick = UserFactory()
    _record(quick, answered=5)

    with pytest.raises(ServiceError) as refused:
        lobby.open_table_join(game_id=game.pk, user=quick)

    assert refused.value.code == "reliability_too_low" and "yours has 5 so far" in refused.value.message


def test_a_table_without_a_minimum_seats_a_new_account() -> None:
    game = _table(0)
    newcomer = UserFactory()

    lobby.open_table_join(game_id=game.pk, user=newcomer)

    assert game.seats.filter(user=newcomer).exists()


def test_the_pages_tell_a_new_account_its_record_is_too_short(client_for: Any) -> None:
    game = _table(70)
    newcomer = UserFactory()

    watch = client_for(newcomer).get("/games/").content.decode().split('id="open-tables"')[1]
    page = client_for(newcomer).get(game.get_absolute_url()).content.decode()

    floor = reliability.TABLE_MIN_DECISIONS
    assert f"this table asks for a record of at least {floor} decisions, and yours is shorter" in watch
    assert f"at least {floor} decisions over the last 12 months, and yours has fewer" in page
    assert "a new account cannot sit here yet" in page
    for text in (watch, page):
        assert f'action="/games/{game.public_id}/take-seat/"' not in text


def test_the_invitation_link_is_not_held_to_the_minimum() -> None:
    """The creator chose whom they invite: the minimum is for strangers from the open tables."""
    game = _table(80)
    shaky = UserFactory()
    _record(shaky, answered=10, timeouts=40)

    lifecycle.game_join(game_id=game.pk, user=shaky)

    assert game.seats.filter(user=shaky).exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"open_table": False, "min_reliability": 50}, "for an open table"),
        ({"open_table": True, "min_reliability": 101}, "0-100"),
    ],
)
def test_a_minimum_record_is_a_percentage_for_open_tables_only(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ServiceError) as refused:
        lifecycle.game_create(creator=UserFactory(), engine="baobei", players=3, **kwargs)

    assert refused.value.code == "invalid_options" and message in refused.value.message


def test_the_form_sets_the_minimum_and_the_watch_page_says_it_and_whom_it_keeps_out(client_for: Any) -> None:
    creator, shaky, steady = UserFactory(), UserFactory(), UserFactory()
    _record(shaky, answered=10, timeouts=10)
    _record(steady, answered=20)
    form = {"engine": "baobei", "players": 3, "opponents": "people", "control": "daily"}

    made = client_for(creator).post("/games/new/", form | {"open_table": "on", "min_reliability": "90"})
    game = Game.objects.get(created_by=creator)
    seen_by_shaky = client_for(shaky).get("/games/").content.decode().split('id="open-tables"')[1]
    seen_by_steady = client_for(steady).get("/games/").content.decode().split('id="open-tables"')[1]
    page_for_shaky = client_for(shaky).get(game.get_absolute_url()).content.decode()

    assert made.status_code == 302 and game.min_reliability == 90
    assert "players with 90% on time or more" in seen_by_steady
    assert f'action="/games/{game.public_id}/take-seat/"' in seen_by_steady
    assert f'action="/games/{game.public_id}/take-seat/"' not in seen_by_shaky
    assert "below what this table asks" in seen_by_shaky
    assert "at least 20 decisions over the last 12 months, 90% of them answered on time" in page_for_shaky
    assert f'action="/games/{game.public_id}/take-seat/"' not in page_for_shaky


def test_the_form_refuses_a_minimum_record_without_an_open_table(client_for: Any) -> None:
    creator = UserFactory()
    form = {"engine": "baobei", "players": 3, "opponents": "people", "control": "daily"}

    answer = client_for(creator).post("/games/new/", form | {"min_reliability": "90"})

    assert answer.status_code == 200 and "A minimum record is for an open table" in answer.content.decode()
    assert not Game.objects.filter(created_by=creator).exists()


def test_a_refused_seat_on_the_page_says_why(client_for: Any) -> None:
    game = _table(75)
    shaky = UserFactory()
    _record(shaky, answered=10, timeouts=30)

    answer = client_for(shaky).post(f"/games/{game.public_id}/take-seat/", follow=True)

    assert "reliability_too_low" in answer.content.decode()
    assert not game.seats.filter(user=shaky).exists()
