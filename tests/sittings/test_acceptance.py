"""The pure rules of sittings: when a time is agreed, and when a weekly series meets (local wall time)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from apps.sittings import acceptance
from apps.sittings.acceptance import Outcome, Recurrence

BERLIN = ZoneInfo("Europe/Berlin")


def test_a_time_is_agreed_when_every_human_seat_says_yes() -> None:
    assert acceptance.outcome(human_seats={0, 1, 3}, answers={0: True, 1: True, 3: True}) is Outcome.ACCEPTED


def test_one_no_declines_a_time_even_before_the_others_answer() -> None:
    assert acceptance.outcome(human_seats={0, 1, 3}, answers={0: True, 1: False}) is Outcome.DECLINED


def test_a_time_stays_open_while_a_human_seat_has_not_answered() -> None:
    assert acceptance.outcome(human_seats={0, 1, 3}, answers={0: True, 1: True}) is Outcome.OPEN


def test_answers_of_seats_no_longer_held_by_people_do_not_count() -> None:
    """A seat handed to a bot since it answered: its no no longer blocks the table."""
    assert acceptance.outcome(human_seats={0, 1}, answers={0: True, 1: True, 2: False}) is Outcome.ACCEPTED


def test_a_table_without_people_agrees_to_nothing() -> None:
    assert acceptance.outcome(human_seats=set(), answers={}) is Outcome.OPEN


def test_a_weekly_series_stays_at_local_wall_time_across_the_spring_change_in_berlin() -> None:
    """Tuesdays and Fridays 20:00 Berlin time, across the last Sunday of March 2026 (29 March):
    19:00 UTC before the change, 18:00 UTC after, 20:00 on the wall clock every time."""
    series = Recurrence(
        weekdays=(1, 4), at=time(20, 0), weeks=2, first_day=date(2026, 3, 23), time_zone="Europe/Berlin"
    )

    starts = acceptance.series_starts(series)

    assert starts == [
        datetime(2026, 3, 24, 19, 0, tzinfo=UTC),
        datetime(2026, 3, 27, 19, 0, tzinfo=UTC),
        datetime(2026, 3, 31, 18, 0, tzinfo=UTC),
        datetime(2026, 4, 3, 18, 0, tzinfo=UTC),
    ]
    assert {s.astimezone(BERLIN).time() for s in starts} == {time(20, 0)}


def test_a_weekly_series_stays_at_local_wall_time_across_the_autumn_change_in_berlin() -> None:
    series = Recurrence(
        weekdays=(5,), at=time(20, 0), weeks=2, first_day=date(2026, 10, 19), time_zone="Europe/Berlin"
    )

    starts = acceptance.series_starts(series)

    assert [s - starts[0] for s in starts] == [timedelta(0), timedelta(days=7, hours=1)]
    assert {s.astimezone(BERLIN).time() for s in starts} == {time(20, 0)}


def test_a_wall_time_skipped_by_the_spring_change_moves_on_by_the_gap() -> None:
    """02:30 does not exist in Berlin on 29 March 2026: the sitting starts at 03:30 local."""
    start = acceptance.local_to_utc(date(2026, 3, 29), time(2, 30), BERLIN)

    assert start.astimezone(BERLIN).time() == time(3, 30)


def test_an_ambiguous_wall_time_is_the_first_of_the_two() -> None:
    start = acceptance.local_to_utc(date(2026, 10, 25), time(2, 30), BERLIN)

    assert start == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)


def test_a_recurrence_round_trips_through_json() -> None:
    series = Recurrence(
        weekdays=(0, 3), at=time(19, 30), weeks=6, first_day=date(2026, 1, 5), time_zone="America/New_York"
    )

    assert Recurrence.from_json(series.to_json()) == series


@pytest.mark.parametrize(
    ("weekdays", "weeks", "zone"),
    [((), 2, "UTC"), ((7,), 2, "UTC"), ((1,), 0, "UTC"), ((1,), 99, "UTC"), ((1,), 2, "Mars/Olympus")],
)
def test_an_impossible_series_is_refused(weekdays: tuple[int, ...], weeks: int, zone: str) -> None:
    series = Recurrence(
        weekdays=weekdays, at=time(20), weeks=weeks, first_day=date(2026, 1, 5), time_zone=zone
    )

    with pytest.raises((ValueError, KeyError)):
        acceptance.check_recurrence(series)


def test_spans_that_only_touch_do_not_overlap() -> None:
    start = datetime(2026, 1, 5, 18, tzinfo=UTC)
    hour = timedelta(hours=1)

    assert not acceptance.overlaps(start, start + hour, [(start + hour, start + 2 * hour)])
    assert acceptance.overlaps(start, start + hour, [(start + hour / 2, start + 2 * hour)])
