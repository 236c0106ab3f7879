"""A closed account's games (``accounts.closing``): the games go on without them, one at a time.

The closing itself commits first and locks no game (``on_account_closing``, inside its transaction,
ends a vacation in the profile and deletes their table talk): from then on the account is unusable, it
signs in nowhere, its tokens are gone and it takes no seat (``lifecycle.game_join``). Then each game
where it still holds a seat is let go of in a transaction of its own, which locks that game only,
exactly as a move does (``game_let_go``), so that a person in many games holds none of them up for
longer than one game's step:

* in a game in play or paused, the bot plays their seat until the game ends (as after "Let the bot
  play my seat", which a closed account can never take back); in a game in play, the clocks their
  vacation stopped run again first, so that the bot answers what is open; a league game's organisers
  are told (``signals.closed_seat_to_bot``), who may offer the seat to a substitute;
* a seat of a game not started yet is free again, and a game left with nobody in it is aborted.

Each step reads the game under its lock and does only what is still to do (a seat already the bot's, or
no longer theirs, is left as it is), so a step run twice does nothing twice. The steps run in a task
queued when the closing commits (``closed_account_let_go``: the page answers at once); a crash, a lost
task or a seat the account came to hold by a request already under way leaves a game to the beat
(``closed_accounts_sweep``), which finds the seats still to let go of and finishes them.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone

from apps.accounts.closing import account_closing
from apps.accounts.names import CLOSED_PREFIX

from . import lifecycle, reliability, scheduling, signals
from .clock.pause import restart_clocks
from .clock.vacation import vacation_end_in_profile
from .models import Game, Seat, TableMessage
from .store import LockedGame, lock_game

logger = logging.getLogger(__name__)

#: Games that are over: nothing is let go of in them (their seats are the record of who played).
OVER = (Game.Status.FINISHED, Game.Status.ABORTED)

#: Seats of closed accounts (``accounts.closing``: inactive, and named ``closed-<id>``, a name nobody
#: else may take) that are still to let go of: any seat of a game not started, a seat of a game in play
#: or paused that the bot does not play yet.
LEFT_TO_LET_GO = Q(user__is_active=False, user__username__startswith=CLOSED_PREFIX) & (
    Q(game__status=Game.Status.OPEN)
    | Q(game__status__in=[Game.Status.ACTIVE, Game.Status.PAUSED], bot_takeover=False)
)


@receiver(account_closing, dispatch_uid="games.account_closing")
def on_account_closing(sender: Any, *, user: Any, **kwargs: Any) -> None:
    """Inside the closing's transaction, locking no game: a vacation ends (its clocks restart as each
    game is let go of), their table talk goes (what they wrote is theirs, and goes with them), and the
    task that lets go of their games is queued for when the closing commits."""
    vacation_end_in_profile(user=user)
    TableMessage.objects.filter(user=user).delete()
    scheduling.queue_closed_account(user.pk)


def closed_account_let_go(*, user_id: int) -> int:
    """Let go of every game where the closed account ``user_id`` holds a seat, each game in its own
    transaction, in id order; returns how many changed. Nothing for an account that is not closed."""
    user = User.objects.filter(pk=user_id, is_active=False, username__startswith=CLOSED_PREFIX).first()
    if user is None:
        return 0
    held = Seat.objects.filter(user=user).exclude(game__status__in=OVER)
    game_ids = sorted(set(held.values_list("game_id", flat=True)))
    return sum(game_let_go(game_id=game_id, user=user) for game_id in game_ids)


def closed_accounts_sweep() -> int:
    """The beat's look for closed accounts' seats still to let go of (``LEFT_TO_LET_GO``): a closing
    whose task crashed half way or was lost, a seat taken by a request already under way when the
    account closed. Lets go of each game as the closing's task does; returns how many changed. An
    account whose games fail is logged and left to the next sweep: the others are not held up by it."""
    left = Seat.objects.filter(LEFT_TO_LET_GO).values_list("user_id", flat=True).distinct()
    changed = 0
    for user_id in sorted({u for u in left if u}):
        try:
            changed += closed_account_let_go(user_id=user_id)
        except Exception:
            logger.exception("could not let go of the games of closed account %s", user_id)
    return changed


def game_let_go(*, game_id: int, user: User) -> bool:
    """Let go of ``user``'s seat of one game (a closed account's), in a transaction that locks that game
    only; True if anything changed. Safe to run again: what is done already is not done twice."""
    with transaction.atomic():
        locked = lock_game(game_id)
        seat = locked.seat_of(user)
        if seat is None or locked.game.is_over:
            return False
        if locked.game.status == Game.Status.OPEN:
            _free_seat(locked, seat)
            return True
        restarted = restart_clocks(locked, timezone.now()) > 0  # those their vacation stopped
        if restarted:
            scheduling.queue_game_tasks(locked)
        if locked.game.status == Game.Status.ACTIVE:
            handed = lifecycle.seat_to_bot(locked, seat)
        else:  # paused: the bot plays the seat when the game resumes
            handed = not seat.bot_takeover
            if handed:
                seat.bot_takeover = True
                seat.save(update_fields=["bot_takeover"])
                reliability.handed_to_bot(seat)
        if handed:
            signals.closed_seat_to_bot.send(
                sender=Game, game_id=game_id, seat=seat.position, version=locked.game.version
            )
        return handed or restarted


def _free_seat(locked: LockedGame, seat: Seat) -> None:
    """The seat of a game not started yet is free again; a game left with nobody in it is aborted."""
    seat.user, seat.joined_at = None, None
    seat.save(update_fields=["user", "joined_at"])
    if not any(s.user_id is not None for s in locked.seats.values()):
        lifecycle.game_abort(locked, reason="its only player closed their account")
