"""What the sittings tell higher apps (mails, push): sent after the transaction commits."""

from __future__ import annotations

from django.dispatch import Signal

#: A sitting was agreed: ``sitting`` (a ``Sitting``). Receivers send invitations.
sitting_agreed = Signal()
#: A sitting is about to start: ``sitting``, ``user``. Push receivers send the reminder push.
sitting_reminder_push = Signal()
