"""What the sittings hear from the games: a game's end closes its sittings.

The receiver only queues a task (``baogame.celery.publish`` logs a broker failure instead of raising it
into the committed end), and only for a game with a sitting to close: one indexed look-up at a game's
end (rare), none on the move path. The sittings' own beat (``lifecycle.advance``) closes them if the
task is lost, or if a sitting was agreed as the game ended, after the look-up.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from apps.games.signals import game_ended
from baogame.celery import publish

from . import selectors


@receiver(game_ended, dispatch_uid="sittings.game_ended")
def on_game_ended(sender: Any, *, game_id: int, **kwargs: Any) -> None:
    """The game's end committed: its sittings still to come are cancelled, and the one under way ends."""
    if selectors.has_open_sittings(game_id=game_id):
        publish("apps.sittings.tasks.close_sittings_of_game", (game_id,))
