"""django-allauth's account adapter: a new username may not be a name another player shows as; a
confirmed address that did not sign anybody in says what to do next; account mails (confirmation,
password reset) speak their recipient's language."""

from __future__ import annotations

import html
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from baogame.mailmessage import MailMessage, PlainMailMessage

from .language import LANGUAGE_CODES
from .names import username_problem

#: allauth's notice after a confirmation ("You have confirmed …").
CONFIRMED_NOTICE = "account/messages/email_confirmed.txt"


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        problem = username_problem(username=username)
        if problem:
            raise forms.ValidationError(problem, code="display_name_taken")
        return username

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """Render and send an account mail in its recipient's language: the one on their profile,
        else the language of the page they asked from (an account mail always answers its recipient's
        own request: signing up, adding an address, resetting a password), else English."""
        with translation.override(self._recipient_language(email, context.get("user"))):
            super().send_mail(template_prefix, email, context)

    def render_mail(
        self, template_prefix: str, email: str | list[str], context: dict[str, Any], headers: Any = None
    ) -> EmailMessage:
        """allauth's mail, as a ``baogame.mailmessage`` class so that a long non-ASCII (Chinese)
        subject is folded properly: the classes add no state, only how the subject is written."""
        message = super().render_mail(template_prefix, email, context, headers)
        message.__class__ = MailMessage if isinstance(message, EmailMultiAlternatives) else PlainMailMessage
        return message

    def _recipient_language(self, email: str, user: Any) -> str:
        if user is None:
            user = get_user_model().objects.filter(email__iexact=email).select_related("profile").first()
        profile = getattr(user, "profile", None) if user is not None else None
        chosen = getattr(profile, "language", "") or ""
        if chosen in LANGUAGE_CODES:
            return chosen
        current = translation.get_language() or ""
        return current if current in LANGUAGE_CODES else settings.LANGUAGE_CODE

    def get_email_verification_redirect_url(self, email_address: Any) -> str:
        """After a confirmation: signed in (the link was opened in the session that signed up), the
        usual page; otherwise the login page, with a message that says why and what to do."""
        url = str(super().get_email_verification_redirect_url(email_address))
        if not self.request.user.is_authenticated:
            # This notice says what allauth's "You have confirmed …" says, and what to do next:
            # it replaces that one rather than repeating it.
            confirmed = render_to_string(CONFIRMED_NOTICE, {"email": email_address.email}, self.request)
            _drop_notice(self.request, html.unescape(confirmed.strip()))
            messages.info(
                self.request,
                _(
                    "%(email)s is confirmed. To play, sign in below with your username or this address "
                    "and your password. (Confirming signs you in only in the browser you signed up with, "
                    "within a few hours of signing up.)"
                )
                % {"email": email_address.email},
            )
        return url


def _drop_notice(request: HttpRequest, text: str) -> None:
    """Take the notice ``text`` out of those queued for ``request``'s next page, keeping every other
    (reading the queue consumes it, so the others are queued again in their order)."""
    kept = [notice for notice in messages.get_messages(request) if notice.message != text]
    for notice in kept:
        messages.add_message(request, notice.level, notice.message, extra_tags=notice.extra_tags)
