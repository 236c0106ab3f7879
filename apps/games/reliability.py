"""The reliability record: what each player did with the seats they held over the last 12 months.

Kept per **seat tenure** (``SeatTenure``): a tenure starts when a player takes a seat (the game starts,
or they accept it as a substitute) and ends when the game ends or the seat goes to someone else. A
substitute starts a tenure of their own, so nobody inherits a predecessor's timeouts or handovers.

Per tenure:

* **answered**: decisions the player answered themselves, from a page, the API or a mail
  (counted with the move's own writes, ``answer_counted``); the server's automatic passes and the bot
  don't count;
* **timeouts**: decisions left to their deadline that count as absence (``deadlines.record_timeout``;
  an unanswered plucking window is a choice, not an absence);
* **handed to a bot**: the seat went to the bot, after repeated timeouts or by an organiser;
* **abandoned**: the player left before the game's end (replaced by a substitute), or the game ended
  with their seat still in the bot's hands after it was handed over (timeouts or an organiser). A
  seat the server's bot plays from the start by arrangement (the demo's house accounts) was never
  handed over, so it is not abandoned.

Vacation days used come from ``accounts.VacationSpell`` (each vacation from start to end), counting the
part of each spell inside the window. ``record_for`` and ``records_for`` add up the tenures that were
open at some time in the last 12 months.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Case, Count, F, Q, QuerySet, Sum, Value, When
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from . import sql
from .errors import ServiceError
from .models import Game, Move, Seat, SeatTenure
from .store import OrmWrite, Write

log = logging.getLogger(__name__)

#: The record's window.
WINDOW = timedelta(days=365)
#: An open table's minimum record is met only by a record of at least this many counted decisions
#: (answered or timed out) over the window, about one game: a percentage of a handful of decisions says
#: little, and an account with no record yet has shown nothing. A league's minimum has no such floor
#: (its organisers see each applicant's record, and a new member is welcome until a season shows more).
TABLE_MIN_DECISIONS = 20


@dataclass(frozen=True)
class Record:
    """A player's reliability over the window."""

    games: int = 0
    answered: int = 0
    timeouts: int = 0
    handed_to_bot: int = 0
    abandoned: int = 0
    vacation_days: float = 0.0

    @property
    def decisions(self) -> int:
        return self.answered + self.timeouts

    @property
    def on_time_percent(self) -> int | None:
        """Decisions answered on time, in percent of all the player's decisions; None: no decisions yet."""
        return round(100 * self.answered / self.decisions) if self.decisions else None

    def meets(self, minimum: int, *, min_decisions: int = 0) -> bool:
        """Whether the record meets a minimum (percent on time; 0: none). With ``min_decisions`` (an open
        table's, ``TABLE_MIN_DECISIONS``) only a record of at least that many decisions does; without
        (a league's), a record with no decisions yet passes."""
        if minimum <= 0:
            return True
        if self.decisions < min_decisions:
            return False
        percent = self.on_time_percent
        return percent is None or percent >= minimum

    def too_short(self, minimum: int, *, min_decisions: int) -> bool:
        """Whether the record fails a minimum only for having fewer than ``min_decisions`` decisions."""
        return minimum > 0 and self.decisions < min_decisions

    @property
    def summary(self) -> str:
        """One line for a table cell, in the reader's language."""
        percent = self.on_time_percent
        return " · ".join(
            (
                gettext("no decisions yet")
                if percent is None
                else gettext("%(n)s%% on time") % {"n": percent},
                ngettext("%(n)s timeout", "%(n)s timeouts", self.timeouts) % {"n": self.timeouts},
                gettext("%(n)s to bot") % {"n": self.handed_to_bot},
                gettext("%(n)s abandoned") % {"n": self.abandoned},
                gettext("vacation days: %(n)s") % {"n": f"{self.vacation_days:g}"},
            )
        )


# --- recording ------------------------------------------------------------------------------------------


def tenure_open(*, game_id: int, position: int, user_id: int, now: datetime | None = None) -> SeatTenure:
    """The seat's open tenure for ``user_id``; a tenure of someone else on that seat is ended first."""
    now = now or timezone.now()
    current = SeatTenure.objects.filter(game_id=game_id, position=position, ended_at=None).first()
    if current is not None and current.user_id == user_id:
        return current
    if current is not None:
        current.ended_at = now
        current.save(update_fields=["ended_at"])
    return SeatTenure.objects.create(game_id=game_id, position=position, user_id=user_id, started_at=now)


