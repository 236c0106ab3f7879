"""Pure rules of sittings: when a proposed time is agreed, and when a recurring series meets.

Nothing here touches the database. A proposed time becomes a sitting when every human seat of the table
has said yes to it; one no rejects that time (the other times of the proposal stay open). Times of a
series are computed in the proposer's own time zone and then turned into UTC one by one, so a weekly
20:00 stays 20:00 local across daylight saving changes.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

#: The longest a sitting may last, and the longest an ad-hoc one lasts.
MAX_LENGTH = timedelta(hours=4)
AD_HOC_LENGTH = timedelta(hours=1)
#: A series covers at most this many weeks, and a proposal offers at most this many times.
MAX_WEEKS = 26
MAX_TIMES = 8


class Outcome(enum.Enum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"


def outcome(*, human_seats: Collection[int], answers: Mapping[int, bool]) -> Outcome:
    """The state of one proposed time: declined at any no, accepted once every human seat said yes.

    ``answers`` maps a seat position to its answer; answers of seats outside ``human_seats`` (a seat
    since handed to a bot, say) do not count. A table without human seats agrees to nothing.
    """
    counted = {seat: yes for seat, yes in answers.items() if seat in human_seats}
    if any(not yes for yes in counted.values()):
        return Outcome.DECLINED
    if human_seats and all(counted.get(seat) for seat in human_seats):
        return Outcome.ACCEPTED
    return Outcome.OPEN


def local_to_utc(day: date, at: time, zone: ZoneInfo) -> datetime:
    """``day`` at ``at`` on the wall clock of ``zone``, in UTC.

    A wall time that does not exist (skipped when clocks go forward) moves on by the gap, as the wall
    clock reads after the change; an ambiguous one (when clocks go back) is the first of the two.
    """
    # fold=0: in a gap, the offset from before the change (the instant the wall clock then reads as
    # later by the gap); in an overlap, the first of the two instants (PEP 495).
    return datetime.combine(day, at).replace(tzinfo=zone, fold=0).astimezone(UTC)


@dataclass(frozen=True)
class Recurrence:
    """A weekly series: these weekdays (0 = Monday) at this wall-clock time, for this many weeks,
    counted from ``first_day`` (the first week is the 7 days from it), in ``time_zone``."""

    weekdays: tuple[int, ...]
    at: time
    weeks: int
    first_day: date
    time_zone: str

    def to_json(self) -> dict[str, object]:
        return {
            "weekdays": list(self.weekdays),
            "at": self.at.strftime("%H:%M"),
            "weeks": self.weeks,
            "first_day": self.first_day.isoformat(),
            "time_zone": self.time_zone,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Recurrence:
        weekdays = data["weekdays"]
        assert isinstance(weekdays, list)
        return cls(
            weekdays=tuple(int(d) for d in weekdays),
            at=time.fromisoformat(str(data["at"])),
            weeks=int(str(data["weeks"])),
            first_day=date.fromisoformat(str(data["first_day"])),
            time_zone=str(data["time_zone"]),
        )


def check_recurrence(recurrence: Recurrence) -> None:
    """Raise ``ValueError`` for a series that cannot be (no weekdays, a weekday out of range, …)."""
    if not recurrence.weekdays:
        raise ValueError("a series needs at least one weekday")
    if any(not 0 <= d <= 6 for d in recurrence.weekdays):
        raise ValueError("weekdays are 0 (Monday) to 6 (Sunday)")
    if not 1 <= recurrence.weeks <= MAX_WEEKS:
        raise ValueError(f"a series lasts 1 to {MAX_WEEKS} weeks")
    ZoneInfo(recurrence.time_zone)  # raises for an unknown zone (a ValueError subclass or KeyError)


def series_starts(recurrence: Recurrence) -> list[datetime]:
    """Every start of the series, in UTC, in order: each day's wall time in the series' zone."""
    zone = ZoneInfo(recurrence.time_zone)
    days = (recurrence.first_day + timedelta(days=offset) for offset in range(7 * recurrence.weeks))
    wanted = set(recurrence.weekdays)
    return [local_to_utc(day, recurrence.at, zone) for day in days if day.weekday() in wanted]


def overlaps(start: datetime, end: datetime, others: Iterable[tuple[datetime, datetime]]) -> bool:
    """Whether ``[start, end)`` meets any of ``others`` (half-open spans)."""
    return any(start < other_end and other_start < end for other_start, other_end in others)
