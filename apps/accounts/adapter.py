"""django-allauth's account adapter: a new username may not be a name another player shows as; a
confirmed address that did not sign anybody in says what to do next."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.contrib import messages

from .names import username_problem


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        problem = username_problem(username=username)
        if problem:
            raise forms.ValidationError(problem, code="display_name_taken")
        return username

    def get_email_verification_redirect_url(self, email_address: Any) -> str:
        """After a confirmation: signed in (the link was opened in the session that signed up), the
        usual page; otherwise the login page, with a message that says why and what to do."""
        url = str(super().get_email_verification_redirect_url(email_address))
        if not self.request.user.is_authenticated:
            messages.info(
                self.request,
                f"{email_address.email} is confirmed. To play, sign in below with your username or this "
                "address and your password. (Confirming signs you in only in the browser you signed up "
                "with, within a few hours of signing up.)",
            )
        return url
