"""Middleware for browsers only: sessions, the session's user, messages and htmx are skipped for JSON API
requests that authenticate with a token and send no cookie.

Such a request (a bot or a program: ``/api/v1/…``, ``Authorization: Bearer …``, no ``Cookie`` header)
has no session to load, no message or htmx header to read, and DRF authenticates it itself. These
classes are Django's (and django-htmx's) middleware, subclassed so that the admin's system checks still
find them, that pass such a request straight on; every other request, a browser's API call with its
session included, goes through them as before. Django's CSRF middleware stays as it is: ``check
--deploy`` looks for it by name, and it costs next to nothing on DRF's CSRF-exempt views. The security,
privacy and CSP headers are set by middleware outside these, so every answer keeps them.
"""

from __future__ import annotations

from collections.abc import Awaitable

from django.contrib.auth.middleware import AuthenticationMiddleware as _AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware as _MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware as _SessionMiddleware
from django.http import HttpRequest, HttpResponseBase
from django_htmx.middleware import HtmxMiddleware as _HtmxMiddleware

#: The JSON API's paths (the token and bot pages under /api/ are browser pages).
API_PREFIX = "/api/v1/"
TOKEN_KEYWORDS = frozenset({"bearer", "token"})


def token_api_request(request: HttpRequest) -> bool:
    """A JSON API request that authenticates with a token and carries no cookie (a program, not a browser)."""
    meta = request.META
    if meta.get("HTTP_COOKIE") or not request.path_info.startswith(API_PREFIX):
        return False
    keyword, _, _ = meta.get("HTTP_AUTHORIZATION", "").partition(" ")
    return keyword.lower() in TOKEN_KEYWORDS


class SessionMiddleware(_SessionMiddleware):
    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if token_api_request(request):
            return self.get_response(request)
        return super().__call__(request)


class AuthenticationMiddleware(_AuthenticationMiddleware):
    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if token_api_request(request):
            return self.get_response(request)
        return super().__call__(request)


class MessageMiddleware(_MessageMiddleware):
    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if token_api_request(request):
            return self.get_response(request)
        return super().__call__(request)


class HtmxMiddleware(_HtmxMiddleware):
    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if token_api_request(request):
            return self.get_response(request)
        return super().__call__(request)
