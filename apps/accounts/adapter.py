"""django-allauth's account adapter: a new username may not be a name another player shows as."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms

from .names import username_problem


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        problem = username_problem(username=username)
        if problem:
            raise forms.ValidationError(problem, code="display_name_taken")
        return username
