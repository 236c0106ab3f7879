"""Invitations: links that seat their holder in an open game; the creator makes and revokes them.

An invitation token only seats people (it is not the game's identifier, which is ``public_id``): a
standing link can be replaced (the old one stops working) or revoked, and a single-use link seats one
person. Who sees the link and who manages it is ``selectors.game_may_invite`` / ``..._manage_...``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import cast

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from . import lifecycle, seating, selectors, sql, store
from .errors import ServiceError
from .models import Decision, Game, Invitation, Seat


def _game_for_manager(game_id: int, user: User) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not selectors.game_may_view(game=game, user=user, by_number=True):
        raise ServiceError("not_found", "no such game", status=404)
    if not selectors.game_may_manage_invitations(game=game, user=user):
        raise ServiceError("forbidden", "only the game's creator can change its invitations", status=403)
    if game.status != Game.Status.OPEN:
        raise ServiceError("game_not_open", "this game is not waiting for players")
    return game


def invitation_create(*, game_id: int, user: User, single_use: bool = False) -> Invitation:
    """A new invitation by the creator; a new standing link replaces (revokes) the previous one."""
    with transaction.atomic():
        game = _game_for_manager(game_id, user)
        if not single_use:
            Invitation.objects.filter(game=game, single_use=False, revoked_at=None).update(
                revoked_at=timezone.now()
            )
        return Invitation.objects.create(game=game, created_by=user, single_use=single_use)


def invitation_revoke(*, game_id: int, user: User, token: str | None = None) -> int:
    """Revoke one invitation (``token``) or every active one of the game; how many were revoked."""
    with transaction.atomic():
        game = _game_for_manager(game_id, user)
        active = Invitation.objects.filter(game=game, revoked_at=None, used_at=None)
        if token is not None:
            active = active.filter(token=token)
        return active.update(revoked_at=timezone.now())


def invitation_get(*, token: str) -> Invitation:
    """The active invitation with ``token``; ``ServiceError`` (404) when unknown, revoked or used up, or
    when its game no longer waits for players; ``game_cancelled`` (409) when its game was cancelled
    before it started, so that the link says so (its ``game`` on the error)."""
    invitation = Invitation.objects.select_related("game").filter(token=token).first()
    if invitation is not None and invitation.is_active and invitation.game.cancelled:
        raise GameCancelled(invitation.game)
    if invitation is None or not invitation.is_active or invitation.game.status != Game.Status.OPEN:
        raise ServiceError("invitation_invalid", "this invitation link is not valid (any more)", status=404)
    return invitation


def invitation_game_seating(*, token: str, user: User) -> Game | None:
    """The game of the invitation ``token`` when ``user`` already holds a seat in it, whatever the link's
    state (used up, revoked, or its game started since): the link then leads its player to the game,
    which they may see anyway; else None."""
    invitation = Invitation.objects.select_related("game").filter(token=token).first()
    if invitation is None or not invitation.game.seats.filter(user=user).exists():
        return None
    return invitation.game


class GameCancelled(ServiceError):
    """``game_cancelled``: the invitation's game was cancelled before it started (``Game.cancelled``)."""

    def __init__(self, game: Game) -> None:
        super().__init__("game_cancelled", lifecycle.CANCELLED_TEXT, status=409)
        self.game = game


@dataclass(frozen=True)
class JoinedGame:
    """A game as a join by invitation left it, for a caller that answers with it at once (the API)."""

    game: Game
    #: The seats by position, with their people (as ``store.lock_game`` read them, the new one's too).
    seats: list[Seat]
    #: The game's open decision rows (none until the join starts it).
    decisions: list[Decision]
    #: The seat taken.
    position: int


def invitation_accept_with_table(*, token: str, user: User, position: int | None = None) -> JoinedGame:
    """Take an open seat with an invitation; a single-use invitation is used up by it. The seat is told
    as an open table's is (``seating.seat_taken_tell``), in this transaction: the creator is mailed who
    came, unless it was the creator or the seat that fills the table.

    Returned with the seats and the decisions the join left, so that an answer about the game need not
    read them again."""
    with transaction.atomic():
        found = _invitation_locked(token)
        if found is None or not found.is_active:
            raise ServiceError(
                "invitation_invalid", "this invitation link is not valid (any more)", status=404
            )
        locked = store.lock_game(found.game_id)
        seat = lifecycle.seat_join(locked, user=user, position=position)
        seats = [locked.seats[p] for p in sorted(locked.seats)]
        seating.seat_taken_tell(game_id=found.game_id, user=user, via="invitation", seats=seats)
        if found.single_use:
            found.used_by, found.used_at = user, timezone.now()
            found.save(update_fields=["used_by", "used_at"])
    return JoinedGame(game=locked.game, seats=seats, decisions=locked.decisions, position=seat.position)


def invitation_accept(*, token: str, user: User, position: int | None = None) -> Game:
    """``invitation_accept_with_table``, answering with the game alone."""
    return invitation_accept_with_table(token=token, user=user, position=position).game


def _invitations_by_token(token: str) -> QuerySet[Invitation]:
    return Invitation.objects.select_for_update().filter(token=token).order_by("pk")[:1]


#: A stand-in for the token in ``_invitation_lock_select``, replaced when it runs.
_TOKEN = "\x1finvitation-token-marker"


@cache
def _invitation_lock_select(vendor: str) -> sql.Select:
    return sql.compile_select(_invitations_by_token(_TOKEN), token=_TOKEN)


def _invitation_locked(token: str) -> Invitation | None:
    """The invitation with ``token``, its row locked (every join takes it first); on the hand path by SQL
    built once, as the game's own lock is."""
    if not sql.hand_sql():
        return _invitations_by_token(token).first()
    select = _invitation_lock_select(sql.vendor())
    rows = sql.fetch(select.sql, select.statement(token=token).params)
    return cast("Invitation | None", select.load(rows[0])) if rows else None
