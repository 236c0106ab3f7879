"""``Authorization: Bearer <token>`` authentication with personal API tokens."""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from apps.games import sql

from .models import ApiToken, token_digest

#: ``last_used_at`` is written at most this often per token, so reads stay read-only.
LAST_USED_RESOLUTION = timedelta(minutes=5)


_DIGEST = "\x1ftoken-digest-marker"


def _tokens(digest: str) -> QuerySet[ApiToken]:
    return ApiToken.objects.select_related("user").filter(digest=digest)


@cache
def _token_select(vendor: str) -> sql.Select:
    """The token-and-user SELECT, compiled once per database kind from ``_tokens``."""
    return sql.compile_select(_tokens(_DIGEST), digest=_DIGEST)


def token_by_digest(digest: str) -> ApiToken | None:
    """The token with this digest and its user, in one query (every API request runs it)."""
    if not sql.hand_sql():
        return _tokens(digest).first()
    select = _token_select(connection.vendor)
    rows = sql.fetch(select.sql, [digest])
    if not rows:
        return None
    token = cast(ApiToken, select.load(rows[0]))
    token.user = cast(User, select.load(rows[0], "user"))  # an inner join: the user is always there
    return token


class ApiTokenAuthentication(authentication.BaseAuthentication):
    """Authenticate with a personal API token sent as ``Bearer`` (or ``Token``) credentials."""

    keywords = ("bearer", "token")

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].decode("latin-1").lower() not in self.keywords:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("the Authorization header must be 'Bearer <token>'")
        try:
            raw = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("invalid token") from None
        token = token_by_digest(token_digest(raw))
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("invalid or revoked token")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """Documents the token scheme in the OpenAPI schema."""

    target_class = "apps.api.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A personal API token from /api/tokens/: `Authorization: Bearer bg_…`.",
        }
