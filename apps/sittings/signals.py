"""What the sittings tell higher apps (mails, push): after the transaction commits, but for
``sitting_proposed``, sent inside it so that what it records commits with the proposal."""

from __future__ import annotations

from django.dispatch import Signal

#: Times were proposed (``proposal``, a ``SittingProposal`` of agreed times or a weekly series, not an
#: ad-hoc offer): sent inside the proposal's transaction; a receiver records what it sends there (in a
#: savepoint of its own: a failure of it must not undo the proposal).
sitting_proposed = Signal()
#: Sittings were agreed: ``sittings`` (a list of ``Sitting``, a weekly series in order).
sittings_agreed = Signal()
#: Deliver one message: ``sitting``, ``user_id``, ``kind`` (``SittingReminder.Kind``: invitation, mail
#: or push) and ``series`` (the sittings an invitation covers). Its claim row is already written.
sitting_message = Signal()
#: A sitting started (``sitting``): the game switches to the live control.
sitting_started = Signal()
#: A sitting ended, at its time or early (``sitting``): the game switches back to its own control.
sitting_ended = Signal()
