"""A game's life outside its moves: creating it, seating its players, starting it, ending it.

Ending a game without its engine (an organiser's adjudication or abort) is ``game_end`` here, for every
app; a game the engine finishes ends in the move pipeline, with its last move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, ParamSpec

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from baogame.rules.registry import get_bots, get_engine

from . import lengths, people, pipeline, reliability, scheduling, signals, store
from .clock.controls import DEFAULT_CONTROL, ControlError, control_from, fixed_per_decision
from .errors import ServiceError
from .models import Decision, Game, Invitation, Seat
from .store import LockedGame, lock_game

# --- creating and joining ----------------------------------------------------------------------------


#: Engine options that fix the cards or the starting position (the rules' stacked deals and later
#: starts, BB-25.1, BH-25.4): for tests and worked examples. Whoever sets them knows every hidden card,
#: so games that people create for others (the API, leagues; the web form never offers them) refuse them.
STACKING_OPTIONS = frozenset({"deal", "deals", "start"})


def refuse_stacking_options(options: dict[str, Any]) -> None:
    """Refuse options that would let their author know the hidden cards (``invalid_options``)."""
    stacked = sorted(STACKING_OPTIONS & set(options))
    if stacked:
        raise ServiceError("invalid_options", f"{', '.join(stacked)}: not allowed in games for other players")


P = ParamSpec("P")


@dataclass(frozen=True)
class CreatedGame:
    """A game as its creation left it, for a caller that answers with it at once (the API)."""

    game: Game
    #: The seats by position, with their people (as ``store.lock_game`` read them).
    seats: list[Seat]
    #: The game's first invitation (None: no creator, or no seat left open).
    invitation: Invitation | None


def game_create_with_table(
    *,
    creator: User | None,
    engine: str,
    players: int,
    options: dict[str, Any] | None = None,
    length: str | None = None,
    control: str = DEFAULT_CONTROL,
    control_custom: dict[str, int] | None = None,
    weekends_off: bool = False,
    timing_overrides: dict[str, int] | None = None,
    title: str = "",
    creator_seat: bool = True,
    bots: int = 0,
    bot_name: str | None = None,
    absent_limit: int = 3,
    bot_test: bool = False,
    visibility: str = Game.Visibility.PUBLIC,
    open_table: bool = False,
    min_reliability: int = 0,
) -> CreatedGame:
    """Create a game with ``players`` seats; the creator takes seat 0, the last ``bots`` seats are bots.

    ``bot_test``: one person's accounts (their bot accounts included) may hold several seats; otherwise
    each person holds at most one (``people``). ``open_table``: listed among the open tables, where
    anyone signed in may take a free seat (``lobby``); a public game only. ``min_reliability``: an open
    table's minimum record for who may take a seat there (percent of decisions answered on time).

    ``length`` is a match length of the game by name (``apps.games.lengths``: ``short``, ``custom``, …)
    applied to ``options``; None: the options decide. The game keeps the length name its options amount
    to (``Game.length``). Options are validated by the engine's ``setup`` (with a throwaway seed) so a
    bad option is refused now, not when the last player joins. The game starts when every seat is
    taken. A game of a creator with open seats gets its first (multi-use) invitation.

    Returned with the seats and the invitation it made, so that an answer about the new game need not
    read them again.
    """
    if visibility not in Game.Visibility.values:
        raise ServiceError(
            "invalid_options", f"visibility must be one of {', '.join(Game.Visibility.values)}"
        )
    if open_table and visibility != Game.Visibility.PUBLIC:
        raise ServiceError("invalid_options", "an open table is a public game: anyone may find and watch it")
    if not 0 <= min_reliability <= 100:
        raise ServiceError("invalid_options", "a minimum record is a percentage, 0-100")
    if min_reliability and not open_table:
        raise ServiceError(
            "invalid_options", "a minimum record is for an open table: invited players are chosen already"
        )
    eng = get_engine(engine)
    if not eng.min_players <= players <= eng.max_players:
        raise ServiceError("invalid_options", f"{engine} takes {eng.min_players}-{eng.max_players} players")
    if bots < 0 or bots > players - (1 if creator_seat else 0):
        raise ServiceError("invalid_options", "too many bots for the seats")
    merged, length_name = lengths.options_with_length(
        engine=engine, players=players, length=length, options=options or {}
    )
    eng.setup(players, merged, "options-check")  # raises RuleError("invalid_options") when bad
    if timing_overrides:  # a fixed time per decision: the old presets' shape (tests, rehearsals)
        control = "custom"
        decided = [v for k, v in timing_overrides.items() if k != "reaction"]
        turn = timing_overrides.get("turn") or (min(decided) if decided else 24 * 3600)
        control_custom = fixed_per_decision(int(turn), timing_overrides.get("reaction"))
    try:
        time_control = control_from(control, control_custom, weekends_off)
    except ControlError as exc:
        raise ServiceError("invalid_options", str(exc)) from None
    bot_names, default_bot = get_bots(engine)
    bot_name = bot_name or default_bot
    if bot_name not in bot_names:
        raise ServiceError("invalid_options", f"unknown bot {bot_name!r}")
    with transaction.atomic():
        game = Game(
            engine=engine,
            players=players,
            options=merged,
            length=length_name,
            title=title,
            created_by=creator,
            control=time_control.name,
            control_values=time_control.values(),
            weekends_off=time_control.weekends_off,
            absent_limit=absent_limit,
            bot_test=bot_test,
            visibility=visibility,
            open_table=open_table,
            min_reliability=min_reliability,
        )
        game.fill_seed_hash()  # what ``save`` would do: the INSERT is made without it
        store.insert_rows([game])  # its own round trip: the seats' rows need its id
        now = timezone.now()
        seats = []
        for pos in range(players):
            seat = Seat(game=game, position=pos)
            if pos == 0 and creator_seat and creator is not None:
                seat.user, seat.joined_at = creator, now
            elif pos >= players - bots:
                seat.bot, seat.joined_at = bot_name, now
            seats.append(seat)
        invitation = None
        if creator is not None and any(s.is_empty for s in seats):  # the game waits for players
            invitation = Invitation(game=game, created_by=creator)
        store.insert_rows([*seats, *([invitation] if invitation else [])])
        locked = lock_game(game.pk)  # the seats as stored, with their people
        _start_if_full(locked)
        game = locked.game
    seats = [locked.seats[position] for position in sorted(locked.seats)]
    return CreatedGame(game=game, seats=seats, invitation=invitation)


def _only_the_game(create: Callable[P, CreatedGame]) -> Callable[P, Game]:
    def game_create(*args: P.args, **kwargs: P.kwargs) -> Game:
        return create(*args, **kwargs).game

    game_create.__doc__ = "Create a game (``game_create_with_table``'s settings and checks) and return it."
    return game_create


#: ``game_create_with_table`` answering with the game alone (its arguments, checked as its own).
game_create = _only_the_game(game_create_with_table)


#: The refusal ``game_cancelled``: a seat of a game that ended before it started (``Game.cancelled``).
CANCELLED_TEXT = "this game was cancelled before it started"


def game_join(*, game_id: int, user: User, position: int | None = None) -> Game:
    """Take an open seat (the lowest, or ``position``); the game starts when the table is full
    (``seat_join``'s refusals)."""
    with transaction.atomic():
        locked = lock_game(game_id)  # the seats come with the lock
        seat_join(locked, user=user, position=position)
    return locked.game


def seat_join(locked: LockedGame, *, user: User, position: int | None = None) -> Seat:
    """Seat ``user`` in an open seat of the locked game (the lowest, or ``position``), inside the
    caller's transaction; the game starts when the table is full. The seat, with its player and their
    profile, is the one in ``locked.seats``.

    Refused (``same_person``) when another account of the same person (a bot account and its owner)
    already holds a seat, unless the game is a bot-test game; ``game_cancelled`` (409) once the game was
    cancelled before it started, ``game_not_open`` once it started, ``account_closed`` (403) for an
    account closed meanwhile (a request authenticated just before its closing committed: the closing's
    sweep would free the seat again, ``closing``).
    """
    game, seats = locked.game, locked.seats
    if not store.account_open(user.pk):  # read after the lock
        raise ServiceError("account_closed", "this account is closed: it takes no seat", status=403)
    if game.cancelled:
        raise ServiceError("game_cancelled", CANCELLED_TEXT, status=409)
    if game.status != Game.Status.OPEN:
        raise ServiceError("game_not_open", "this game is not waiting for players")
    if any(s.user_id == user.pk for s in seats.values()):
        raise ServiceError("already_seated", "you already have a seat in this game")
    store.with_profile(user)  # who the person is (a bot account's owner), and how the seat is named
    if not game.bot_test and people.seat_held_by(seats=seats.values(), user=user) is not None:
        raise ServiceError(
            "same_person",
            "one person cannot hold two seats of a game (their bot accounts included) unless its "
            "creator made it a bot-test game",
            status=409,
        )
    open_seats = [s for p, s in sorted(seats.items()) if s.is_empty and (position is None or p == position)]
    if not open_seats:
        raise ServiceError("no_open_seat", "no open seat")
    seat = open_seats[0]
    seat.user, seat.joined_at = user, timezone.now()
    # The seat's UPDATE goes with the start's writes when it fills the table (one round trip), else alone.
    locked.writes.append(store.update_seat(seat, ["user_id", "joined_at"]))
    _start_if_full(locked)
    locked.flush()
    return seat


def seat_fill_bot(*, game_id: int, user: User, position: int, bot_name: str | None = None) -> Game:
    """The creator puts a bot into an open seat."""
    with transaction.atomic():
        locked = lock_game(game_id)
        game = locked.game
        if game.created_by_id != user.pk:
            raise ServiceError("forbidden", "only the game's creator can add bots", status=403)
        if game.status != Game.Status.OPEN:
            raise ServiceError("game_not_open", "this game is not waiting for players")
        bots, default = get_bots(game.engine)
        bot_name = bot_name or default
        if bot_name not in bots:
            raise ServiceError("invalid_options", f"unknown bot {bot_name!r}")
        seat = locked.seats.get(position)
        if seat is None or not seat.is_empty:
            raise ServiceError("no_open_seat", "that seat is not open")
        seat.bot, seat.joined_at = bot_name, timezone.now()
        seat.save(update_fields=["bot", "joined_at"])
        _start_if_full(locked)
    return game


def _start_if_full(locked: LockedGame) -> None:
    """Deal the first round once every seat is taken (inside the caller's transaction)."""
    game = locked.game
    if game.status != Game.Status.OPEN or any(s.is_empty for s in locked.seats.values()):
        return
    engine = get_engine(game.engine)
    game.state = engine.setup(game.players, game.options, game.seed)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    game.version = 0
    # Only what the start changes: the row was just read with the lock (a full save wrote every column
    # again, and the ORM compiled its UPDATE each time); it goes with the decision rows, one round trip.
    locked.write_game(["status", "started_at", "state", "version"])
    now = timezone.now()
    opened, new_rows = pipeline.rewrite_decisions(locked, engine.pending(game.state), now)
    game_id = game.pk
    transaction.on_commit(partial(signals.game_started.send, sender=Game, game_id=game_id))
    signals.move_sent(  # move_recorded now (the mail outbox), move_applied on commit
        sender=Game,
        game_id=game_id,
        version=0,
        move_id=None,
        opened=opened,
        by_timeout=False,
        in_person_seat=None,
        event_types=frozenset(),
        people=locked.people(),
        persons=locked.persons(),
    )
    scheduling.queue_after_move(locked, new_rows=new_rows, now=now)  # a bot to play first, or a near deadline


# --- ending a game without its engine --------------------------------------------------------------------


def game_end(locked: LockedGame, *, status: str, reason: str, result: dict[str, Any] | None) -> None:
    """Finish (with ``result``) or abort (``result`` None) the locked game: its decisions close, what
    must commit with the end is written now (``signals.game_ending``) and the end is announced after
    commit (``signals.game_ended``)."""
    game = locked.game
    game.status, game.status_reason, game.finished_at, game.result = status, reason, timezone.now(), result
    game.save(update_fields=["status", "status_reason", "finished_at", "result"])
    Decision.objects.filter(game=game).delete()
    locked.decisions = []
    signals.game_ending.send(sender=Game, game_id=game.pk)
    transaction.on_commit(partial(signals.game_ended.send, sender=Game, game_id=game.pk))


def game_adjudicate(locked: LockedGame, *, places: dict[int, int], reason: str) -> None:
    """End the locked game with a result someone records: ``places`` maps every seat to its place
    (1 = best); the totals are the public running totals so far."""
    game = locked.game
    result = adjudicated_result(players=game.players, places=places, totals=_public_totals(game))
    game_end(locked, status=Game.Status.FINISHED, reason=reason, result=result)


def adjudicated_result(*, players: int, places: dict[int, int], totals: list[int]) -> dict[str, Any]:
    """A game result someone records: ``places`` maps every seat to its place (1 = best), else
    ``invalid_result``; ``totals``: the scores to show beside the places."""
    if sorted(places) != list(range(players)) or any(not 1 <= p <= players for p in places.values()):
        raise ServiceError("invalid_result", "give every seat a place from 1 to the number of players")
    return {
        "standings": [
            {"seat": s, "total": totals[s], "position": places[s]}
            for s in sorted(places, key=lambda s: (places[s], s))
        ],
        "totals": totals,
        "winners": sorted(s for s, p in places.items() if p == 1),
        "adjudicated": True,
    }


def game_abort(locked: LockedGame, *, reason: str) -> None:
    """End the locked game without a result."""
    game_end(locked, status=Game.Status.ABORTED, reason=reason, result=None)


def _public_totals(game: Game) -> list[int]:
    """Running totals so far (public: announced at every round end), zeros if the engine has none."""
    if game.state is None:
        return [0] * game.players
    totals = get_engine(game.engine).referee_view(game.state).get("totals") or [0] * game.players
    return [int(t or 0) for t in totals]


# --- seat settings: plucking windows, absence ---------------------------------------------------------


def seat_set_skip_pluck_windows(*, game_id: int, user: User, value: bool) -> Seat:
    """Switch "don't wait for me on plucking windows" for the user's seat in one game.

    Switched on, it passes any window the seat owns now and every later one, at once. The setting is
    private to its player: others never see it (it would tell them who has passed, BB-30.6).
    """
    with transaction.atomic():
        locked = lock_game(game_id)
        seat = locked.seat_of(user)
        if seat is None:
            raise ServiceError("not_seated", "you have no seat in this game", status=403)
        pipeline.settle(locked, timezone.now())
        Seat.objects.filter(pk=seat.pk).update(skip_pluck_windows=value)
        seat.skip_pluck_windows = value
        if value and locked.game.status == Game.Status.ACTIVE:
            pipeline.auto_pass_windows(locked, get_engine(locked.game.engine).pending(locked.state))
    return seat


#: Why a player cannot take back a seat an organiser handed to the bot (the page and the API say it).
BOT_HOLD_TEXT = (
    "an organiser handed this seat to the bot; only an organiser of the league who does not play in this "
    "game, or a site admin, can give it back"
)


def seat_take_back(*, game_id: int, user: User) -> Seat:
    """The player takes their seat back from the bot (one click); the absence count starts again.

    Refused (``organiser_hold``) while an organiser's "hand this seat to the bot" stands, and
    (``game_not_active``) once the game is over: its record says who held the seat at its end.
    """
    with transaction.atomic():
        locked = lock_game(game_id)
        seat = locked.seat_of(user)
        if seat is None:
            raise ServiceError("not_seated", "you have no seat in this game", status=403)
        if locked.game.is_over:
            raise ServiceError("game_not_active", "the game is not in play", status=409)
        if not seat.bot_takeover:
            return seat
        if seat.bot_hold:
            raise ServiceError("organiser_hold", BOT_HOLD_TEXT, status=403)
        seat.bot_takeover, seat.consecutive_timeouts = False, 0
        seat.save(update_fields=["bot_takeover", "consecutive_timeouts"])
        position = seat.position
        transaction.on_commit(
            partial(signals.seat_taken_back.send, sender=Game, game_id=game_id, seat=position)
        )
    return seat


def seat_hand_to_bot(*, game_id: int, user: User) -> Seat:
    """The player hands their own seat to the bot ("Let the bot play for me"), until they take it back.

    For a player who cannot go on, or not for a while: the table need not wait for their deadlines to
    pass ``absent_limit`` times before the bot takes over. The seat is then played exactly as after an
    absence (the table sees a bot-played seat, the bot answers what is open for it at once, one click
    takes it back), and their record counts the seat as handed to the bot (abandoned, if it is still
    the bot's when the game ends). Nobody is mailed: the player chose it, and the board shows it.
    """
    with transaction.atomic():
        locked = lock_game(game_id)
        seat = locked.seat_of(user)
        if seat is None:
            raise ServiceError("not_seated", "you have no seat in this game", status=403)
        if locked.game.status != Game.Status.ACTIVE:
            raise ServiceError("game_not_active", "the game is not in play", status=409)
        seat_to_bot(locked, seat)
    return seat


def seat_to_bot(locked: LockedGame, seat: Seat) -> bool:
    """Hand ``seat`` of the locked game in play to the bot (``seat_hand_to_bot``, and a closed account's
    seat, ``closing``); True if this did it, False if it was the bot's already or the settling of what
    was due ended the game or handed the seat over itself."""
    if seat.bot_takeover:
        return False
    pipeline.settle(locked, timezone.now())  # what was due is the player's timeout, not the bot's
    if locked.game.status != Game.Status.ACTIVE or seat.bot_takeover:
        return False
    seat.bot_takeover = True
    seat.save(update_fields=["bot_takeover"])
    reliability.handed_to_bot(seat)
    scheduling.queue_after_handover(locked)
    return True


def seat_stand_in(*, game_id: int, position: int, on: bool) -> bool:
    """The server's bot starts (``on``) or stops playing a seat whose player missed a sitting and gave
    the standing order "if I miss a sitting, the bot plays my seat until I arrive" (``Seat.sitting_bot``).

    The table sees the seat as bot-played, exactly like a take-over after absence. Starting needs the
    order and a seat its player plays now; stopping is for a seat started this way (the caller, the
    sittings, knows which) and leaves an organiser's hold alone, and the seat of an account closed (or
    switched off) meanwhile, which the bot keeps playing (``closing``). The absence count is not touched: a
    missed sitting is no timeout. True if the seat changed.
    """
    with transaction.atomic():
        locked = lock_game(game_id)
        seat = locked.seats.get(position)
        if seat is None or seat.user_id is None or seat.is_bot:
            return False
        if on:
            if seat.bot_takeover or not seat.sitting_bot or locked.game.status != Game.Status.ACTIVE:
                return False
        elif (
            not seat.bot_takeover
            or seat.bot_hold
            or not User.objects.filter(pk=seat.user_id, is_active=True).exists()  # a closed account's seat
        ):
            return False
        seat.bot_takeover = on
        seat.save(update_fields=["bot_takeover"])
        if on:
            scheduling.queue_after_handover(locked)
        else:
            scheduling.queue_game_tasks(locked)
    return True
