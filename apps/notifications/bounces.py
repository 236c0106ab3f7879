"""Bounces and complaints: stop mailing an address that bounced for good or reported us as spam.

Providers tell us through anymail's tracking webhook (``/mail/tracking/``, the ``tracking`` signal);
the development mailbox simulates the same events. A hard bounce or a complaint suppresses the
address: notifications and answers to it are skipped, and the site shows its owner a banner asking
them to fix it. A soft bounce (``deferred``: the receiving server said "try later") suppresses
nothing: the provider keeps retrying that mail, and later mails go out as usual.
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import User

from .models import MailSuppression

log = logging.getLogger(__name__)

#: anymail's normalised ``event_type`` values that stop mail to the address, and why.
SUPPRESSING_EVENTS = {
    "bounced": MailSuppression.Reason.HARD_BOUNCE,
    "complained": MailSuppression.Reason.COMPLAINT,
}
#: ``rejected`` is a hard bounce only when the provider says the address itself is bad.
HARD_REJECT_REASONS = frozenset({"invalid", "bounced"})


def _normal(email: str) -> str:
    return email.strip().lower()


def tracking_event_record(
    *, event_type: str, recipient: str, reject_reason: str | None = None, description: str = ""
) -> MailSuppression | None:
    """Record one delivery event of a provider; returns the suppression it caused, if any."""
    reason = SUPPRESSING_EVENTS.get(event_type)
    if event_type == "rejected" and reject_reason in HARD_REJECT_REASONS:
        reason = MailSuppression.Reason.HARD_BOUNCE
    if reason is None or not recipient.strip():
        if event_type == "deferred":
            log.info("soft bounce for a recipient: the provider retries")
        return None
    suppression, created = MailSuppression.objects.get_or_create(
        email=_normal(recipient), defaults={"reason": reason, "detail": description[:300]}
    )
    if created:
        log.warning("mail suppressed for user address %s: %s", suppression.pk, reason)
    return suppression


def address_suppressed(email: str) -> MailSuppression | None:
    """Why we no longer mail ``email`` (None: we do)."""
    if not email:
        return None
    return MailSuppression.objects.filter(email=_normal(email)).first()


def suppression_clear(*, user: User) -> bool:
    """The player says their address works again: mail it again. Returns whether anything was cleared."""
    deleted, _ = MailSuppression.objects.filter(email=_normal(user.email)).delete()
    return bool(deleted)


def mail_problem(request: object) -> dict[str, MailSuppression | None]:
    """Template context: why mail to the signed-in player's address has stopped, for the site banner."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.email:
        return {"mail_problem": None}
    return {"mail_problem": address_suppressed(user.email)}
