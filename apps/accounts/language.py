"""The language switch on every page: for a visitor a cookie, for a signed-in person their profile too."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from .models import Profile

LANGUAGE_CODES = frozenset(code for code, _ in settings.LANGUAGES)


@require_POST
def switch_language(request: HttpRequest) -> HttpResponse:
    """Set the page language (Django's ``set_language``: the cookie, then back to ``next``); a signed-in
    person's choice is also kept on their profile, so that it follows them to other browsers and mails."""
    response = django_set_language(request)
    code = request.POST.get("language", "")
    if code in LANGUAGE_CODES and request.user.is_authenticated:
        Profile.objects.filter(user=request.user).update(language=code)
    return response


def profile_language(user: Any) -> str | None:
    """The language ``user`` chose on their profile; None when they chose none (or have no profile)."""
    profile = getattr(user, "profile", None) if user is not None else None
    chosen = getattr(profile, "language", "") or ""
    return chosen if chosen in LANGUAGE_CODES else None


def names_language(request: Any) -> bool:
    """Whether a request names its language itself: an ``Accept-Language`` header, or the language
    switch's cookie. An API request that names none is answered in its token user's profile language
    (``apps.api.language``)."""
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return bool(request.META.get("HTTP_ACCEPT_LANGUAGE") or cookie)


def mail_language(user: Any) -> str:
    """The language of every mail to ``user``: the one on their profile, else the site's default
    (English). Chosen per recipient, never from the request that caused the mail."""
    return profile_language(user) or settings.LANGUAGE_CODE
