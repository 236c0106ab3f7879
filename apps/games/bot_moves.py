"""What the server's bot answers for a seat it plays (a bot's seat, or an absent player's handed to it).

Used by the bot task (``autoplay``) and by the settlement of a server-played seat's overdue decision
(``pipeline.settle``): either way the seat's move is the bot's own choice, from the seat's ``view()``
only, with the same seeded randomness.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from baogame.rules.registry import get_bots, get_engine

if TYPE_CHECKING:
    from .models import Seat
    from .store import LockedGame


def bot_action(locked: LockedGame, seat: Seat) -> dict[str, Any]:
    """The action the seat's bot (the engine's default bot for a seat handed over) chooses now."""
    game = locked.game
    engine = get_engine(game.engine)
    bots, default_bot = get_bots(game.engine)
    rng = random.Random(f"bot:{game.seed}:{game.version}:{seat.position}")
    bot = bots.get(seat.bot or default_bot, bots[default_bot])
    action: dict[str, Any] = bot(engine.view(locked.state, seat.position), rng)
    return action