def game_started(*, game_id: int) -> None:
    """Open a tenure for every player's seat of a game that started, as ``tenure_open`` would seat by
    seat (an open tenure of the same player stays, one of someone else is ended first), in three
    queries for the whole game rather than two or three per seat.

    Every game's start runs it (the last join's request, after commit): on the hand path its two reads
    are compiled once and go in one round trip, and on PostgreSQL its INSERTs are made without the ORM
    and fused into one statement (``sql.batch``). Ending someone else's tenure as well makes two
    writes, in one transaction; otherwise the caller gives it a transaction of its own unless its
    writes are one statement (``start_writes_one_statement``)."""
    now = timezone.now()
    if sql.hand_sql():
        reads = [select.statement(game_id=game_id) for select in _start_selects(sql.vendor())]
        sql.batch(reads)
        players, current = (dict(read.rows) for read in reads)
    else:
        players, current = dict(_seated(game_id)), dict(_open_tenures(game_id))
    replaced = [p for p, user_id in players.items() if p in current and current[p] != user_id]
    opened = [
        SeatTenure(game_id=game_id, position=p, user_id=user_id, started_at=now)
        for p, user_id in sorted(players.items())
        if current.get(p) != user_id
    ]
    with transaction.atomic(savepoint=False) if replaced else nullcontext():  # both writes or neither
        if replaced:
            ended = SeatTenure.objects.filter(game_id=game_id, ended_at=None, position__in=replaced)
            ended.update(ended_at=now)
        if start_writes_one_statement():  # the INSERTs fused into one statement
            sql.batch([sql.insert_statement(tenure) for tenure in opened])
        else:
            SeatTenure.objects.bulk_create(opened)


def start_writes_one_statement() -> bool:
    """Whether ``game_started`` writes a start's new tenures in one statement (PostgreSQL's hand path):
    such a start needs no transaction of its own."""
    return sql.hand_sql() and sql.vendor() == "postgresql"


def _seated(game_id: int) -> QuerySet[Seat, tuple[int, int]]:
    """The positions and users of the game's seats that a user holds."""
    return Seat.objects.filter(game_id=game_id, user__isnull=False).values_list("position", "user_id")


def _open_tenures(game_id: int) -> QuerySet[SeatTenure, tuple[int, int]]:
    """The positions and users of the game's open tenures."""
    return SeatTenure.objects.filter(game_id=game_id, ended_at=None).values_list("position", "user_id")


#: A stand-in for the game's id in ``_start_selects``, replaced when they run.
_STARTED_GAME = 987654312


@cache
def _start_selects(vendor: str) -> tuple[sql.Select, sql.Select]:
    """``game_started``'s two reads, compiled once from their querysets."""
    return (
        sql.compile_select(_seated(_STARTED_GAME), game_id=_STARTED_GAME),
        sql.compile_select(_open_tenures(_STARTED_GAME), game_id=_STARTED_GAME),
    )


def answered(*, move_id: int) -> None:
    """A player answered a decision themselves (the move's user, in the move's seat)."""
    with transaction.atomic():
        _answered(move_id)


def answered_late(*, move_id: int) -> None:
    """``answered`` once the move has committed (its writes carried the COMMIT): in a transaction of
    its own, and, as the receivers of a game's start and end, logged rather than raised on a database
    failure, so that a committed move is never answered with an error (the record is a statistic)."""
    try:
        answered(move_id=move_id)
    except DatabaseError:
        log.exception("reliability record: the answer of move %s not counted", move_id)


@dataclass
class AnswerCount:
    """``answered`` as one of a move's own writes (``answer_counted``): ``write`` adds one to the open
    tenure of the move's user in its seat, in the move's transaction and its writes' round trip; once
    the writes ran, ``counted`` says whether it found that tenure (if not, ``answered`` opens one)."""

    write: Write  # the statement, or on the ORM path the call that runs the update
    updated: list[int]  # rows updated, once the ORM path's call has run

    @property
    def counted(self) -> bool:
        if isinstance(self.write, sql.Statement):
            return self.write.rowcount > 0
        return bool(self.updated) and self.updated[0] > 0


def answer_counted(*, game_id: int, position: int, user_id: int, hidden: bool = False) -> AnswerCount:
    """The write that counts a move made in person by ``user_id`` in seat ``position``. The pipeline
    sends it with the move's other writes, so the record costs no round trip and no commit of its own.

    ``hidden``: the move answered a simultaneous decision that stays open, which nobody else may know of
    yet (BB-30.6); its count waits in ``answered_hidden`` until the decision closes (``hidden_told``),
    so that no public record moves the moment a player passes a window or peeks at the setup."""
    column = _HIDDEN if hidden else _ANSWERED
    if sql.hand_sql():
        statement = _answered_by_user(sql.vendor(), column)
        return AnswerCount(statement.statement(game_id=game_id, position=position, user_id=user_id), [])

    updated: list[int] = []
    tenure = SeatTenure.objects.filter(
        game_id=game_id, position=position, ended_at__isnull=True, user_id=user_id
    )
    return AnswerCount(OrmWrite(lambda: updated.append(tenure.update(**{column: F(column) + 1}))), updated)


