"""Telling other apps that somebody took a seat of a game waiting for players (``signals.seat_taken``).

Two ways seat a person who is not the creator's own choice at creation: a free seat of an open table
(``lobby.open_table_join``) and an invitation link (``invitations.invitation_accept``), which whoever
holds it may follow. Both tell the other apps alike, inside the transaction that seats them (the game
locked), so that what a receiver records for it (the creator's mail: ``apps.notifications``) commits
with the seat or not at all. The people a creator invites by name while creating the game are seated
by the creator's own act, in the creation's transaction: nothing is told of them.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User

from . import signals
from .models import Game, Seat


def seat_taken_tell(*, game_id: int, user: User, via: str, seats: Iterable[Seat] | None = None) -> None:
    """Send ``signals.seat_taken`` for the seat ``user`` just took in ``game_id`` (``via``:
    ``open_table`` or ``invitation``), with how many seats are still free after it (0: that was the
    last, and the game has started). Call it inside the seating transaction, after the join; ``seats``:
    the game's seats as the join left them, when the caller holds them (else they are read)."""
    held: list[tuple[int, int | None, str]]
    if seats is None:
        held = list(Seat.objects.filter(game_id=game_id).values_list("position", "user_id", "bot"))
    else:
        held = [(s.position, s.user_id, s.bot) for s in seats]
    taken = next(position for position, user_id, _ in held if user_id == user.pk)
    signals.seat_taken.send(
        sender=Game,
        game_id=game_id,
        position=taken,
        user_id=user.pk,
        seats_free=sum(1 for _, user_id, bot in held if user_id is None and not bot),
        via=via,
    )
