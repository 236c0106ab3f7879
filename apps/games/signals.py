"""Signals the games app sends after a commit; other apps (notifications, leagues) listen.

Both are sent from ``transaction.on_commit``, so receivers always see committed rows.
"""

from django.dispatch import Signal

#: A move was applied. kwargs: ``game_id``, ``version`` (after the move), ``move_id``, ``opened``
#: (list of (seat, kind, decision_id) opened by this move), ``by_timeout``.
move_applied = Signal()

#: A game ended (finished, adjudicated or aborted). kwargs: ``game_id``.
game_ended = Signal()

#: A game started (every seat taken, first deal made). kwargs: ``game_id``.
game_started = Signal()
