"""Reads: games for a user, a seat's view, the visible history."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, F, OuterRef, QuerySet

from baogame.rules.core import visible
from baogame.rules.registry import get_engine

from .models import Decision, Game, Move, Seat


def game_ids_with_due_decisions(*, now: datetime) -> list[int]:
    """Ids of active games with a decision past its deadline."""
    return list(
        Decision.objects.filter(deadline__lte=now, game__status=Game.Status.ACTIVE)
        .values_list("game_id", flat=True)
        .distinct()
    )


def game_list_for_user(*, user: AbstractBaseUser) -> QuerySet[Game]:
    """The user's games, those waiting for them first, then by most recent."""
    waiting = Seat.objects.filter(game=OuterRef("pk"), user=user, game__decisions__seat=F("position"))
    return (
        Game.objects.filter(seats__user=user)
        .annotate(waiting_for_me=Exists(waiting))
        .order_by("-waiting_for_me", "-created_at")
        .distinct()
    )


def game_list_awaiting(*, user: AbstractBaseUser) -> QuerySet[Game]:
    """Active games with an open decision owned by the user's seat."""
    return game_list_for_user(user=user).filter(waiting_for_me=True, status=Game.Status.ACTIVE)


def game_view(*, game: Game, seat: int | None) -> dict[str, Any] | None:
    """Exactly what ``seat`` (None: a spectator) may know now; None before the game starts."""
    if game.state is None:
        return None
    return get_engine(game.engine).view(game.state, seat)


def game_history(*, game: Game, seat: int | None) -> list[dict[str, Any]]:
    """Every move's events that ``seat`` may see, oldest first, each with seq, time and actor."""
    out: list[dict[str, Any]] = []
    for move in (
        Move.objects.filter(game=game)
        .order_by("seq")
        .only("seq", "seat", "events", "created_at", "by_timeout", "by_bot")
    ):
        for event in move.events:
            if visible(event, seat):
                out.append(
                    {
                        "seq": move.seq,
                        "at": move.created_at,
                        "seat": move.seat,
                        "by_timeout": move.by_timeout,
                        "event": event,
                    }
                )
    return out


def open_decisions(*, game: Game) -> list[Decision]:
    """The open decision rows, soonest deadline first."""
    return list(Decision.objects.filter(game=game).order_by("deadline", "seat"))
