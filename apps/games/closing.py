"""A closed account's games (``accounts.closing.account_closing``): the game goes on without them.

In a game in play or paused, the bot plays their seat until the game ends (as after "Let the bot play
my seat", which a closed account can never take back); a seat of a game not started yet is free again,
and a game left with nobody in it is aborted. A vacation ends first, so that their clocks run and the
bot answers what is open. Their table talk is deleted.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from apps.accounts.closing import account_closing
from apps.accounts.models import Profile

from . import lifecycle, reliability
from .clock import vacation_end
from .models import Game, Seat, TableMessage
from .store import lock_game


@receiver(account_closing, dispatch_uid="games.account_closing")
def on_account_closing(sender: Any, *, user: Any, **kwargs: Any) -> None:
    if Profile.objects.filter(user=user, vacation_started_at__isnull=False).exists():
        vacation_end(user=user)
    over = [Game.Status.FINISHED, Game.Status.ABORTED]
    held = Seat.objects.filter(user=user).exclude(game__status__in=over)
    for game_id in sorted(set(held.values_list("game_id", flat=True))):
        _let_go(game_id, user)
    TableMessage.objects.filter(user=user).delete()  # what they wrote is theirs, and goes with them


def _let_go(game_id: int, user: Any) -> None:
    locked = lock_game(game_id)
    seat = locked.seat_of(user)
    status = locked.game.status
    if seat is None:
        return
    if status == Game.Status.ACTIVE:
        lifecycle.seat_hand_to_bot(game_id=game_id, user=user)
    elif status == Game.Status.PAUSED and not seat.bot_takeover:
        seat.bot_takeover = True  # the bot plays it when the game resumes
        seat.save(update_fields=["bot_takeover"])
        reliability.handed_to_bot(seat)
    elif status == Game.Status.OPEN:
        seat.user, seat.joined_at = None, None
        seat.save(update_fields=["user", "joined_at"])
        if not any(s.user_id is not None for s in locked.seats.values()):
            lifecycle.game_abort(locked, reason="its only player closed their account")
