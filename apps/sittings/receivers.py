"""What the sittings hear from the games: a game's end closes its sittings.

The receiver only queues a task (``baogame.celery.publish`` logs a broker failure instead of raising it
into the committed end); the sittings' own beat (``lifecycle.advance``) closes them if it is lost.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from apps.games.signals import game_ended
from baogame.celery import publish


@receiver(game_ended, dispatch_uid="sittings.game_ended")
def on_game_ended(sender: Any, *, game_id: int, **kwargs: Any) -> None:
    """The game's end committed: its sittings still to come are cancelled, and the one under way ends."""
    publish("apps.sittings.tasks.close_sittings_of_game", (game_id,))
