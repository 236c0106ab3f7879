"""Seats' time banks in the database (DESIGN.md, "Clocks, reaction windows, standing orders and
sittings"): a bank runs only while its seat owes a decision, an answer adds the increment up to the
cap, weekends off follow the player's own time zone, vacation stops the bank, and a simultaneous
decision tells nobody who has answered (BB-30.6)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone

from apps.accounts.models import Profile
from apps.games import clock, pipeline
from apps.games.clock import controls
from apps.games.models import Decision, Game, Seat
from tests.deadlines.helpers import a_game, pending, toy_play

pytestmark = pytest.mark.django_db

HOUR = 3600
BANK = {"initial": HOUR, "increment": 600, "cap": 90 * 60, "reaction": 120}


def _seat(game: Game, position: int) -> Seat:
    return Seat.objects.get(game=game, position=position)


def _spend(game: Game, seat: int, minutes: int) -> None:
    """As if ``minutes`` of the seat's running bank had passed: its deadline comes nearer."""
    by = timedelta(minutes=minutes)
    row = Decision.objects.get(game=game, seat=seat)
    Decision.objects.filter(pk=row.pk).update(deadline=row.deadline - by)
    s = _seat(game, seat)
    Seat.objects.filter(pk=s.pk).update(bank_runs_out_at=s.bank_runs_out_at - by)


def test_a_decision_runs_on_its_owners_bank_and_the_other_seats_bank_does_not_run(
    toy_engine: str, users: list
) -> None:
    before = timezone.now()
    game = a_game(toy_engine, users, control="custom", control_custom=BANK)

    row = Decision.objects.get(game=game)
    owner, other = _seat(game, 0), _seat(game, 1)
    assert row.seat == 0 and before + timedelta(hours=1) <= row.deadline <= timezone.now() + timedelta(
        hours=1
    )
    assert owner.bank_runs_out_at == row.deadline and owner.bank_since is not None
    assert other.bank_runs_out_at is None and other.bank_since is None and other.bank_seconds is None


def test_answering_debits_the_time_used_and_adds_the_increment(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, control="custom", control_custom=BANK)
    _spend(game, 0, 20)

    toy_play(game, users[0])  # opens a plucking window for seat 1: a fixed reaction time, no bank

    owner, other = _seat(game, 0), _seat(game, 1)
    assert 50 * 60 - 5 <= owner.bank_seconds <= 50 * 60  # 60 - 20 + 10 minutes
    assert owner.bank_runs_out_at is None and owner.bank_since is None
    window = Decision.objects.get(game=game, seat=1)
    assert window.timing == "reaction" and other.bank_runs_out_at is None
    assert window.deadline - window.opened_at == timedelta(seconds=120)


def test_the_bank_never_grows_past_the_cap(toy_engine: str, users: list) -> None:
    bank = {"initial": HOUR, "increment": HOUR, "cap": 90 * 60}
    game = a_game(toy_engine, users, control="custom", control_custom=bank)

    toy_play(game, users[0])

    assert _seat(game, 0).bank_seconds == 90 * 60


def test_an_empty_bank_times_out_through_the_timeout_path_and_leaves_only_the_increment(
    toy_engine: str, users: list
) -> None:
    game = a_game(toy_engine, users, control="custom", control_custom=BANK)
    _spend(game, 0, 61)

    assert clock.settle_game(game.pk) == 1

    owner = _seat(game, 0)
    assert owner.consecutive_timeouts == 1 and owner.bank_seconds == 600


FRIDAY_EVENING = datetime(2026, 12, 4, 18, 0, tzinfo=UTC)  # 03:00 on Saturday in Tokyo: its weekend has begun


def test_weekends_off_stop_the_bank_on_the_owners_own_weekend_in_a_non_utc_zone(users: list) -> None:
    Profile.objects.update_or_create(user=users[0], defaults={"time_zone": "Asia/Tokyo"})
    Profile.objects.update_or_create(user=users[1], defaults={"time_zone": "UTC"})
    day = {"initial": 24 * HOUR, "increment": 24 * HOUR, "cap": 24 * HOUR}
    with mock.patch("django.utils.timezone.now", return_value=FRIDAY_EVENING):
        game = a_game("baobei", users, control="custom", control_custom=day, weekends_off=True)

    rows = {r.seat: r for r in Decision.objects.filter(game=game)}  # the setup peek: both owe
    # Tokyo: the bank waits for Monday 00:00 JST (Sunday 15:00 UTC), then a day.
    assert rows[0].deadline == datetime(2026, 12, 7, 15, 0, tzinfo=UTC)
    # UTC: 6 hours on Friday, the other 18 on Monday.
    assert rows[1].deadline == datetime(2026, 12, 7, 18, 0, tzinfo=UTC)
    assert rows[0].deadline == controls.runs_out_at(
        timedelta(days=1), FRIDAY_EVENING, weekends_off=True, tz=ZoneInfo("Asia/Tokyo")
    )