#: The tenure's count of answers, and of answers still hidden (``answer_counted``).
_ANSWERED, _HIDDEN = "answered", "answered_hidden"


@cache
def _answered_by_user(vendor: str, column: str = _ANSWERED) -> sql.Select:
    """``column + 1`` on the seat's open tenure of this user, compiled once from the queryset."""
    marker_game, marker_position, marker_user = 987654301, 32701, 987654303
    tenures = SeatTenure.objects.filter(
        game_id=marker_game, position=marker_position, ended_at__isnull=True, user_id=marker_user
    )
    return sql.compile_update(
        tenures,
        {column: F(column) + 1},
        game_id=marker_game,
        position=marker_position,
        user_id=marker_user,
    )


def hidden_told(*, game_id: int) -> Write:
    """The write that makes the game's hidden answers count (``answer_counted``): a move that closes a
    simultaneous decision tells everyone who answered it (BB-30.6), so their answers join ``answered``
    in its own writes. A tenure with none waiting is not touched."""
    if sql.hand_sql():
        return _hidden_told(sql.vendor()).statement(game_id=game_id)
    waiting = SeatTenure.objects.filter(game_id=game_id, answered_hidden__gt=0)
    return OrmWrite(lambda: waiting.update(answered=F(_ANSWERED) + F(_HIDDEN), answered_hidden=0))


@cache
def _hidden_told(vendor: str) -> sql.Select:
    """``hidden_told``'s UPDATE, compiled once from the queryset."""
    marker_game = 987654305
    return sql.compile_update(
        SeatTenure.objects.filter(game_id=marker_game, answered_hidden__gt=0),
        {_ANSWERED: F(_ANSWERED) + F(_HIDDEN), _HIDDEN: 0},
        game_id=marker_game,
    )


def _answered(move_id: int) -> None:
    move = Move.objects.filter(pk=move_id).values("game_id", "seat", "user_id", "hidden").first()
    if move is None or move["user_id"] is None:
        return
    tenure = tenure_open(game_id=move["game_id"], position=move["seat"], user_id=move["user_id"])
    column = _HIDDEN if move["hidden"] else _ANSWERED
    SeatTenure.objects.filter(pk=tenure.pk).update(**{column: F(column) + 1})


def timed_out(seat: Seat, *, handed: bool) -> None:
    """A seat's player let a decision time out (inside the move's transaction); ``handed``: and the seat
    went to the bot because of it."""
    if seat.user_id is None:
        return
    tenure = tenure_open(game_id=seat.game_id, position=seat.position, user_id=seat.user_id)
    fields: dict[str, Any] = {"timeouts": F("timeouts") + 1}
    if handed:
        fields["handed_to_bot"] = True
    SeatTenure.objects.filter(pk=tenure.pk).update(**fields)


def handed_to_bot(seat: Seat) -> None:
    """An organiser handed a player's seat to the bot."""
    if seat.user_id is None:
        return
    tenure = tenure_open(game_id=seat.game_id, position=seat.position, user_id=seat.user_id)
    SeatTenure.objects.filter(pk=tenure.pk).update(handed_to_bot=True)


def seat_changed(*, seat: Seat, previous_id: int | None, newcomer_id: int) -> None:
    """A substitute took a seat mid-game: the previous player's tenure ends abandoned, a new one opens."""
    now = timezone.now()
    if previous_id is not None:
        SeatTenure.objects.filter(
            game_id=seat.game_id, position=seat.position, user_id=previous_id, ended_at=None
        ).update(ended_at=now, abandoned=True)
    tenure_open(game_id=seat.game_id, position=seat.position, user_id=newcomer_id, now=now)


def game_ended(*, game_id: int) -> None:
    """Close the game's open tenures; a seat handed to the bot and still in its hands is abandoned, and
    an answer whose count still waits (``hidden_told``) counts. One UPDATE, so that it needs no
    transaction of its own."""
    now = timezone.now()
    if sql.hand_sql():  # every game's end runs it: compiled once, as the move's own writes are
        sql.batch([_ended_update(sql.vendor()).statement(game_id=game_id, now=now)])
        return
    _open_tenures_ended(game_id).update(**_ended_values(game_id, now))


