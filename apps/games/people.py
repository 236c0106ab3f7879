"""The person behind an account, and who holds a seat in a game.

A bot account (``Profile.is_bot_account``) belongs to the person who created it (``Profile.bot_owner``):
its seat is that person's seat too. Two rules rest on this:

* an organiser (or site admin) who holds a seat in a game, directly or through a bot account, has no
  organiser power over that game (``refuse_own_game``): another organiser or a site admin must act;
* one person cannot hold two seats of one game unless its creator allowed it for a bot-test game
  (``Game.bot_test``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .errors import ServiceError
from .models import Game, Seat


def person_of(user: Any) -> int | None:
    """The id of the person behind ``user``: the owner of a bot account, else the user itself."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    profile = getattr(user, "profile", None)
    owner = getattr(profile, "bot_owner_id", None) if profile is not None else None
    return int(owner) if owner is not None else int(user.pk)


def seat_person(seat: Seat) -> int | None:
    """The person behind a seat's player (None for a bot or an open seat)."""
    return person_of(seat.user) if seat.user_id is not None else None


def seat_held_by(*, seats: Iterable[Seat], user: Any) -> Seat | None:
    """The first of ``seats`` held by ``user`` or by one of their bot accounts (or their owner)."""
    person = person_of(user)
    if person is None:
        return None
    return next((s for s in seats if s.user_id is not None and seat_person(s) == person), None)


def holds_seat(*, game: Game, user: Any) -> bool:
    """Whether ``user`` holds a seat in ``game``, directly or through an account of the same person."""
    if person_of(user) is None:
        return False
    seats = game.seats.select_related("user__profile").exclude(user=None)
    return seat_held_by(seats=seats, user=user) is not None


def refuse_own_game(*, game: Game, user: Any) -> None:
    """Refuse an organiser tool to someone who plays in the game (``own_game``, 403)."""
    if holds_seat(game=game, user=user):
        raise ServiceError(
            "own_game",
            "you hold a seat in this game (yourself or through a bot account), so you have no organiser "
            "power over it: another organiser of the league or a site admin must act",
            status=403,
        )


def is_bot_account(user: Any) -> bool:
    """Whether ``user`` is a bot account (``Profile.is_bot_account``): a program's account, not a person's."""
    profile = getattr(user, "profile", None) if user is not None else None
    return bool(getattr(profile, "is_bot_account", False))


def held_by_person(seat: Seat) -> bool:
    """Whether a person holds ``seat`` with their own account: a user's seat that is neither a bot seat
    nor a bot account's, nor a closed account's (``accounts.closing``: the bot plays it to the end,
    and nobody may take it back, answer for it or be told anything as it).

    This is what the sittings call a *person* (their "human seats"). A bot account's seat is a bot's,
    whoever plays it: a program by API token answers at machine speed, the server's bot (the demo
    league's house bots) likewise, and neither can meet anyone at a sitting or answer a proposal. A
    person's seat stays theirs while the bot plays it (``bot_takeover``: after timeouts, handed over,
    or standing in during a sitting they miss): they may take it back at any moment. Whether an
    organiser's hold (``bot_hold``) keeps them from answering is the sittings' business.
    """
    user = seat.user if seat.user_id is not None else None
    return user is not None and not seat.bot and user.is_active and not is_bot_account(user)


def table_of_one(seats: Iterable[Seat]) -> bool:
    """Whether a table has one person at most (``held_by_person``) and no seat left for another to take:
    every other seat a bot's or a bot account's. Such a game has no sittings (nobody to agree a time
    with) and no "if I miss a sitting" order (``refuse_table_of_one``).

    A seat an organiser handed to the bot still counts as its player's: it may be given back."""
    seats = list(seats)
    people = sum(1 for s in seats if held_by_person(s))
    waiting = any(s.is_empty for s in seats)
    return people < 2 and not waiting


def refuse_table_of_one(seats: Iterable[Seat]) -> None:
    """Refuse what needs sittings (a proposal, the "if I miss a sitting" order) at a table of one person
    (``table_of_one``): ``table_of_one``, 409."""
    if table_of_one(seats):
        raise ServiceError(
            "table_of_one", "a sitting needs two people at the table: the other seats are bots", 409
        )


def seat_hand_to(seat: Seat, user: Any) -> None:
    """``user`` takes ``seat`` (a substitute), with no bot in charge and no orders of the previous player
    (inside the caller's transaction, with the game locked)."""
    seat.user, seat.bot_takeover, seat.bot_hold, seat.consecutive_timeouts = user, False, False, 0
    seat.sitting_bot = False
    seat.save(update_fields=["user", "bot_takeover", "bot_hold", "consecutive_timeouts", "sitting_bot"])


def seat_to_server_bot(seat: Seat, *, on: bool) -> None:
    """An organiser hands ``seat`` to the server's bot (``on``, with the organiser's hold: the player
    cannot take it back alone) or gives it back to its player (with the game locked)."""
    seat.bot_takeover, seat.bot_hold, seat.consecutive_timeouts = on, on, 0
    seat.save(update_fields=["bot_takeover", "bot_hold", "consecutive_timeouts"])


def seats_to_server_bot(*, game_ids: Iterable[int], user_ids: Iterable[int] | None = None) -> int:
    """Let the server's bot play the seats of ``game_ids`` (those of ``user_ids`` only, when given): the
    demo's bot accounts, which nobody drives through the API. Answers how many seats changed."""
    seats = Seat.objects.filter(game_id__in=list(game_ids))
    if user_ids is not None:
        seats = seats.filter(user_id__in=list(user_ids))
    return seats.update(bot_takeover=True)
