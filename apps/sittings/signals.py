"""What the sittings tell higher apps (mails, push), always after the transaction commits."""

from __future__ import annotations

from django.dispatch import Signal

#: Sittings were agreed: ``sittings`` (a list of ``Sitting``, a weekly series in order).
sittings_agreed = Signal()
#: Deliver one message: ``sitting``, ``user_id``, ``kind`` (``SittingReminder.Kind``: invitation, mail
#: or push) and ``series`` (the sittings an invitation covers). Its claim row is already written.
sitting_message = Signal()
#: A sitting started (``sitting``): the game switches to the live control.
sitting_started = Signal()
#: A sitting ended, at its time or early (``sitting``): the game switches back to its own control.
sitting_ended = Signal()
