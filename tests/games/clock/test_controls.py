"""The pure time-control model: Fischer banks, weekends in the owner's zone, away spans, worst cases
(DESIGN.md, "Clocks, reaction windows, standing orders and sittings")."""

from __future__ import annotations

import importlib
import math
import random
from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

import pytest

from apps.games.clock.controls import (
    DAY,
    DEFAULT_CONTROL,
    HOUR,
    NAMED_CONTROLS,
    Control,
    ControlError,
    after_answer,
    bank_words,
    charged,
    control_from,
    runs_out_at,
    worst_case,
)

TOKYO = ZoneInfo("Asia/Tokyo")
NEW_YORK = ZoneInfo("America/New_York")
#: Friday 2026-12-04 12:00 UTC (21:00 Friday in Tokyo).
FRIDAY_NOON = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def test_the_default_control_is_daily_three_days_plus_one_a_day_up_to_five() -> None:
    daily = NAMED_CONTROLS[DEFAULT_CONTROL]
    assert DEFAULT_CONTROL == "daily"
    assert (daily.initial, daily.increment, daily.cap) == (3 * DAY, DAY, 5 * DAY)
    assert daily.per_move() == "+1 day per move, up to 5 days"


def test_a_named_control_can_have_weekends_off_and_a_custom_one_needs_its_values() -> None:
    assert control_from("weekly", weekends_off=True).weekends_off
    with pytest.raises(ControlError) as error:
        control_from("custom", {"initial": 3600})
    assert error.value.code == "invalid_control"
    custom = control_from("custom", {"initial": 7200, "increment": 600, "cap": 7200})
    assert custom.name == "custom" and custom.increment == timedelta(minutes=10)
    assert custom.reaction == timedelta(seconds=400)  # 1/18 of the initial bank


@pytest.mark.parametrize(
    "values",
    [
        {"initial": 3600, "increment": 60, "cap": 1800},  # cap below the initial bank
        {"initial": 0, "increment": 60, "cap": 3600},
        {"initial": 3600, "increment": 60, "cap": 3600, "reaction": 8 * 86400},
        {"initial": 3600, "increment": -1, "cap": 3600},
        {"initial": "soon", "increment": 60, "cap": 3600},
        {"initial": 3600, "increment": 60, "cap": 3600, "bonus": 5},
    ],
)
def test_a_bad_custom_control_is_refused_with_a_stable_code(values: dict) -> None:
    with pytest.raises(ControlError) as error:
        control_from("custom", values)
    assert error.value.code == "invalid_control"


def test_an_unknown_control_name_is_refused() -> None:
    with pytest.raises(ControlError):
        control_from("blitz")


def test_answering_adds_the_increment_but_never_past_the_cap() -> None:
    daily = NAMED_CONTROLS["daily"]
    assert after_answer(2 * DAY, daily) == 3 * DAY
    assert after_answer(4 * DAY + HOUR, daily) == 5 * DAY
    assert after_answer(timedelta(0), daily) == DAY
    assert after_answer(-HOUR, daily) == DAY


def test_without_weekends_off_the_whole_span_is_charged() -> None:
    assert charged(FRIDAY_NOON, FRIDAY_NOON + 3 * DAY, weekends_off=False, tz=UTC) == 3 * DAY
    assert charged(FRIDAY_NOON, FRIDAY_NOON - HOUR, weekends_off=False, tz=UTC) == timedelta(0)


def test_weekends_off_skips_saturday_and_sunday_in_the_owners_zone_not_in_utc() -> None:
    # Friday 12:00 UTC to Monday 12:00 UTC. In Tokyo (UTC+9) the weekend is Fri 15:00 to Sun 15:00
    # UTC, so 3 h on Friday and 21 h on Sunday/Monday count; in UTC only Friday's 12 h and Monday's 12 h.
    span = (FRIDAY_NOON, FRIDAY_NOON + 3 * DAY)
    assert charged(*span, weekends_off=True, tz=TOKYO) == 24 * HOUR
    assert charged(*span, weekends_off=True, tz=UTC) == 24 * HOUR
    # Friday 12:00 UTC to Saturday 12:00 UTC: Tokyo's weekend started at Friday 15:00 UTC.
    assert charged(FRIDAY_NOON, FRIDAY_NOON + DAY, weekends_off=True, tz=TOKYO) == 3 * HOUR
    assert charged(FRIDAY_NOON, FRIDAY_NOON + DAY, weekends_off=True, tz=UTC) == 12 * HOUR


def test_weekends_off_follows_daylight_saving_in_the_owners_zone() -> None:
    # US clocks go back on Sunday 2026-11-01: that weekend in New York is 49 hours long.
    friday = datetime(2026, 10, 30, 12, 0, tzinfo=UTC)
    assert charged(friday, friday + 7 * DAY, weekends_off=True, tz=NEW_YORK) == 7 * DAY - 49 * HOUR


