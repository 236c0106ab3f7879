"""The locked game and the SQL of a move: ``lock_game`` is the only way any code locks a game.

``lock_game(game_id, move_key=...)`` takes the game row lock and reads, in the same round trip, the
game's seats (with their people) and open decision rows, and the move already made with an
Idempotency-Key. It returns them as a ``LockedGame``, which also collects what the transaction will
write and queue. While a service holds the lock it is the only writer of the game's seats and decision
rows, so it keeps the ``LockedGame`` in step with its own writes instead of reading them again.

The reads and writes every move makes have two paths, chosen by ``settings.GAMES_HAND_SQL``: SQL
built once and sent in one round trip on PostgreSQL (``apps.games.sql``), or the plain ORM, query by
query. Both give the same results (the tests run both and compare them with the ORM's own querysets).
Anything less hot uses the ORM.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from itertools import groupby
from typing import Any, Protocol, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, F, Model, OuterRef, QuerySet, Subquery

from apps.accounts.models import Profile

from . import sql
from .models import Decision, Game, Move, Seat
from .people import held_by_person
from .sql import Statement, hand_sql

log = logging.getLogger(__name__)

# --- the reads of a move ---------------------------------------------------------------------------------
#
# Each read is one queryset. The ORM path runs it; the hand path compiles it once per database kind,
# with marker values where the call's own values go (``sql.compile_select``), and runs that SQL.

_GAME, _USER, _MOVE = -730_001, -730_002, -730_003
_KEY = "\x1fmove-key-marker"
_NOW = datetime(1901, 2, 3, 4, 5, 6, 789_012, tzinfo=UTC)


def _games(
    game_id: int,
    *,
    for_update: bool = False,
    overdue_at: datetime | None = None,
    seat_of_user: Any = None,
    move_key: str | None = None,
    league: bool = False,
) -> QuerySet[Game]:
    """The game row, with the extra answers asked for as annotations ``found_*`` (``league``: the
    game's league and whether it is public, both NULL outside any league)."""
    games = Game.objects.filter(pk=game_id)
    if for_update:
        games = games.select_for_update()
    if overdue_at is not None:
        overdue = Decision.objects.filter(game=OuterRef("pk"), deadline__lte=overdue_at)
        games = games.annotate(found_overdue=Exists(overdue))
    if seat_of_user is not None:
        seat = Seat.objects.filter(game=OuterRef("pk"), user_id=seat_of_user)
        games = games.annotate(
            found_seat=Subquery(seat.values("position")), found_hidden=Subquery(seat.values("hidden_moves"))
        )
    if move_key is not None:
        keyed = Move.objects.filter(game=OuterRef("pk"), idempotency_key=move_key)
        games = games.annotate(found_key_move=Subquery(keyed.values("id")))
    if league:  # the leagues' fixture of the game, by name: the games app does not import the leagues
        games = games.annotate(
            found_league=F("league_fixture__round__season__league_id"),
            found_league_public=F("league_fixture__round__season__league__is_public"),
        )
    return games


@cache
def _game_select(
    vendor: str, for_update: bool, overdue: bool, seat_of: bool, key: bool, league: bool = False
) -> sql.Select:
    games = _games(
        _GAME,
        for_update=for_update,
        overdue_at=_NOW if overdue else None,
        seat_of_user=_USER if seat_of else None,
        move_key=_KEY if key else None,
        league=league,
    )
    markers: dict[str, Any] = {"game_id": _GAME}
    if overdue:
        markers["overdue_at"] = _NOW
    if seat_of:
        markers["seat_of_user"] = _USER
    if key:
        markers["move_key"] = _KEY
    return sql.compile_select(games, **markers)


@dataclass
class GameRow:
    """A game as stored, with the extra answers ``game_row`` was asked for in the same query."""

    game: Game
    overdue: bool = False  #: a decision's deadline is at or before ``overdue_at``
    user_seat: int | None = None  #: the seat position of ``seat_of_user`` (None: not seated)
    user_hidden_moves: int = 0  #: that seat's ``hidden_moves`` (for ``selectors.viewer_version``)


def game_row(
    game_id: int, *, overdue_at: datetime | None = None, seat_of_user: int | None = None, league: bool = False
) -> GameRow | None:
    """The game as it is stored, unlocked (``lock_game`` locks), and the extra answers asked for;
    ``league``: the game's league too, kept on it (``Game.league_of_game``) so that nothing asks again."""
    overdue, seat_of = overdue_at is not None, seat_of_user is not None
    if hand_sql():
        select = _game_select(sql.vendor(), False, overdue, seat_of, False, league)
        statement = select.statement(game_id=game_id, overdue_at=overdue_at, seat_of_user=seat_of_user)
        sql.batch([statement])
        return game_row_loaded(select, statement.rows, overdue=overdue, seat_of=seat_of, league=league)
    found = _games(game_id, overdue_at=overdue_at, seat_of_user=seat_of_user, league=league).first()
    if found is None:
        return None
    names = ("found_overdue", "found_seat", "found_hidden", "found_league", "found_league_public")
    extra: dict[str, Any] = {name: vars(found).pop(name) for name in names if name in vars(found)}
    return _game_row(found, extra, overdue=overdue, seat_of=seat_of, league=league)


def game_row_select(seat_of_user: Any, **markers: Any) -> sql.Select:
    """``game_row``'s SELECT with ``overdue_at``, and the seat of the user that ``seat_of_user`` gives: an
    expression, such as a sub-select of another app's table by a value only the database can turn into
    the user (the API token's digest), so the game is read in the same round trip as that table.

    Compiled by the caller once per database kind; ``markers`` name the marker values inside
    ``seat_of_user``. Its ``statement`` takes ``game_id``, ``overdue_at`` and those; ``game_row_loaded``
    reads the answer."""
    games = _games(_GAME, overdue_at=_NOW, seat_of_user=seat_of_user)
    return sql.compile_select(games, game_id=_GAME, overdue_at=_NOW, **markers)


def game_row_loaded(
    select: sql.Select, rows: list[Any], *, overdue: bool = True, seat_of: bool = True, league: bool = False
) -> GameRow | None:
    """The ``GameRow`` in the rows of a statement of ``select`` (``game_row``'s or ``game_row_select``'s)."""
    if not rows:
        return None
    row = rows[0]
    extra = {name: select.value(row, name) for name in select.annotations}
    return _game_row(cast(Game, select.load(row)), extra, overdue=overdue, seat_of=seat_of, league=league)


def _game_row(game: Game, extra: dict[str, Any], *, overdue: bool, seat_of: bool, league: bool) -> GameRow:
    if league:  # what ``Game.league_of_game`` would ask the leagues for
        league_id, public = extra["found_league"], extra["found_league_public"]
        vars(game)["league_of_game"] = None if league_id is None else (int(league_id), bool(public))
    result = GameRow(game)
    if overdue:
        result.overdue = bool(extra["found_overdue"])
    if seat_of:
        result.user_seat, result.user_hidden_moves = extra["found_seat"], extra["found_hidden"] or 0
    return result


def _seats(game_id: int, *, people: bool) -> QuerySet[Seat]:
    """The game's seats by position; with ``people``, each seat's user and the user's profile too."""
    seats = Seat.objects.filter(game_id=game_id).order_by("position")
    return seats.select_related("user__profile") if people else seats


@cache
def _seats_select(vendor: str, people: bool) -> sql.Select:
    return sql.compile_select(_seats(_GAME, people=people), game_id=_GAME)


def seat_rows(game: Game, *, people: bool = False) -> list[Seat]:
    """The game's seats by position; with ``people``, each seat's user and the user's profile too."""
    if hand_sql():
        select = _seats_select(sql.vendor(), people)
        seats = [_seat_from_row(select, row) for row in sql.fetch(select.sql, [game.pk])]
    else:
        seats = list(_seats(game.pk, people=people))
    for seat in seats:
        sql.relate(seat, "game", game)
    return seats


def _seat_from_row(select: sql.Select, row: Sequence[Any]) -> Seat:
    """A seat from a row of ``_seats_select``; with the people, the user and profile cached on it as
    ``select_related`` leaves them (``sql.relate``)."""
    seat = cast(Seat, select.load(row))
    if "user" in select.models:
        user = cast("User | None", select.load(row, "user"))
        if user is not None:
            sql.relate(user, "profile", cast("Profile | None", select.load(row, "user__profile")))
        sql.relate(seat, "user", user)
    return seat


def attach_seats(game: Game, *, seats: list[Seat] | None = None, people: bool = False) -> None:
    """Give ``game`` its seats by position (with ``people``: their users and profiles) so that
    ``game.seats.all()`` then answers without a query: ``seats`` when the caller holds them already (a
    game it has just created), else read by ``seat_rows``, whose SQL is built once (the ORM's
    ``prefetch_related`` builds its query again on every call: a sixth of a game's creation's CPU)."""
    found = seat_rows(game, people=people) if seats is None else seats
    # What ``prefetch_related_objects`` leaves: the related manager's own queryset, already evaluated.
    queryset = game.seats.get_queryset()
    queryset._result_cache = found
    queryset._prefetch_done = True  # type: ignore[attr-defined]  # not in django-stubs
    vars(game).setdefault("_prefetched_objects_cache", {})["seats"] = queryset


def _profiles(user_id: int) -> QuerySet[Profile]:
    return Profile.objects.filter(user_id=user_id)


@cache
def _profile_select(vendor: str) -> sql.Select:
    return sql.compile_select(_profiles(_USER), user_id=_USER)


def with_profile(user: User) -> User:
    """``user`` with its profile read, as ``user.profile`` reads it, but on the hand path by SQL built
    once (a join reads the joining player's: who they are, what their seat is called); nothing when the
    profile is read already, or on the ORM path (``user.profile`` reads it when asked)."""
    if not hand_sql() or "profile" in user._state.fields_cache:
        return user
    select = _profile_select(sql.vendor())
    rows = sql.fetch(select.sql, select.statement(user_id=user.pk).params)
    if rows:
        sql.relate(user, "profile", select.load(rows[0]))
    return user


def _active_users(user_id: int) -> QuerySet[User]:
    return User.objects.filter(pk=user_id, is_active=True)


@cache
def _active_user_select(vendor: str) -> sql.Select:
    return sql.compile_select(_active_users(_USER).values("pk")[:1], user_id=_USER)


def account_open(user_id: int) -> bool:
    """Whether the account ``user_id`` is still open (active), as the database has it now (a join reads
    it after the game's lock: a closing commits before it or sees its seat); on the hand path by SQL
    built once."""
    if not hand_sql():
        return _active_users(user_id).exists()
    select = _active_user_select(sql.vendor())
    return bool(sql.fetch(select.sql, select.statement(user_id=user_id).params))


def _decisions(game_id: int) -> QuerySet[Decision]:
    return Decision.objects.filter(game_id=game_id).order_by("deadline", "id")


@cache
def _decisions_select(vendor: str) -> sql.Select:
    return sql.compile_select(_decisions(_GAME), game_id=_GAME)


def decision_rows(game: Game) -> list[Decision]:
    """The game's open decision rows, by deadline (the model's ordering), then id."""
    if hand_sql():
        select = _decisions_select(sql.vendor())
        decisions = [cast(Decision, select.load(row)) for row in sql.fetch(select.sql, [game.pk])]
    else:
        decisions = list(_decisions(game.pk))
    for decision in decisions:
        sql.relate(decision, "game", game)
    return decisions


@cache
def _move_select(vendor: str, by_key: bool) -> sql.Select:
    if by_key:
        return sql.compile_select(
            Move.objects.filter(game_id=_GAME, idempotency_key=_KEY), game_id=_GAME, move_key=_KEY
        )
    return sql.compile_select(Move.objects.filter(pk=_MOVE), move_id=_MOVE)


def move_by_id(move_id: int) -> Move | None:
    """One move row."""
    if not hand_sql():
        return Move.objects.filter(pk=move_id).first()
    select = _move_select(sql.vendor(), False)
    rows = sql.fetch(select.sql, select.statement(move_id=move_id).params)
    return cast("Move | None", select.load(rows[0])) if rows else None


def move_by_key(game_id: int, key: str) -> Move | None:
    """The game's move submitted with this ``Idempotency-Key``, if any."""
    if not hand_sql():
        return Move.objects.filter(game_id=game_id, idempotency_key=key).first()
    select = _move_select(sql.vendor(), True)
    rows = sql.fetch(select.sql, select.statement(game_id=game_id, move_key=key).params)
    return cast("Move | None", select.load(rows[0])) if rows else None


# --- the writes of a move ------------------------------------------------------------------------------
#
# Each returns a write, run later by ``run_writes`` (``LockedGame.flush``): on the hand path a statement
# (a move's statements go together in one round trip), on the ORM path the ORM call to make.


@dataclass
class OrmWrite:
    """A write of the ORM path: the call that makes it."""

    run: Callable[[], object]


Write = Statement | OrmWrite


def run_writes(writes: Sequence[Write], *, commit: bool = False) -> bool:
    """Run the writes in order; consecutive statements go together (``sql.batch``). ``commit``: the
    last of them carry the transaction's COMMIT where ``sql.batch`` can (True when they did)."""
    statements: list[Statement] = []
    for write in writes:
        if isinstance(write, Statement):
            statements.append(write)
            continue
        sql.batch(statements)
        statements = []
        write.run()
    return sql.batch(statements, commit=commit)


def insert_rows(rows: Sequence[Model]) -> None:
    """INSERT new rows now, giving each its id, without ``save()`` and its signals (none of the models
    written this way has receivers: a game, whose ``save`` only fills the seed's hash, which its caller
    does, its seats, an invitation): on the hand path in one round trip (on PostgreSQL one statement),
    else one ``bulk_create`` per model, in order."""
    if hand_sql():
        sql.batch([sql.insert_statement(row) for row in rows])
        return
    for _, group in groupby(rows, key=type):
        same = list(group)
        type(same[0])._default_manager.bulk_create(same)


def insert_move(move: Move) -> Write:
    """INSERT a new move row (``Move.objects.create``); running it sets the move's id."""
    if not hand_sql():
        return OrmWrite(lambda: move.save(force_insert=True))
    return sql.insert_statement(move)


def count_hidden_move(seat: Seat) -> Write:
    """Add one to the seat's ``hidden_moves``, in the database itself (a stale instance cannot lose a
    count)."""
    if not hand_sql():
        return OrmWrite(lambda: Seat.objects.filter(pk=seat.pk).update(hidden_moves=F("hidden_moves") + 1))
    return sql.increment_statement(seat, "hidden_moves")


def update_seat(seat: Seat, attnames: list[str]) -> Write:
    """UPDATE the named fields of the seat row (``save(update_fields=…)``)."""
    if not hand_sql():
        fields = list(attnames)
        return OrmWrite(lambda: seat.save(update_fields=fields))
    return sql.update_statement(seat, attnames)


def update_game(game: Game, attnames: list[str]) -> Write:
    """UPDATE the named fields of the game row (``save(update_fields=…)``)."""
    if not hand_sql():
        fields = list(attnames)
        return OrmWrite(lambda: game.save(update_fields=fields))
    return sql.update_statement(game, attnames)


#: Every field of a decision row but its id and game: what reusing a row rewrites.
DECISION_FIELDS = (
    "seat", "decision_id", "kind", "timing", "opened_at", "deadline", "remaining", "reminded_at",
)  # fmt: skip


def reuse_decision_row(pk: int, decision: Decision) -> Write:
    """Write the new ``decision`` over the closed decision row ``pk`` of the same game (it takes the id)."""
    decision.pk = pk
    if not hand_sql():
        return OrmWrite(lambda: decision.save(update_fields=DECISION_FIELDS))
    decision._state.adding = False
    decision._state.db = "default"
    return sql.update_statement(decision, DECISION_FIELDS)


def delete_decisions(pks: list[int]) -> list[Write]:
    """DELETE closed decision rows by id (no write when there are none)."""
    if not hand_sql():
        return [OrmWrite(lambda: Decision.objects.filter(pk__in=pks).delete())] if pks else []
    return [sql.delete_statement(Decision, pks)] if pks else []


def insert_decisions(decisions: list[Decision]) -> list[Write]:
    """INSERT new decision rows (running them gives each its id)."""
    if not hand_sql():
        return [OrmWrite(lambda: Decision.objects.bulk_create(decisions))] if decisions else []
    return [sql.insert_statement(d) for d in decisions]


# --- the locked game -------------------------------------------------------------------------------------


@dataclass
class TaskPlan:
    """What one transaction queues for one game when it commits (``apps.games.scheduling`` fills and
    sends it): the bot task, near deadline tasks, or a fresh look at the committed rows."""

    version: int = 0
    bots: bool = False
    bots_handed_over: bool = False
    bots_lost: bool = False  #: a server-played seat timed out: its bot task was lost, take the marker
    queue: str = ""
    deadlines: set[datetime] = field(default_factory=set)
    after_commit: bool = False  #: the move plan is registered with ``transaction.on_commit``
    rescan: bool = False  #: ``scheduling.queue_game_tasks`` is registered with ``transaction.on_commit``


@dataclass(eq=False)
class LockedGame:
    """A game whose row this transaction has locked, with everything a move reads and will write.

    ``seats`` (by position, with users and profiles) and ``decisions`` (the open decision rows, by
    deadline) are kept in step with the transaction's own writes; ``key_move_id`` is the move made
    with the Idempotency-Key asked for (None: none, or no key asked for); ``writes`` are the statements
    of the move being made, run together by ``flush``; ``tasks`` what to queue at commit; ``bot_loop``
    says that the server's bots are playing this game in this transaction (``autoplay``).
    """

    game: Game
    seats: dict[int, Seat]
    decisions: list[Decision]
    key_move_id: int | None = None
    writes: list[Write] = field(default_factory=list)
    tasks: TaskPlan = field(default_factory=TaskPlan)
    bot_loop: bool = False
    #: ``pipeline.settle`` sets it: each move's writes wait in ``writes`` (and what must follow them in
    #: ``after_flush``) so that all the timeouts of the game are written in one round trip; meanwhile
    #: the game row's changed fields wait in ``game_fields``, for one UPDATE with the last values.
    defer_flush: bool = False
    after_flush: list[Callable[[], None]] = field(default_factory=list)
    game_fields: set[str] = field(default_factory=set)
    #: Set by the caller that opened the transaction and ends it once the move is written
    #: (``pipeline.submit_action``): the move's writes may carry its COMMIT (``pipeline.apply``).
    may_commit: bool = False
    #: The transaction was committed with the last writes (``flush(commit=True)``): nothing may be
    #: written after them in it.
    committed: bool = False
    #: After such a commit, the reliability record counted the move in a transaction of its own (its
    #: player held no open tenure of the seat yet: ``reliability.answered_late``).
    late_count: bool = False

    @property
    def pk(self) -> int:
        return int(self.game.pk)

    @property
    def state(self) -> dict[str, Any]:
        """The state of the started game (the engine's plain JSON dict)."""
        assert self.game.state is not None, f"game {self.game.pk} has not started"
        state: dict[str, Any] = self.game.state
        return state

    def seat_of(self, user: User | AnonymousUser | None) -> Seat | None:
        """The user's seat, or None."""
        if user is None or not user.is_authenticated:
            return None
        return next((s for s in self.seats.values() if s.user_id == user.pk), None)

    def away(self) -> set[int]:
        """The seats whose player is on vacation."""
        return {position for position, s in self.seats.items() if on_vacation(s)}

    def people(self) -> frozenset[int]:
        """The seats a person plays now (not a bot, not handed to the bot): who may be mailed."""
        return frozenset(p for p, s in self.seats.items() if s.user_id is not None and not s.played_by_bot)

    def persons(self) -> frozenset[int]:
        """The seats a person holds, whether they play it or the bot plays it for them (handed over, or
        after missed deadlines); not a server bot's seat nor a bot account's: who is told results."""
        return frozenset(p for p, s in self.seats.items() if held_by_person(s))

    def reload_decisions(self) -> None:
        """Read the decision rows again, after a write that did not go through this object."""
        self.decisions = decision_rows(self.game)

    def write_game(self, attnames: list[str]) -> None:
        """UPDATE these fields of the game row with the move's writes; while the flush is deferred, once
        for all the moves that wait (with the values of the last)."""
        if self.defer_flush:
            self.game_fields.update(attnames)
        else:
            self.writes.append(update_game(self.game, attnames))

    def take_writes(self) -> list[Write]:
        """The collected writes (the game row's deferred UPDATE last), to run now; they are taken."""
        writes, self.writes = self.writes, []
        if self.game_fields:
            order = _GAME_FIELD_ORDER
            writes.append(update_game(self.game, sorted(self.game_fields, key=order.index)))
            self.game_fields = set()
        return writes

    def run_after_flush(self) -> None:
        """What waited for the writes (``after_flush``), in order."""
        while self.after_flush:
            self.after_flush.pop(0)()

    def flush(self, *, commit: bool = False) -> None:
        """Run the collected writes, in one round trip where the database allows it, then what waited
        for them (``after_flush``, in order). ``commit``: the writes end the transaction, its COMMIT in
        their round trip where the database allows it (``committed``); what waited for them must then
        write nothing. A write after it (a bug) is logged and still made, in a transaction of its own
        that Django's commit ends, rather than turning a committed move into an error."""
        if self.committed and (self.writes or self.game_fields):
            log.error("game %s: a write after the move's commit, in a transaction of its own", self.pk)
        self.committed = run_writes(self.take_writes(), commit=commit) or self.committed
        self.run_after_flush()


#: The game row's columns in table order: a deferred UPDATE names its fields in this order, so that
#: the same change of many games is the same statement (``flush_together`` merges them).
_GAME_FIELD_ORDER = [f.attname for f in Game._meta.concrete_fields]


def flush_together(games: Sequence[LockedGame]) -> None:
    """``flush`` for many locked games at once: all their writes in one round trip on the hand path on
    PostgreSQL, the same statement of many games merged into one (``sql.batch_merged``; each game's own
    writes keep their order, and no two games write the same row), then each game's ``after_flush``."""
    queues = [locked.take_writes() for locked in games]
    statements = [[w for w in queue if isinstance(w, Statement)] for queue in queues]
    if sql.vendor() == "postgresql" and statements == queues:  # the hand path: only statements
        sql.batch_merged(statements)
    else:
        for queue in queues:
            run_writes(queue)
    for locked in games:
        locked.run_after_flush()


def on_vacation(seat: Seat) -> bool:
    """Whether the seat's player is on vacation (a seat loaded with its people)."""
    profile = getattr(seat.user, "profile", None) if seat.user_id else None
    return profile is not None and profile.vacation_started_at is not None


class Ahead(Protocol):
    """A read of a layer above the games that rides in ``lock_game``'s round trip, and may stop it: the
    API's token (``apps.api.authentication.TokenAhead``), so that a move request authenticates without a
    round trip of its own.

    ``statement`` is sent first, before the lock; ``lock(key)`` is the locking SELECT (with the move key
    or without) with the ahead's own condition (``guarded_lock_select``), which holds only when the
    request may go on, so that a request that will be refused never waits for, nor takes, the game's
    lock; ``values`` are the values of its markers. ``checked()`` runs once the round trip is back,
    before anything else looks at the game: it raises to refuse the request (its transaction then
    rolls back).
    """

    statement: sql.Statement
    values: dict[str, Any]

    def lock(self, key: bool) -> sql.Select: ...

    def checked(self) -> None: ...


def guarded_lock_select(guard: Any, key: bool, **markers: Any) -> sql.Select:
    """``lock_game``'s locking SELECT, with ``move_key`` when ``key``, that finds the game only where the
    boolean expression ``guard`` holds (another app's condition, such as ``Exists`` of its own table by
    a marker value). Compiled by the caller once per database kind; ``markers`` name the marker values
    inside ``guard``."""
    games = _games(_GAME, for_update=True, move_key=_KEY if key else None).filter(guard)
    found = {"game_id": _GAME, **({"move_key": _KEY} if key else {}), **markers}
    return sql.compile_select(games, **found)


def lock_game(game_id: int, *, move_key: str | None = None, ahead: Ahead | None = None) -> LockedGame:
    """Lock the game row and read its seats (with people) and open decision rows, in one round trip
    on the hand path; with ``move_key``, also the id of the game's move made with that Idempotency-Key;
    with ``ahead`` (the hand path only), also its statement, checked before the game is.

    The seat and decision SELECTs run after the lock is granted, each on a fresh snapshot, so they see
    everything committed by the transaction the lock waited for. Raises ``Game.DoesNotExist``.
    """
    if ahead is not None and not hand_sql():
        raise ValueError("a read ahead of the lock needs the hand path")
    if not hand_sql():
        game = _games(game_id, for_update=True, move_key=move_key).get()
        key_move_id = vars(game).pop("found_key_move") if move_key is not None else None
        return LockedGame(
            game=game,
            seats={s.position: s for s in seat_rows(game, people=True)},
            decisions=decision_rows(game),
            key_move_id=key_move_id,
        )
    vendor = sql.vendor()
    seats_select, decisions_select = _seats_select(vendor, True), _decisions_select(vendor)
    if ahead is None:
        lock_select = _game_select(vendor, True, False, False, move_key is not None)
        lock = lock_select.statement(game_id=game_id, move_key=move_key)
    else:
        lock_select = ahead.lock(move_key is not None)
        lock = lock_select.statement(game_id=game_id, move_key=move_key, **ahead.values)
    seats = seats_select.statement(game_id=game_id)
    decisions = decisions_select.statement(game_id=game_id)
    sql.batch([lock, seats, decisions] if ahead is None else [ahead.statement, lock, seats, decisions])
    if ahead is not None:
        ahead.checked()
    if not lock.rows:
        raise Game.DoesNotExist(f"no game {game_id}")
    row = lock.rows[0]
    game = cast(Game, lock_select.load(row))
    found = [_seat_from_row(seats_select, r) for r in seats.rows]
    found_decisions = [cast(Decision, decisions_select.load(r)) for r in decisions.rows]
    for seat in found:
        sql.relate(seat, "game", game)
    for decision in found_decisions:
        sql.relate(decision, "game", game)
    return LockedGame(
        game=game,
        seats={s.position: s for s in found},
        decisions=found_decisions,
        key_move_id=lock_select.value(row, "found_key_move") if move_key is not None else None,
    )


# --- many games at once: the sweep's batches --------------------------------------------------------------


def _due_games(*, now: datetime, after: int, limit: int) -> QuerySet[Game, int]:
    """Up to ``limit`` active games with an id above ``after`` and a decision due by ``now``, in id order,
    locked with SKIP LOCKED where the database has row locks."""
    due = Decision.objects.filter(deadline__lte=now).values("game_id")
    games = Game.objects.filter(status=Game.Status.ACTIVE, pk__gt=after, pk__in=due).order_by("pk")
    return games.select_for_update(skip_locked=True).values_list("pk", flat=True)[:limit]


@cache
def _claim_select(vendor: str, limit: int) -> sql.Select:
    return sql.compile_select(_due_games(now=_NOW, after=_GAME, limit=limit), now=_NOW, after=_GAME)


def claim_due_games(*, now: datetime, after: int, limit: int) -> list[int]:
    """Lock and return the ids (ascending, each above ``after``) of up to ``limit`` active games with a
    decision due by ``now``, skipping games another transaction has locked (it is settling them, or
    making a move, which settles first). Must run in a transaction; ``lock_games`` then reads them.

    On a database without row locks (SQLite, which lets one writer in at a time) it is a plain SELECT.
    """
    if not hand_sql():
        return list(_due_games(now=now, after=after, limit=limit))
    statement = _claim_select(sql.vendor(), limit).statement(now=now, after=after)
    sql.batch([statement])
    return [int(row[0]) for row in statement.rows]


def _batch(ids: list[int]) -> tuple[QuerySet[Game], QuerySet[Seat], QuerySet[Decision]]:
    """The game rows (locked, in id order), their seats with people, and their open decision rows."""
    games = Game.objects.filter(pk__in=ids).order_by("pk").select_for_update()
    seats = Seat.objects.filter(game_id__in=ids).select_related("user__profile").order_by("position")
    return games, seats, Decision.objects.filter(game_id__in=ids).order_by("deadline", "id")


@cache
def _batch_selects(vendor: str, count: int) -> tuple[sql.Select, sql.Select, sql.Select]:
    """``_batch``'s three SELECTs for ``count`` games, compiled once (a slot per game id)."""
    markers: dict[str, Any] = {f"game_{i}": _GAME - i for i in range(count)}
    games, seats, decisions = _batch(list(markers.values()))
    return (
        sql.compile_select(games, **markers),
        sql.compile_select(seats, **markers),
        sql.compile_select(decisions, **markers),
    )


def lock_games(game_ids: Sequence[int]) -> list[LockedGame]:
    """``lock_game`` for many games at once: lock their rows in id order (no deadlocks with each other)
    and read their seats (with people) and open decision rows, in one round trip on the hand path.

    Returns the games found, in id order, each as ``lock_game`` would return it (without a move key).
    """
    ids = sorted(set(game_ids))
    if not ids:
        return []
    if not hand_sql():
        games_qs, seats_qs, decisions_qs = _batch(ids)
        found = {game.pk: LockedGame(game=game, seats={}, decisions=[]) for game in games_qs}
        seats: list[Seat] = list(seats_qs)
        decisions: list[Decision] = list(decisions_qs)
    else:
        games_select, seats_select, decisions_select = _batch_selects(sql.vendor(), len(ids))
        values: dict[str, Any] = {f"game_{i}": game_id for i, game_id in enumerate(ids)}
        lock, seat_rows_, decision_rows_ = (
            select.statement(**values) for select in (games_select, seats_select, decisions_select)
        )
        sql.batch([lock, seat_rows_, decision_rows_])
        found = {}
        for row in lock.rows:
            game = cast(Game, games_select.load(row))
            found[game.pk] = LockedGame(game=game, seats={}, decisions=[])
        seats = [_seat_from_row(seats_select, row) for row in seat_rows_.rows]
        decisions = [cast(Decision, decisions_select.load(row)) for row in decision_rows_.rows]
    for seat in seats:
        locked = found.get(seat.game_id)
        if locked is not None:
            sql.relate(seat, "game", locked.game)
            locked.seats[seat.position] = seat
    for decision in decisions:
        locked = found.get(decision.game_id)
        if locked is not None:
            sql.relate(decision, "game", locked.game)
            locked.decisions.append(decision)
    return list(found.values())


def decision_claim_reminder(decision: Decision, *, now: datetime) -> bool:
    """Mark ``decision`` reminded if its row still holds it (rows are reused) and no one else did: True
    for the one caller that claims it."""
    claim = Decision.objects.filter(
        pk=decision.pk, seat=decision.seat, decision_id=decision.decision_id, reminded_at=None
    )
    return claim.update(reminded_at=now) == 1
