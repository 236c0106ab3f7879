"""Standing orders: setting, revoking and listing them (the page, the API and mail replies call these).

Setting and clearing lock the game like a move, and answer at once a decision the new order already
answers (``pipeline.auto_answer``). The rows and how the pipeline reads them are ``order_store``; the
rules are ``baogame.rules.orders``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from baogame.rules import orders as rules
from baogame.rules.core import RuleError

from . import people, pipeline
from .errors import ServiceError
from .models import Game, Seat
from .order_store import SEAT_SWITCHES, SITTING_KINDS, Order, listed, load, store
from .selectors import seats_with_people
from .store import LockedGame, lock_game

__all__ = ["Order", "arm", "mine", "revoke"]


def _seat_field(engine: str, kind: Any) -> str | None:
    """The seat's field holding an on/off order kept on the seat (``order_store.SEAT_SWITCHES``)."""
    field = SEAT_SWITCHES.get(kind) if isinstance(kind, str) else None
    if field is None or engine not in field[0]:
        return None
    return field[1]


def _switch(seat: Seat, field: str, value: bool) -> None:
    if getattr(seat, field) != value:
        Seat.objects.filter(pk=seat.pk).update(**{field: value})
        setattr(seat, field, value)


def _own_seat(locked: LockedGame, user: User) -> Seat:
    seat = locked.seat_of(user)
    if seat is None:
        raise ServiceError("not_seated", "you have no seat in this game", status=403)
    return seat


def _active(locked: LockedGame) -> None:
    if locked.game.status != Game.Status.ACTIVE or locked.game.state is None:
        raise ServiceError("game_not_active", "orders can be given only in a game being played", status=409)


def _refuse_without_sittings(locked: LockedGame, kind: Any) -> None:
    """Refuse an order about sittings (``SITTING_KINDS``) where the table can have none: one person
    against bots (``table_of_one``, 409, as a proposed sitting there is refused)."""
    if kind in SITTING_KINDS:
        people.refuse_table_of_one(locked.seats.values())


def _has_sittings(locked: LockedGame) -> bool:
    """Whether the locked game's table can have sittings (``order_store.listed`` shows their orders)."""
    return not people.table_of_one(locked.seats.values())


def _lock_to_order(game_id: int, user: User) -> tuple[LockedGame, Seat]:
    """Lock the game and bring it up to date, then the user's seat in it, which must be playing:
    what giving or changing orders starts with (inside the caller's transaction)."""
    locked = lock_game(game_id)
    seat = _own_seat(locked, user)
    pipeline.settle(locked, timezone.now())
    _active(locked)
    return locked, seat


def arm(*, game_id: int, user: User, kind: Any, params: Any = None) -> list[Order]:
    """Give the user's seat a standing order; returns the seat's orders. ``RuleError`` (400) for a bad
    order (``unknown_order``, ``invalid_order``, ``no_trick``, ``card_not_in_hand``, …); ``table_of_one``
    (409) for "if I miss a sitting" at a table that can have no sittings."""
    with transaction.atomic():
        locked, seat = _lock_to_order(game_id, user)
        engine = locked.game.engine
        field = _seat_field(engine, kind)
        if field is not None:
            _refuse_without_sittings(locked, kind)
            _switch(seat, field, True)
        else:
            store(seat, rules.arm(engine, locked.state, seat.position, load(seat), kind, params))
        pipeline.auto_answer(locked, pipeline.open_decisions(locked))
        return listed(seat, locked.game.state, engine, sittings=_has_sittings(locked))


def revoke(*, game_id: int, user: User, kind: str | None = None) -> list[Order]:
    """Withdraw one kind of the user's orders (all with ``kind=None``); returns those left."""
    with transaction.atomic():
        locked = lock_game(game_id)
        seat = _own_seat(locked, user)
        engine = locked.game.engine
        if kind is not None and kind not in rules.KINDS.get(engine, ()):
            raise RuleError("unknown_order", f"{engine} has no standing order {str(kind)[:40]!r}")
        for switch in SEAT_SWITCHES:
            field = _seat_field(engine, switch)
            if field is not None and kind in (None, switch):
                _switch(seat, field, False)
        store(seat, [o for o in load(seat) if kind is not None and o["kind"] != kind])
        return listed(seat, locked.game.state, engine, sittings=_has_sittings(locked))


def mine(*, game: Game, user: User) -> list[Order]:
    """The user's orders in this game (``not_seated`` 403 for someone without a seat)."""
    seat = Seat.objects.filter(game=game, user_id=user.pk).first() if user.is_authenticated else None
    if seat is None:
        raise ServiceError("not_seated", "you have no seat in this game", status=403)
    alone = people.table_of_one(seats_with_people(game))
    return listed(seat, game.state, game.engine, sittings=not alone)


def replace(*, game_id: int, user: User, wanted: list[dict[str, Any]]) -> list[Order]:
    """Make the user's orders exactly ``wanted`` (each ``{"kind", "params"}``), all or nothing; returns
    the seat's orders. Answers at once a decision a new order answers; ``table_of_one`` (409) for "if I
    miss a sitting" at a table that can have no sittings."""
    with transaction.atomic():
        locked, seat = _lock_to_order(game_id, user)
        engine = locked.game.engine
        held: list[Order] = []
        switches: set[str] = set()
        for item in wanted:
            field = _seat_field(engine, item.get("kind"))
            if field is not None:
                _refuse_without_sittings(locked, item.get("kind"))
                switches.add(field)
                continue
            held = rules.arm(engine, locked.state, seat.position, held, item.get("kind"), item.get("params"))
        for switch in SEAT_SWITCHES:
            field = _seat_field(engine, switch)
            if field is not None:
                _switch(seat, field, field in switches)
        store(seat, held)
        pipeline.auto_answer(locked, pipeline.open_decisions(locked))
        return listed(seat, locked.game.state, engine, sittings=_has_sittings(locked))
