"""Games waiting for players: open tables, which their creator opened to anybody, and cancelling a
game before it starts.

A creator who knows nobody to invite ticks "open table" when creating a game (``Game.open_table``; a
public game only). While it waits for players it is listed on the Watch page and at ``GET
/api/v1/games/open/``, and anybody signed in may take a free seat without an invitation
(``open_table_join``), under the same rules as an invitation: one seat a person unless the game is a
bot-test game, and the game starts when its table is full. A game that is not an open table answers
``not_an_open_table``; the creator's invitation link works as for any game. The creator may take the
game off the open tables while it waits (``open_table_close``); it waits for invited players then.
Each seat taken here is told (``seating.seat_taken_tell``), as one taken by an invitation link: the
notifications app mails the creator while seats remain free. A creator may ask for a minimum record of
who sits (``Game.min_reliability``: percent of decisions answered on time over the last 12 months, as a
league's minimum) over at least ``reliability.TABLE_MIN_DECISIONS`` decisions; a player below it, or
with fewer decisions (a new account has none), is refused ``reliability_too_low``.

The creator may also cancel any game of theirs that still waits for players (``game_cancel``): it ends
aborted, as an organiser's abort does, before a card is dealt. Nothing of it counts anywhere: nobody held
a seat in a game that started, so no record, rating or statistic has it (those count started games), and
the people already seated hear of it through the game's end, as a cancellation (``Game.cancelled``).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet

from . import lifecycle, reliability, seating, selectors, store
from .errors import ServiceError
from .models import Game

#: How many open tables a page or the API lists, newest first.
OPEN_TABLES_SHOWN = 50


def open_tables() -> QuerySet[Game]:
    """The open tables anybody may join, newest first, with their seats and people."""
    return selectors.with_league(  # the API's summary tells each one's visibility (never a league's)
        Game.objects.filter(open_table=True, status=Game.Status.OPEN, visibility=Game.Visibility.PUBLIC)
        .defer("state", "result", "control_values")
        .select_related("created_by__profile")
        .prefetch_related("seats__user__profile")
        .order_by("-created_at", "-pk")
    )


def open_table_join(*, game_id: int, user: User, position: int | None = None) -> Game:
    """Take a free seat of an open table (the lowest, or ``position``); as ``lifecycle.game_join``.

    The game row is locked before it is read, so that a creator taking the game off the open tables
    at the same moment (``open_table_close``) comes either before the seat is taken or after it."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).defer("state", "result").first()
        if game is None or not selectors.game_may_view(game=game, user=user, by_number=True):
            raise ServiceError("not_found", "no such game", status=404)  # an unlisted game stays hidden
        if not game.open_table:
            raise ServiceError(
                "not_an_open_table", "this game takes its players by invitation only", status=403
            )
        require_reliable(game=game, user=user)
        game = lifecycle.game_join(game_id=game_id, user=user, position=position)
        seating.seat_taken_tell(game_id=game_id, user=user, via="open_table")
        return game


def require_reliable(*, game: Game, user: User) -> None:
    """Refuse (``reliability_too_low``, 403) a player whose record is below the table's minimum
    (``Game.min_reliability``) or shorter than ``reliability.TABLE_MIN_DECISIONS`` decisions: unlike a
    league, a table takes no one on an empty record."""
    reliability.require_minimum(
        user, game.min_reliability, asked_by="this table", min_decisions=reliability.TABLE_MIN_DECISIONS
    )


#: What a record says about taking a seat at an open table (``seat_check``).
MAY_SIT, RECORD_TOO_SHORT, RECORD_TOO_LOW = "may_sit", "too_short", "too_low"


def record_check(record: reliability.Record | None, game: Game) -> str:
    """``MAY_SIT``, ``RECORD_TOO_SHORT`` (fewer decisions than the table's floor) or ``RECORD_TOO_LOW``
    for ``record`` at ``game``'s table (None: nobody to check, as for a table with no minimum)."""
    minimum, floor = game.min_reliability, reliability.TABLE_MIN_DECISIONS
    if record is None or record.meets(minimum, min_decisions=floor):
        return MAY_SIT
    return RECORD_TOO_SHORT if record.too_short(minimum, min_decisions=floor) else RECORD_TOO_LOW


def seat_check(game: Game, user: User | None) -> str:
    """``record_check`` of ``user``'s record at the open table (the pages' button, or why not)."""
    if game.min_reliability <= 0:
        return MAY_SIT
    if user is None:
        return RECORD_TOO_LOW
    return record_check(reliability.record_for(user), game)


def may_sit(game: Game, user: User | None) -> bool:
    """Whether ``user``'s record lets them take a seat of the open table (the pages' button)."""
    return seat_check(game, user) == MAY_SIT


def open_table_close(*, game_id: int, by: User) -> Game:
    """The creator takes their game off the open tables while it waits for players (``forbidden``,
    ``game_not_open`` otherwise); who sits already keeps their seat, and the invitation link works."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not selectors.game_may_view(game=game, user=by, by_number=True):
            raise ServiceError("not_found", "no such game", status=404)
        if game.created_by_id != by.pk:
            raise ServiceError(
                "forbidden", "only the game's creator can take it off the open tables", status=403
            )
        if game.status != Game.Status.OPEN:
            raise ServiceError("game_not_open", "this game is not waiting for players")
        if game.open_table:
            game.open_table = False
            game.save(update_fields=["open_table"])
    return game


#: Why a cancelled game ended (``Game.status_reason``). Stored in English, as every reason is; pages and
#: mails do not show it but say that the game was cancelled, in the reader's language.
CANCELLED_REASON = "Cancelled by its creator before it started"


def game_cancel(*, game_id: int, by: User) -> Game:
    """The creator cancels their game while it waits for players: it ends aborted, without a result.

    Refused: ``not_found`` (404) to anyone who may not see the game, ``league_game`` (403) for a league's
    game (its organisers end it), ``forbidden`` (403) to anyone but the creator, ``game_not_open`` (409)
    once it has started or ended. The game row is locked first, so that a player taking the last seat at
    the same moment (``lifecycle.game_join``) comes either before (the game starts, and the cancelling
    is refused) or after (the seat is refused). The people already seated are told (the game's end).
    """
    with transaction.atomic():
        try:
            locked = store.lock_game(game_id)
        except Game.DoesNotExist:
            raise ServiceError("not_found", "no such game", status=404) from None
        game = locked.game
        seated = locked.seat_of(by) is not None
        if not selectors.game_may_view(game=game, user=by, by_number=True, seated=seated):
            raise ServiceError("not_found", "no such game", status=404)
        if game.league_of_game is not None:
            raise ServiceError(
                "league_game",
                "a league's game is not cancelled: the league's organisers may abort it",
                status=403,
            )
        if game.created_by_id != by.pk:
            raise ServiceError("forbidden", "only the game's creator can cancel it", status=403)
        if game.status != Game.Status.OPEN:
            raise ServiceError("game_not_open", "this game is not waiting for players", status=409)
        lifecycle.game_abort(locked, reason=CANCELLED_REASON)
    return game