def test_vacation_stops_the_bank_and_gives_it_back_on_return(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, control="custom", control_custom=BANK)
    Profile.objects.get_or_create(user=users[0])

    clock.vacation_start(user=users[0])
    stopped, seat = Decision.objects.get(game=game), _seat(game, 0)
    later = timezone.now() + timedelta(hours=5)
    with mock.patch("django.utils.timezone.now", return_value=later):
        clock.vacation_end(user=users[0])

    row, seat_after = Decision.objects.get(game=game), _seat(game, 0)
    assert stopped.deadline is None and seat.bank_runs_out_at is None
    assert timedelta(minutes=59) < stopped.remaining <= timedelta(hours=1)
    assert row.deadline == later + stopped.remaining  # five hours away cost the bank nothing
    assert seat_after.bank_runs_out_at == row.deadline


def _clock_read(game: Game, user: Any) -> dict[str, Any]:
    client = Client()
    client.force_login(user)
    return client.get(f"/api/v1/games/{game.pk}/").json()["clock"]


def test_an_answer_to_the_setup_peek_changes_no_bank_that_others_see_bb_30_6(users: list) -> None:
    game = a_game("baobei", users, players=3, control="daily")
    spectator = users[5]
    before = {u.pk: _clock_read(game, u) for u in (users[0], users[2], spectator)}
    d = pending(game)[0]

    pipeline.submit_action(
        game_id=game.pk,
        user=users[1],
        action={"type": "choose_peek", "decision_id": d["decision_id"], "slots": [0, 1]},
    )

    after = {u.pk: _clock_read(game, u) for u in (users[0], users[2], spectator)}
    assert after == before
    assert all(s["running"] for s in after[spectator.pk]["seats"])
    own = next(s for s in _clock_read(game, users[1])["seats"] if s["seat"] == 1)
    assert own["running"] is False and 4 * 24 * HOUR - 5 <= own["bank_seconds"] <= 4 * 24 * HOUR  # 3 d + 1 d


def test_the_api_states_the_control_and_each_seats_bank(toy_engine: str, users: list) -> None:
    game = a_game(toy_engine, users, control="custom", control_custom=BANK)

    read = _clock_read(game, users[1])

    assert read["control"] | {"summary": ""} == {
        "name": "custom", "initial": HOUR, "increment": 600, "cap": 5400, "reaction": 120,
        "weekends_off": False, "summary": "",
    }  # fmt: skip
    owner = read["seats"][0]
    assert owner["running"] and owner["bank_seconds"] == HOUR and owner["runs_out_at"] is not None
    assert read["seats"][1] == {"seat": 1, "bank_seconds": HOUR, "running": False, "runs_out_at": None}


def _decisions_read(game: Game, user: Any) -> list[dict[str, Any]]:
    client = Client()
    client.force_login(user)
    return client.get(f"/api/v1/games/{game.pk}/").json()["decisions"]


def test_a_setup_peek_on_unequal_banks_shows_the_same_deadline_after_an_owners_answer_bb_30_6(
    users: list,
) -> None:
    """Later rounds open the setup peek on banks that differ: when the owner whose bank runs out last
    answers, what the others read of the decision's deadline does not move."""
    game = a_game("baobei", users, players=3, control="daily")
    now = timezone.now()
    for seat, days in ((0, 1), (1, 3), (2, 2)):
        at = now + timedelta(days=days)
        Decision.objects.filter(game=game, seat=seat).update(deadline=at)
        Seat.objects.filter(game=game, position=seat).update(bank_runs_out_at=at)
    before = {u.pk: _decisions_read(game, u) for u in (users[0], users[2], users[5])}
    d = pending(game)[0]

    pipeline.submit_action(
        game_id=game.pk,
        user=users[1],
        action={"type": "choose_peek", "decision_id": d["decision_id"], "slots": [0, 1]},
    )

    after = {u.pk: _decisions_read(game, u) for u in (users[0], users[2], users[5])}
    assert after == before
    assert _decisions_read(game, users[5])[0]["deadline"].startswith(str((now + timedelta(days=3)).date()))
