"""Open tables: public games waiting for players that their creator opened to anybody.

A creator who knows nobody to invite ticks "open table" when creating a game (``Game.open_table``; a
public game only). While it waits for players it is listed on the Watch page and at ``GET
/api/v1/games/open/``, and anybody signed in may take a free seat without an invitation
(``open_table_join``), under the same rules as an invitation: one seat a person unless the game is a
bot-test game, and the game starts when its table is full. A game that is not an open table answers
``not_an_open_table``; the creator's invitation link works as for any game. The creator may take the
game off the open tables while it waits (``open_table_close``); it waits for invited players then.

A creator may ask for a minimum record of who sits (``Game.min_reliability``: percent of decisions
answered on time over the last 12 months, as a league's minimum); a player below it is refused
``reliability_too_low``, and one with no decisions yet may sit.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet

from . import lifecycle, reliability, selectors
from .errors import ServiceError
from .models import Game

#: How many open tables a page or the API lists, newest first.
OPEN_TABLES_SHOWN = 50


def open_tables() -> QuerySet[Game]:
    """The open tables anybody may join, newest first, with their seats and people."""
    return (
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
        return lifecycle.game_join(game_id=game_id, user=user, position=position)


def require_reliable(*, game: Game, user: User) -> None:
    """Refuse (``reliability_too_low``, 403) a player whose record is below the table's minimum
    (``Game.min_reliability``); a player with no decisions yet may sit, as in a league."""
    if game.min_reliability <= 0:
        return
    record = reliability.record_for(user)
    if not record.meets(game.min_reliability):
        raise ServiceError(
            "reliability_too_low",
            f"this table asks for at least {game.min_reliability}% of decisions answered on time over the "
            f"last 12 months; your record: {record.on_time_percent}%",
            status=403,
        )


def may_sit(game: Game, user: User | None) -> bool:
    """Whether ``user``'s record lets them take a seat of the open table (the pages' button)."""
    if game.min_reliability <= 0:
        return True
    return user is not None and reliability.record_for(user).meets(game.min_reliability)


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
