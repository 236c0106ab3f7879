"""Activate the signed-in user's time zone and language for every request."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation


class UserTimezoneMiddleware:
    """Render datetimes in the user's own time zone (Profile.time_zone)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            profile = getattr(user, "profile", None)
            if profile is not None:
                timezone.activate(profile.zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class UserLanguageMiddleware:
    """Speak the signed-in person's own language (``Profile.language``) when they chose one.

    Django's ``LocaleMiddleware`` has already picked the language cookie or the browser's
    ``Accept-Language``; a language saved on the profile wins over both, so that it follows the person
    from one browser to the next (and their mails use it too).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        chosen = ""
        if user is not None and user.is_authenticated:
            profile = getattr(user, "profile", None)
            chosen = getattr(profile, "language", "") or ""
        if chosen and chosen != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(chosen)
            request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        if chosen:
            response.headers["Content-Language"] = request.LANGUAGE_CODE
        return response
