"""What the sittings hear from the games: a game's end closes its sittings.

The receiver only queues a task (``baogame.celery.publish`` logs a broker failure instead of raising it
into the committed end), and only for a game with a sitting to close: one indexed look-up at a game's
end (rare), none on the move path. The sittings' own beat (``lifecycle.advance``) closes them if the
task is lost, or if a sitting was agreed as the game ended, after the look-up.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError
from django.dispatch import receiver

from apps.games.signals import game_ended
from baogame.celery import publish

from . import selectors

log = logging.getLogger(__name__)


@receiver(game_ended, dispatch_uid="sittings.game_ended")
def on_game_ended(sender: Any, *, game_id: int, **kwargs: Any) -> None:
    """The game's end committed: its sittings still to come are cancelled, and the one under way ends.
    A look-up that fails (the database's hiccup) must not turn the committed end into an error: the
    task is then queued anyway (it finds out itself), and the beat is there if that is lost too."""
    try:
        wanted = selectors.has_open_sittings(game_id=game_id)
    except DatabaseError:
        log.warning("could not look up game %s's open sittings at its end; queueing their closing", game_id)
        wanted = True
    if wanted:
        publish("apps.sittings.tasks.close_sittings_of_game", (game_id,))
