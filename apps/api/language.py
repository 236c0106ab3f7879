"""The language of an API answer's words: the one the request's ``Accept-Language`` header (or a
browser's language cookie) asks for, else the token user's profile language, else English.

The middleware picks the header's language before the view (``LocaleMiddleware``; on a program's short
chain ``baogame.tokenapi.TokenLocaleMiddleware``), but a token's user is only known inside the view,
once DRF authenticates the request. So ``ApiTokenAuthentication`` reads the profile with the token, in
the same statement, when the request names no language, and activates its language once the token let
the request in (``speak_profile_language``): every word of the answer (an order's ``text``, a game's
``length_text``, an error's ``detail``) and its ``Content-Language`` are then in it. A browser session
needs none of this: its page middleware already put the profile's language first.

A view whose answers are codes only (``codes_only = True``: a move, the ``/legal`` read before it, on
the hot path) is left out: its token is read without the profile and nothing is activated. A refusal
there gets the profile's language from the exception handler (``apps.api.exceptions``).
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from rest_framework.request import Request

from apps.accounts.language import names_language, profile_language


def takes_profile_language(request: Request) -> bool:
    """Whether a token request's answer is to be in its user's profile language: it names no language
    of its own, and its view answers in words (not ``codes_only``)."""
    view = request.parser_context.get("view")
    return not getattr(view, "codes_only", False) and not names_language(request)


def speak_profile_language(request: Request, user: Any) -> None:
    """Activate ``user``'s profile language for the rest of the request, as the page middleware does for
    a signed-in person (``apps.accounts.middleware.UserLanguageMiddleware``); nothing when they chose
    none (the middleware's choice stands: English)."""
    chosen = profile_language(user)
    if chosen is not None:
        translation.activate(chosen)
        request._request.LANGUAGE_CODE = translation.get_language()
