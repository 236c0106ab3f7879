"""Outgoing mail whose non-ASCII subject is folded counting the header's name.

Django (5.2) encodes a non-ASCII subject as RFC 2047 encoded words with ``Header(subject).encode()``,
which does not count ``Subject: ``: a long one (a Chinese subject of some twenty characters) comes out
as ``Subject:`` followed by a line break, and some clients show the subject with a leading space. Here
the subject is set as a ``Header`` that knows its name, folded when the message is written, so the
first encoded word stays on the ``Subject:`` line and the subject reads back exactly as it was written.
An ASCII subject is left as Django writes it (folded at spaces, which unfold to themselves).

Every mail the site writes itself is one of these (``apps.notifications.mails.render_mail``, the
plain notices of ``send``, and the account mails of ``apps.accounts.adapter``). Providers reached
through an API (anymail) take the subject as a field and never see these bytes.
"""

from __future__ import annotations

from email.header import Header
from email.message import Message
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives


def fold_subject(message: Message, subject: str, encoding: str | None) -> Message:
    """``message`` with its Subject, when not ASCII, set again as a ``Header`` counting its name.

    Django has already refused a subject with a line break (``BadHeaderError``) before this runs."""
    if subject.isascii():
        return message
    del message["Subject"]
    # Message's own __setitem__: Django's SafeMIME one would encode the Header to a string again.
    folded = Header(subject, encoding or settings.DEFAULT_CHARSET, header_name="Subject")
    Message.__setitem__(message, "Subject", folded)  # type: ignore[misc]  # compat32 takes a Header
    return message


class MailMessage(EmailMultiAlternatives):
    """A text mail with alternatives (HTML), its subject folded properly (module doc)."""

    def message(self, *args: Any, **kwargs: Any) -> Any:
        return fold_subject(super().message(*args, **kwargs), str(self.subject), self.encoding)


class PlainMailMessage(EmailMessage):
    """A text-only mail, its subject folded properly (module doc)."""

    def message(self, *args: Any, **kwargs: Any) -> Any:
        return fold_subject(super().message(*args, **kwargs), str(self.subject), self.encoding)


def send_plain(subject: str, body: str, to: list[str], *, fail_silently: bool = False) -> int:
    """``django.core.mail.send_mail`` from the site's address, with the subject folded properly."""
    return PlainMailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, to).send(fail_silently=fail_silently)