def test_away_spans_stop_the_bank_and_overlaps_count_once() -> None:
    away = [(FRIDAY_NOON + HOUR, FRIDAY_NOON + 5 * HOUR), (FRIDAY_NOON + 3 * HOUR, FRIDAY_NOON + 6 * HOUR)]
    assert charged(FRIDAY_NOON, FRIDAY_NOON + 10 * HOUR, weekends_off=False, tz=UTC, away=away) == 5 * HOUR
    # An away span inside a weekend is not taken off twice.
    weekend_away = [(FRIDAY_NOON + DAY, FRIDAY_NOON + 2 * DAY)]
    assert (
        charged(FRIDAY_NOON, FRIDAY_NOON + 3 * DAY, weekends_off=True, tz=UTC, away=weekend_away) == 24 * HOUR
    )


@pytest.mark.parametrize("tz", [UTC, TOKYO, NEW_YORK])
@pytest.mark.parametrize("weekends_off", [False, True])
def test_runs_out_at_is_the_inverse_of_charged(tz: tzinfo, weekends_off: bool) -> None:
    rng = random.Random(7)
    for _ in range(60):
        start = FRIDAY_NOON + timedelta(minutes=rng.randrange(0, 20 * 24 * 60))
        bank = timedelta(minutes=rng.randrange(1, 12 * 24 * 60))
        away = [
            (start + timedelta(hours=rng.randrange(0, 200)), start + timedelta(hours=rng.randrange(200, 400)))
        ]
        deadline = runs_out_at(bank, start, weekends_off=weekends_off, tz=tz, away=away)
        assert charged(start, deadline, weekends_off=weekends_off, tz=tz, away=away) == bank
        # and it is the first such moment: a minute earlier the bank is not yet empty
        assert (
            charged(start, deadline - timedelta(minutes=1), weekends_off=weekends_off, tz=tz, away=away)
            < bank
        )


def test_a_bank_owed_on_friday_evening_with_weekends_off_runs_out_after_the_weekend() -> None:
    # 1 day owed from Friday 12:00 UTC in UTC: 12 h on Friday, then Monday 00:00 + 12 h.
    deadline = runs_out_at(DAY, FRIDAY_NOON, weekends_off=True, tz=UTC)
    assert deadline == datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def test_the_worst_case_is_the_initial_bank_plus_an_increment_per_later_decision_for_every_seat() -> None:
    daily = NAMED_CONTROLS["daily"]
    assert worst_case(daily, decisions_per_seat=1, seats=5) == 15 * DAY
    assert worst_case(daily, decisions_per_seat=30, seats=5) == 5 * (3 + 29) * DAY
    assert worst_case(daily, decisions_per_seat=0, seats=5) == timedelta(0)
    off = control_from("daily", weekends_off=True)
    assert worst_case(off, decisions_per_seat=1, seats=5) == 21 * DAY  # 15 bank days, 3 weekends


def test_the_worst_case_bounds_a_simulated_game_that_always_answers_at_the_last_moment() -> None:
    control = NAMED_CONTROLS["relaxed"]
    bank, used = control.initial, timedelta(0)
    for _ in range(10):
        used += bank  # answers as the bank runs out
        bank = after_answer(timedelta(0), control)
    assert used * 4 == worst_case(control, decisions_per_seat=10, seats=4)


def _timeout_share(control: Control, decisions: int, seed: int) -> float:
    """The model of the issue: log-normal delays, median 2 h, p90 12 h; one seat's bank."""
    rng = random.Random(seed)
    sigma = math.log(12 / 2) / 1.2815515655446004
    bank, timeouts = control.initial, 0
    for _ in range(decisions):
        delay = timedelta(hours=2 * math.exp(sigma * rng.gauss(0, 1)))
        if delay >= bank:
            timeouts += 1
            bank = after_answer(timedelta(0), control)
        else:
            bank = after_answer(bank - delay, control)
    return timeouts / decisions


@pytest.mark.parametrize("name", ["daily", "relaxed", "weekly"])
def test_correspondence_controls_let_at_most_a_tenth_of_decisions_time_out_under_the_model(name: str) -> None:
    assert _timeout_share(NAMED_CONTROLS[name], decisions=5000, seed=32) <= 0.10


def test_the_live_control_is_for_a_table_that_is_present_not_for_the_model() -> None:
    assert _timeout_share(NAMED_CONTROLS["live"], decisions=2000, seed=32) > 0.5


def test_a_bank_reads_short() -> None:
    assert bank_words(2 * DAY + 4 * HOUR + timedelta(minutes=5)) == "2 d 4 h"
    assert bank_words(5 * HOUR + timedelta(minutes=30)) == "5 h 30 min"
    assert bank_words(timedelta(seconds=40)) == "40 s"
    assert bank_words(-HOUR) == "0 s"


def test_old_timing_presets_map_to_the_nearest_named_control() -> None:
    migration = importlib.import_module("apps.games.migrations.0012_time_banks")

    for name in ("live", "daily", "weekly"):
        assert migration.nearest(name, {}) == name
    assert migration.nearest("custom", {"turn": 600}) == "live"
    assert migration.nearest("custom", {"turn": 30 * 3600}) == "daily"
    assert migration.nearest("custom", {"turn": 5 * 86400}) == "weekly"
    for name, values in migration.NAMED.items():  # the migration's copy is today's named controls
        assert NAMED_CONTROLS[name].values() == values
