"""Reads: who may see a game, a game as it stands, games for a user, a seat's view, the visible history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone

from baogame.rules.core import visible
from baogame.rules.registry import get_engine

from . import clock, leagues_link, numbering, sql, store
from .clock import banks
from .clock.deadlines import SIMULTANEOUS_TIMINGS, decision_length
from .models import Decision, Game, Invitation, Move, Seat
from .people import held_by_person
from .presenters import timeleft

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class WaitingForMe(TypedDict):
    """The annotation of ``game_list_for_user``: one of the open decisions is the user's."""

    waiting_for_me: bool


# --- who may see a game --------------------------------------------------------------------------------
#
# One rule for every page, API answer, list and mail that shows a game, so none of them leaks one:
#
# * its players (seated users) and its creator always may;
# * a game of a private league: the league's members and organisers (``league_list_visible``), nobody
#   else, whatever the game's own visibility;
# * otherwise the game's ``visibility``: ``public``: anybody, anonymous included, by its link or by its
#   number; ``unlisted``: anybody holding its link (``public_id``), but not by its number, and it is
#   listed nowhere but its players' lists; ``private``: nobody else.
#
# Whoever may not see a game gets the same 404 as for a game that does not exist.


def _user_or_none(user: User | AnonymousUser | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


#: A query of games, annotated or not (``with_league`` keeps its type).
_G = TypeVar("_G", bound=Game)


def game_league_id(game: Game) -> tuple[int, bool] | None:
    """The game's league as ``(league_id, is_public)``, or None for a game outside any league."""
    return game.league_of_game


def game_visibility(game: Game) -> str:
    """Who may see ``game``, as ``game_may_view`` decides it, in the words of ``Game.Visibility``: a
    private league's game is ``private`` (its players, its creator and whoever may see the league see
    it, nobody else), whatever the game's own ``visibility`` says; any other game, its own."""
    league = game_league_id(game)
    if league is not None and not league[1]:
        return Game.Visibility.PRIVATE
    return game.visibility


def game_league_known(game: Game, *, league_id: int, is_public: bool) -> Game:
    """``game``, told that it is a game of the league ``league_id`` (a caller listing one league's
    games knows it), so that ``game_league_id`` and ``game_visibility`` ask no query for it."""
    game.__dict__["league_of_game"] = (league_id, is_public)
    return game


def game_in_no_league(game: Game) -> Game:
    """``game``, told that it is in no league (one its caller has just created outside the leagues,
    which make their games with their fixtures), so that ``game_league_id`` and ``game_visibility`` ask
    no query for it."""
    game.__dict__["league_of_game"] = None
    return game


def with_league(games: QuerySet[_G]) -> QuerySet[_G]:
    """``games`` with their league annotated (``league_pk``, ``league_public``), which
    ``Game.league_of_game`` reads instead of asking a query per game of a list."""
    annotated = games.annotate(
        league_pk=F("league_fixture__round__season__league_id"),
        league_public=F("league_fixture__round__season__league__is_public"),
    )
    return cast("QuerySet[_G]", annotated)  # the same games, two attributes more


def game_may_view(
    *, game: Game, user: User | AnonymousUser | None, by_number: bool = False, seated: bool | None = None
) -> bool:
    """Whether ``user`` may see ``game`` at all (its page, history, API answers, mails about it).

    ``by_number``: the game was asked for by its sequential ``pk`` (the API, old page links), not by its
    ``public_id``; an unlisted game is then hidden from anyone but its players and creator.
    ``seated``: whether the user holds a seat, when the caller knows it already (saves a query).
    """
    person = _user_or_none(user)
    if person is not None:
        if seated is None:
            seated = Seat.objects.filter(game=game, user=person).exists()
        if seated or (game.created_by_id is not None and game.created_by_id == person.pk):
            return True
    league = game_league_id(game)
    if league is not None and not league[1]:
        return person is not None and leagues_link.may_see_league(person, league[0])
    if game.visibility == Game.Visibility.PUBLIC:
        return True
    return game.visibility == Game.Visibility.UNLISTED and not by_number


def game_may_invite(*, game: Game, user: User | AnonymousUser | None, seated: bool) -> bool:
    """Whether ``user`` is shown the game's invitation link: its players and its creator only; only its
    creator for an open table that asks for a minimum record (``Game.min_reliability``)."""
    person = _user_or_none(user)
    if person is None:
        return False
    if game.created_by_id is not None and game.created_by_id == person.pk:
        return True
    # The link seats whoever holds it, whatever their record, because the creator chose whom to send it
    # to; a stranger who sat down at the open table was not chosen, and must not hand the minimum round.
    return seated and not game.min_reliability


def game_may_manage_invitations(*, game: Game, user: User | AnonymousUser | None) -> bool:
    """Whether ``user`` may make, replace and revoke the game's invitations: its creator only."""
    person = _user_or_none(user)
    return person is not None and game.created_by_id is not None and game.created_by_id == person.pk


def invitation_current(*, game: Game) -> Invitation | None:
    """The game's standing (multi-use) invitation, newest first, while the game waits for players."""
    if game.status != Game.Status.OPEN:
        return None
    return (
        Invitation.objects.filter(game=game, single_use=False, revoked_at=None, used_at=None)
        .order_by("-created_at", "-pk")
        .first()
    )


def invitation_list_single_use(*, game: Game) -> list[Invitation]:
    """The game's single-use invitations not yet used or revoked, newest first."""
    return list(
        Invitation.objects.filter(game=game, single_use=True, revoked_at=None, used_at=None).order_by(
            "-created_at", "-pk"
        )
    )


def game_get(game_id: int) -> Game | None:
    """The game row as stored, without settling anything (a task or a link that only needs the row;
    a page or an API read asks ``game_read``). None when there is no such game."""
    return Game.objects.filter(pk=game_id).first()


def game_read(game_id: int, *, seats: str = "people") -> Game | None:
    """A game as it stands, for a page or an API read: settled first when a deadline has passed (the
    game query itself says whether anything is due, so this is cheap when nothing is). The same query
    reads the game's league, which says who may see it (``game_visibility``).

    ``seats``: "people" loads the seats with their users and profiles, "plain" the seats only, "none"
    nothing (``game.seats`` then queries). None when there is no such game.
    """
    found = _read_settled(game_id, league=True)
    if found is None:
        return None
    if seats != "none":
        game_with_seats(found.game, people=seats == "people")
    return found.game


def game_with_seats(game: Game, *, seats: list[Seat] | None = None, people: bool = True) -> Game:
    """``game`` with its seats by position (with ``people``: their users and profiles), so that
    ``game.seats.all()`` answers without a query (``store.attach_seats``; ``seats``: the caller holds
    them already)."""
    store.attach_seats(game, seats=seats, people=people)
    return game


def game_read_for_user(
    game_id: int, *, user_id: int, read: list[store.GameRow | None] | None = None
) -> tuple[Game, int | None, int] | None:
    """``game_read`` without the seats, plus the user's seat position (None: not seated) and the game's
    version as that seat knows it (``viewer_version``), all in the one game query when nothing is due.

    ``read``: that query's answer, ``[row]`` (``[None]``: no such game), when the caller has read it
    already (``store.game_row_select``, for the same user and with ``overdue_at`` now)."""
    found = _read_settled(game_id, seat_of_user=user_id, read=read)
    if found is None:
        return None
    game, seat = found.game, found.user_seat
    version = game.public_version + found.user_hidden_moves if seat is not None else game.public_version
    return game, seat, version


def _read_settled(
    game_id: int,
    *,
    seat_of_user: int | None = None,
    read: list[store.GameRow | None] | None = None,
    league: bool = False,
) -> store.GameRow | None:
    if read is not None:
        [found] = read
    else:
        found = store.game_row(game_id, overdue_at=timezone.now(), seat_of_user=seat_of_user, league=league)
    due = found is not None and found.game.status == Game.Status.ACTIVE and found.overdue
    if found is not None and due and clock.settle_game(game_id):
        found.game.refresh_from_db()
    return found


def seat_of(game: Game, user: User | AnonymousUser | None) -> Seat | None:
    """The user's seat in the game, or None."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def human_players(game: Game) -> dict[int, User]:
    """The player of each seat a human plays now, by position (with their profile: vacation, names)."""
    return {
        s.position: s.user
        for s in game.seats.select_related("user__profile").all()
        if s.user is not None and not s.played_by_bot
    }


def seated_people(game: Game) -> dict[int, User]:
    """The person holding each seat, by position, whether they play it now or the bot plays it for
    them (handed over, or after missed deadlines): who is told a round's and the game's result."""
    seats = game.seats.select_related("user__profile").all()
    return {s.position: s.user for s in seats if s.user is not None and held_by_person(s)}


def game_list_for_user(*, user: User) -> QuerySet[WithAnnotations[Game, WaitingForMe]]:
    """The user's games, those waiting for them first, then by most recent.

    Only games the user is seated in: every one of them is visible to the user (``game_may_view``).
    """
    waiting = Seat.objects.filter(game=OuterRef("pk"), user=user, game__decisions__seat=F("position"))
    return with_league(
        Game.objects.filter(seats__user=user)
        .annotate(waiting_for_me=Exists(waiting))
        .order_by("-waiting_for_me", "-created_at")
        .distinct()
    )


#: A page of a watch list, on the Watch page and in the API.
WATCH_PAGE_SIZE = 25
#: The watch lists' order (the indexes ``game_watch_started`` and ``game_watch_finished``): games in
#: play newest start first, finished ones latest end first.
WATCH_ORDER: dict[str, tuple[str, str]] = {
    Game.Status.ACTIVE: ("-started_at", "-pk"),
    Game.Status.FINISHED: ("-finished_at", "-pk"),
}


def game_list_watchable(*, status: str) -> QuerySet[Game]:
    """The games of ``status`` that anybody may watch, signed in or not (``game_may_view`` for a
    stranger): public games, except those of a private league, in ``WATCH_ORDER``. Unlisted and
    private games are never listed. The seats and their people come along for the list (one query
    each, whatever the count)."""
    return with_league(
        Game.objects.filter(visibility=Game.Visibility.PUBLIC, status=status)
        .exclude(league_fixture__round__season__league__is_public=False)
        # A list shows none of these; the options (a few keys) stay: they give the length in words.
        .defer("state", "result", "control_values")
        .prefetch_related("seats__user__profile")
        .order_by(*WATCH_ORDER.get(status, ("-created_at", "-pk")))
    )


def game_list_of_player(
    *, player: User, viewer: User | AnonymousUser | None, statuses: Sequence[str], limit: int
) -> list[Game]:
    """Up to ``limit`` of the games of ``statuses`` in which ``player`` holds a seat that ``viewer`` may
    see listed, in ``WATCH_ORDER`` of the first status (a player's public page).

    What a stranger finds is what ``game_list_watchable`` lists (public games, not those of a private
    league); whoever may see more of them by the rules above sees those too: the games they play in or
    created, and a private league's games when they may see that league. An unlisted game is listed
    only to its own players and creator, as ``game_may_view`` rules for a game asked for by number:
    every game passes ``game_may_view`` before it is listed. The seats and their people come along.
    """
    person = _user_or_none(viewer)
    in_private_league = Q(league_fixture__round__season__league__is_public=False)
    listed = Q(visibility=Game.Visibility.PUBLIC) & ~in_private_league
    games = Game.objects.filter(seats__user=player, status__in=statuses)
    if person is not None:
        seated = Exists(Seat.objects.filter(game=OuterRef("pk"), user=person))
        # a private league's games are candidates here; ``game_may_view`` asks the league below
        games = games.annotate(viewer_seated=seated)
        listed |= Q(viewer_seated=True) | Q(created_by=person) | in_private_league
    games = (
        with_league(games.filter(listed))
        .defer("state", "result", "control_values")
        .prefetch_related("seats__user__profile")
        .order_by(*WATCH_ORDER.get(statuses[0], ("-created_at", "-pk")))
    )
    shown: list[Game] = []
    start = 0
    while len(shown) < limit:
        chunk = list(games[start : start + limit])
        for game in chunk:
            # ``game_may_view`` reads the league from the annotation (``with_league``): no query per game
            seat = bool(getattr(game, "viewer_seated", False))
            if len(shown) < limit and game_may_view(game=game, user=viewer, by_number=True, seated=seat):
                shown.append(game)
        if len(chunk) < limit:
            break
        start += limit
    return shown


def game_list_awaiting(*, user: User) -> QuerySet[WithAnnotations[Game, WaitingForMe]]:
    """Active games with an open decision owned by the user's seat."""
    return game_list_for_user(user=user).filter(waiting_for_me=True, status=Game.Status.ACTIVE)


def my_clocks(*, user: User, game_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The user's soonest open decision in each of ``game_ids``: ``{"deadline", "length"}`` (the
    deadline None while the clock is stopped). Only the user's own decisions: nothing about others."""
    rows = Decision.objects.filter(
        game_id__in=game_ids, game__seats__user=user, seat=F("game__seats__position")
    ).select_related("game")
    out: dict[int, dict[str, Any]] = {}
    for row in sorted(rows, key=lambda r: (r.deadline is None, r.deadline or r.opened_at)):
        if row.game_id not in out:
            out[row.game_id] = {
                "deadline": row.deadline,
                "length": decision_length(row.game.seat_control(row.seat), row.timing),
            }
    return out


def game_clock(*, game: Game, viewer: int | None) -> dict[str, Any]:
    """The game's time control and every seat's bank as ``viewer`` (None: a spectator) may see it:
    ``{"control": {...}, "seats": [{"seat", "bank_seconds", "running", "runs_out_at"}]}``.

    A seat that answered a simultaneous decision still open shows as running to everyone else
    (``clock.banks``: BB-30.6); its own player sees the bank their answer left. ``bank_seconds`` is
    the bank when it last started or stopped running: a running bank counts down to ``runs_out_at``."""
    control = game.time_control
    active = game.status == Game.Status.ACTIVE
    seats = []
    for seat in sorted(game.seats.all(), key=lambda s: s.position):
        left, runs_out = banks.shown(seat, game.seat_control(seat.position), own=seat.position == viewer)
        seats.append(
            {
                "seat": seat.position,
                "bank_seconds": int(left.total_seconds()),
                "running": active and runs_out is not None,
                "runs_out_at": runs_out if active else None,
            }
        )
    return {
        "control": {**control.seconds(), "summary": timeleft.control_summary(control)},
        "seats": seats,
    }


def game_view(*, game: Game, seat: int | None) -> dict[str, Any] | None:
    """Exactly what ``seat`` (None: a spectator) may know now; None before the game starts."""
    if game.state is None:
        return None
    return get_engine(game.engine).view(game.state, seat)


def viewer_version(game: Game, seat: int | None, *, seats: Mapping[int, Seat] | None = None) -> int:
    """The game's version as ``seat`` (None: a spectator) may know it (BB-30.6).

    It counts the public moves and the seat's own hidden answers to simultaneous decisions, never
    another seat's: a client comparing versions cannot tell that somebody else has answered a window.
    ``seats``: the game's seats by position when the caller holds them (a move's result).
    """
    if seat is None:
        return game.public_version
    found = seats.get(seat) if seats else next((s for s in game.seats.all() if s.position == seat), None)
    return game.public_version + (found.hidden_moves if found is not None else 0)


def seat_answer_hidden(*, game: Game, seat: int | None) -> bool:
    """Whether ``seat`` has answered an open simultaneous decision whose answers stay hidden until it
    closes (BB-30.6): its own page says so, since nothing else of that answer shows yet."""
    if seat is None:
        return False
    return Move.objects.filter(game=game, seat=seat, hidden=True, public_seq=game.public_version).exists()


def seats_with_people(game: Game) -> list[Seat]:
    """The game's seats by position, each with its user and the user's profile."""
    return list(Seat.objects.filter(game=game).select_related("user__profile").order_by("position"))


def seats_asking_sitting_bot(game_id: int) -> list[int]:
    """The positions whose player asked the bot to play for them at a sitting they miss, while no
    other bot plays the seat."""
    asked = Seat.objects.filter(game_id=game_id, sitting_bot=True, bot_takeover=False, bot="")
    return sorted(asked.values_list("position", flat=True))


def seats_playing_live(game_id: int) -> set[int]:
    """The seats that play on the live control in the sitting under way, as stored now
    (``Game.live_clock``: those at the table when it started or who arrived since, less any who left)."""
    live = Game.objects.filter(pk=game_id).values_list("live_clock", flat=True).first()
    return {int(p) for p in live["banks"]} if isinstance(live, dict) else set()


def last_move_seq(game: Game, seat: int) -> int | None:
    """The number of the seat's last move in the game (None: it has not moved)."""
    return Move.objects.filter(game=game, seat=seat).order_by("-seq").values_list("seq", flat=True).first()


def moves_from(game: Game, seq: int) -> QuerySet[Move]:
    """The game's moves from number ``seq`` on, in order, with their events."""
    return Move.objects.filter(game=game, seq__gte=seq).order_by("seq").only("events", "seq")


def moves_newest_first(game: Game, limit: int) -> QuerySet[Move]:
    """The game's last ``limit`` moves, newest first, with their events."""
    return Move.objects.filter(game=game).order_by("-seq").only("events")[:limit]


def move_by_id(move_id: int | None) -> Move | None:
    """One move, whole (None: no such move)."""
    return Move.objects.filter(pk=move_id).first() if move_id is not None else None


def seat_version_after(move: Move, seat: int) -> int:
    """The game's version as ``seat`` knew it right after ``move``: the public moves until then and the
    seat's own hidden ones (BB-30.6, as ``viewer_version`` counts it now)."""
    own_hidden = Move.objects.filter(game_id=move.game_id, seat=seat, hidden=True, seq__lte=move.seq).count()
    return move.public_seq + own_hidden


def move_events(move_id: int | None) -> list[dict[str, Any]] | None:
    """The events of one move (None: no such move)."""
    move = Move.objects.filter(pk=move_id).only("events").first() if move_id else None
    return None if move is None else list(move.events)


def move_number(move: Move) -> int | None:
    """The move's history line number, the same for every viewer; None for a hidden answer
    (``numbering``)."""
    return numbering.line_number(public_seq=move.public_seq, hidden=move.hidden)


def seat_seq(move: Move) -> int:
    """The move's number as its own seat knows it: ``seq`` in that seat's history (BB-30.6)."""
    return seat_version_after(move, move.seat)


def game_history(*, game: Game, seat: int | None) -> list[dict[str, Any]]:
    """Every move's events that ``seat`` may see, oldest first, each with its numbers, time and actor.

    ``number`` is the line's number, the same for every viewer (``numbering``: the public moves
    only); None for the seat's own hidden answer, which ``follows`` the public line of that number (0:
    before the first). ``seq`` counts the moves ``seat`` may know of: the public ones and its own
    hidden answers (``viewer_version`` is the last), the API's paging cursor, not a number to cite.
    ``move_seq`` is the internal ``Move.seq``, for the server only.
    """
    out: list[dict[str, Any]] = []
    known = 0
    for move in (
        Move.objects.filter(game=game)
        .order_by("seq")
        .only("seq", "public_seq", "seat", "events", "created_at", "by_timeout", "by_bot", "hidden")
    ):
        if move.hidden and move.seat != seat:
            continue  # another seat's answer nobody else was told of; its events are that seat's alone
        known += 1
        number = numbering.line_number(public_seq=move.public_seq, hidden=move.hidden)
        for event in move.events:
            if visible(event, seat):
                out.append(
                    {
                        "seq": known,
                        "number": number,
                        "follows": move.public_seq if number is None else None,
                        "move_seq": move.seq,
                        "at": move.created_at,
                        "seat": move.seat,
                        "by_timeout": move.by_timeout,
                        "by_bot": move.by_bot,
                        "event": event,
                    }
                )
    return out


def open_decisions(*, game: Game) -> list[Decision]:
    """The open decision rows, soonest deadline first (on the hand path by SQL built once: every game
    page and API read of a game asks)."""
    if not sql.hand_sql():
        return list(_open_decisions(game.pk))
    select = _open_decisions_select(sql.vendor())
    rows = sql.fetch(select.sql, select.statement(game_id=game.pk).params)
    return [cast(Decision, select.load(row)) for row in rows]


def _open_decisions(game_id: int) -> QuerySet[Decision]:
    return Decision.objects.filter(game_id=game_id).order_by("deadline", "seat")


#: A stand-in for the game's id in ``_open_decisions_select``, replaced when it runs.
_DECISIONS_OF = -730_101


@cache
def _open_decisions_select(vendor: str) -> sql.Select:
    return sql.compile_select(_open_decisions(_DECISIONS_OF), game_id=_DECISIONS_OF)


def public_owner_seats(*, timing: str, seats: list[int], viewer: int | None) -> list[int]:
    """The owners of an open decision that ``viewer`` may be told about.

    Everyone sees who must take a turn, resolve an ability or end a turn; of a simultaneous decision
    (a plucking window, the setup peek, a tribute, a declaration) a viewer learns only whether it
    still owns it.
    """
    if timing not in SIMULTANEOUS_TIMINGS:
        return list(seats)
    return [viewer] if viewer is not None and viewer in seats else []


def public_decision_rows(
    *, game: Game, viewer: int | None, rows: list[Decision] | None = None
) -> list[dict[str, Any]]:
    """The open decisions with their deadlines as ``viewer`` may see them (BB-30.6).

    Single-owner decisions are listed with their seat; a simultaneous decision appears once, with the
    viewer's own seat while the viewer still owns it, else with ``seat`` None and its latest deadline.
    ``rows``: the game's open decision rows when the caller has read them already.
    """
    grouped: dict[str, list[Decision]] = {}
    for row in open_decisions(game=game) if rows is None else rows:
        grouped.setdefault(row.decision_id, []).append(row)
    out: list[dict[str, Any]] = []
    for rows in grouped.values():
        first = rows[0]
        if first.timing not in SIMULTANEOUS_TIMINGS:
            shown = rows
        else:
            own = [r for r in rows if r.seat == viewer]
            shown = own or [max(rows, key=lambda r: (r.deadline is not None, r.deadline or first.opened_at))]
        for row in shown:
            mine = row.seat == viewer
            deadline, stopped = row.deadline, row.clock_stopped
            if not mine and first.timing in SIMULTANEOUS_TIMINGS:
                deadline, stopped = _public_deadline(game, rows, deadline, stopped)
            out.append(
                {
                    "seat": row.seat if (mine or first.timing not in SIMULTANEOUS_TIMINGS) else None,
                    "kind": row.kind,
                    "decision_id": row.decision_id,
                    "timing": row.timing,
                    "deadline": deadline,
                    "clock_stopped": stopped,
                }
            )
    return out


def _public_deadline(
    game: Game, rows: list[Decision], deadline: datetime | None, stopped: bool
) -> tuple[datetime | None, bool]:
    """A simultaneous decision's deadline as others see it: the latest of its owners' banks, counting
    the owners who answered already as still owing (their public bank keeps running until it closes,
    ``clock.banks``), so an answer never moves it (BB-30.6)."""
    opened = rows[0].opened_at
    answered = [
        s.bank_runs_out_at
        for s in game.seats.all()
        if s.bank_pending_seconds is not None and s.bank_since == opened and s.bank_runs_out_at is not None
    ]
    running = [r.deadline for r in rows if r.deadline is not None] + answered
    if not running:
        return deadline, stopped
    return max(running), False


# --- decision rows, for the apps that tell people about them ------------------------------------------


def seat_decisions(*, game: Game, seat: int | None) -> QuerySet[Decision]:
    """The seat's open decision rows in ``game`` (none for no seat), in no particular order."""
    if seat is None:
        return Decision.objects.none()
    return Decision.objects.filter(game=game, seat=seat)


def seat_waits(*, game: Game, seat: int | None) -> bool:
    """Whether one of the game's open decisions is the seat's (never for no seat); on the hand path by
    SQL built once (a game's summary asks it for every answer about an active game)."""
    if seat is None:
        return False
    if not sql.hand_sql():
        return seat_decisions(game=game, seat=seat).exists()
    select = _seat_waits_select(sql.vendor())
    return bool(sql.fetch(select.sql, select.statement(game_id=game.pk, seat=seat).params))


#: A stand-in for the seat in ``_seat_waits_select``, replaced when it runs (a seat number no game has,
#: in the column's range: a negative one would make the ORM refuse the query as empty).
_DECISION_SEAT = 32_101


@cache
def _seat_waits_select(vendor: str) -> sql.Select:
    rows = Decision.objects.filter(game_id=_DECISIONS_OF, seat=_DECISION_SEAT).values("pk")[:1]
    return sql.compile_select(rows, game_id=_DECISIONS_OF, seat=_DECISION_SEAT)


def seat_decision(*, game: Game, seat: int, decision_id: str) -> QuerySet[Decision]:
    """The seat's open row of ``decision_id`` (empty once answered or closed), to narrow or take first."""
    return Decision.objects.filter(game=game, seat=seat, decision_id=decision_id)


def seat_nearest_deadline(*, game: Game, seat: int) -> datetime | None:
    """The soonest deadline among the seat's open decisions with a running clock, or None."""
    found: datetime | None = (
        Decision.objects.filter(game=game, seat=seat, deadline__isnull=False)
        .order_by("deadline")
        .values_list("deadline", flat=True)
        .first()
    )
    return found


def deadlines_of_user(*, user: User) -> QuerySet[Decision]:
    """The open decisions with a running clock of ``user``'s own seats in active games, soonest first,
    with their games; seats the bot plays while their player is away are left out."""
    return (
        Decision.objects.filter(
            game__status=Game.Status.ACTIVE,
            game__seats__user=user,
            game__seats__position=F("seat"),
            game__seats__bot_takeover=False,
            deadline__isnull=False,
        )
        .select_related("game")
        .order_by("deadline", "game_id", "decision_id")
    )


def decisions_unreminded(*, now: datetime) -> QuerySet[Decision]:
    """Open decisions of active games, not reminded of yet, whose deadline is still ahead, with games."""
    return Decision.objects.filter(
        reminded_at__isnull=True, deadline__gt=now, game__status=Game.Status.ACTIVE
    ).select_related("game")


def seats_in_play_held_by(user: User) -> list[Seat]:
    """The seats ``user`` holds in games in play or paused, with their games."""
    live = [Game.Status.ACTIVE, Game.Status.PAUSED]
    return list(Seat.objects.filter(user=user, game__status__in=live).select_related("game"))
