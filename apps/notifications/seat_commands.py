"""The mail reply commands that change who plays the sender's seat, as the game page's buttons do:
``hand over`` lets the bot play it from now on (the "Let the bot play my seat" button), ``take back``
ends that (the "Take my seat back" button). In Chinese ``托管`` and ``取消托管``, the words Chinese card
sites use for the same two buttons."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from apps.games import lifecycle
from apps.games.models import Game
from baogame.rules.mail import normalize

HAND_OVER = "hand_over"
TAKE_BACK = "take_back"
_COMMANDS = {"hand over": HAND_OVER, "托管": HAND_OVER, "take back": TAKE_BACK, "取消托管": TAKE_BACK}


def parse_seat_command(line: str) -> str | None:
    """``HAND_OVER`` or ``TAKE_BACK`` for a seat command (any case and spacing, a final full stop or
    exclamation mark allowed), None for any other line."""
    text = " ".join(normalize(line).strip().rstrip(".!;,").split()).lower()
    return _COMMANDS.get(text)


def carry_out(*, game: Game, user: User, command: str) -> str:
    """Carry out a seat command of ``user`` in ``game``; what it did, in words for the answer mail.
    ``RuleError`` (``ServiceError``) when refused: not seated, the game not in play, an organiser's
    hold on the seat."""
    if command == HAND_OVER:
        seat = lifecycle.seat_hand_to_bot(game_id=game.pk, user=user)
        if not seat.bot_takeover:  # settling what was due ended the game
            return _("The game is over.")
        return _(
            "A bot plays your seat from now on, until you take it back: reply “take back”, or one click "
            "on the game page."
        )
    lifecycle.seat_take_back(game_id=game.pk, user=user)
    return _("Your seat is yours again: the bot no longer plays it.")