def _open_tenures_ended(game_id: int) -> QuerySet[SeatTenure]:
    return SeatTenure.objects.filter(game_id=game_id, ended_at=None)


def _ended_values(game_id: int, now: datetime) -> dict[str, Any]:
    in_bot_hands = Seat.objects.filter(game_id=game_id, bot_takeover=True).values("position")
    abandoned = Q(handed_to_bot=True, position__in=in_bot_hands)
    return {
        "ended_at": now,
        "abandoned": Case(When(abandoned, then=Value(True)), default=F("abandoned")),
        # nothing is hidden once the game is over: an answer still waiting (``hidden_told``) counts
        _ANSWERED: F(_ANSWERED) + F(_HIDDEN),
        _HIDDEN: 0,
    }


#: Stand-ins for ``_ended_update``'s values, found in the compiled statement and replaced when it runs.
_ENDED_GAME, _ENDED_AT = 987654311, datetime(1999, 12, 31, 23, 59, 58, tzinfo=UTC)


@cache
def _ended_update(vendor: str) -> sql.Select:
    """``game_ended``'s UPDATE, compiled once from the queryset."""
    values = _ended_values(_ENDED_GAME, _ENDED_AT)
    return sql.compile_update(_open_tenures_ended(_ENDED_GAME), values, game_id=_ENDED_GAME, now=_ENDED_AT)


# --- reading --------------------------------------------------------------------------------------------


def require_minimum(user: Any, minimum: int, *, asked_by: str, min_decisions: int = 0) -> None:
    """Refuse (``reliability_too_low``, 403) a player whose record is below ``minimum`` percent of
    decisions on time (0: no minimum), or has fewer than ``min_decisions`` decisions (an open table's
    floor; without one, a player with no decisions yet passes: ``Record.meets``). ``asked_by`` names
    who asks in the refusal's message ("this league", "this table"), which says which of the two it is."""
    if minimum <= 0:
        return
    record = record_for(user)
    if record.too_short(minimum, min_decisions=min_decisions):
        raise ServiceError(
            "reliability_too_low",
            f"{asked_by} asks for a record of at least {min_decisions} decisions over the last 12 months, "
            f"{minimum}% of them answered on time; yours has {record.decisions} so far, too few to tell "
            "(a new account has none): play some games first",
            status=403,
        )
    if not record.meets(minimum, min_decisions=min_decisions):
        raise ServiceError(
            "reliability_too_low",
            f"{asked_by} asks for at least {minimum}% of decisions answered on time over the last 12 "
            f"months; your record: {record.on_time_percent}%",
            status=403,
        )


def record_for(user: Any, *, now: datetime | None = None) -> Record:
    """``user``'s record over the last 12 months."""
    return records_for([user.pk], now=now).get(user.pk, Record())


def records_for(user_ids: Iterable[int], *, now: datetime | None = None) -> dict[int, Record]:
    """The records of several players at once (every id gets one, empty when nothing is recorded)."""
    from apps.accounts.models import VacationSpell

    now = now or timezone.now()
    since = now - WINDOW
    ids = list(user_ids)
    rows = (
        SeatTenure.objects.filter(user_id__in=ids, started_at__lte=now)
        .filter(Q(ended_at=None) | Q(ended_at__gte=since))
        .exclude(game__status=Game.Status.OPEN)
        .values("user_id")
        .annotate(
            games=Count("game", distinct=True),
            answered_sum=Sum("answered"),
            timeouts_sum=Sum("timeouts"),
            handed=Count("pk", filter=Q(handed_to_bot=True)),
            abandoned_count=Count("pk", filter=Q(abandoned=True)),
        )
    )
    away: dict[int, float] = {}
    for spell in VacationSpell.objects.filter(user_id__in=ids, started_at__lte=now).filter(
        Q(ended_at=None) | Q(ended_at__gte=since)
    ):
        start, end = max(spell.started_at, since), min(spell.ended_at or now, now)
        away[spell.user_id] = away.get(spell.user_id, 0.0) + max(0.0, (end - start).total_seconds())
    out = {uid: Record(vacation_days=round(away.get(uid, 0.0) / 86400, 1)) for uid in ids}
    for row in rows:
        out[row["user_id"]] = Record(
            games=row["games"],
            answered=row["answered_sum"] or 0,
            timeouts=row["timeouts_sum"] or 0,
            handed_to_bot=row["handed"],
            abandoned=row["abandoned_count"],
            vacation_days=out[row["user_id"]].vacation_days,
        )
    return out
