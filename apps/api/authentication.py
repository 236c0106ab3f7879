"""``Authorization: Bearer <token>`` authentication with personal API tokens."""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth.models import User
from django.db.models import Exists, QuerySet, Subquery
from django.http import HttpRequest
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import HTTP_HEADER_ENCODING, authentication, exceptions
from rest_framework.request import Request

from apps.games import sql, store

from .language import speak_profile_language, takes_profile_language
from .models import ApiToken, token_digest

if TYPE_CHECKING:  # DRF's views import the authentication classes named in the settings: this module
    from rest_framework.views import APIView

    from .throttling import WriteRateThrottle

#: ``last_used_at`` is written at most this often per token, so reads stay read-only.
LAST_USED_RESOLUTION = timedelta(minutes=5)


_DIGEST = "\x1ftoken-digest-marker"


def _tokens(digest: str, *, with_profile: bool = False) -> QuerySet[ApiToken]:
    return ApiToken.objects.select_related("user__profile" if with_profile else "user").filter(digest=digest)


@cache
def _token_select(vendor: str) -> sql.Select:
    """The token-and-user SELECT, compiled once per database kind from ``_tokens``."""
    return sql.compile_select(_tokens(_DIGEST), digest=_DIGEST)


@cache
def _token_profile_select(vendor: str) -> sql.Select:
    """``_token_select`` with the user's profile joined (a user without one: NULLs)."""
    return sql.compile_select(_tokens(_DIGEST, with_profile=True), digest=_DIGEST)


def token_by_digest(digest: str, *, with_profile: bool = False) -> ApiToken | None:
    """The token with this digest and its user (and their profile: ``with_profile``), in one query
    (every API request runs it)."""
    if not sql.hand_sql():
        return _tokens(digest, with_profile=with_profile).first()
    if not with_profile:
        select = _token_select(sql.vendor())
        return _token_loaded(select, sql.fetch(select.sql, [digest]))
    select = _token_profile_select(sql.vendor())
    rows = sql.fetch(select.sql, select.statement(digest=digest).params)
    token = _token_loaded(select, rows)
    if token is not None:  # a missed join caches nothing: ``user.profile`` would then read again
        sql.relate(token.user, "profile", select.load(rows[0], "user__profile"))
    return token


def _token_loaded(select: sql.Select, rows: list[Any]) -> ApiToken | None:
    if not rows:
        return None
    token = cast(ApiToken, select.load(rows[0]))
    sql.relate(token, "user", select.load(rows[0], "user"))  # an inner join: the user is always there
    return token


#: The request attribute holding (digest, token or None) read by ``read_with_token``.
_TOKEN_READ = "api_token_read"


@cache
def _game_by_token_select(vendor: str) -> sql.Select:
    """The game row as ``/legal`` reads it, with the seat of the user whose token has the digest."""
    user = Subquery(ApiToken.objects.filter(digest=_DIGEST).values("user_id")[:1])
    return store.game_row_select(user, digest=_DIGEST)


def read_with_token(request: Request, *, game_id: int) -> list[store.GameRow | None] | None:
    """The token of a ``Bearer`` request and the game row with that token's user's seat, in one round
    trip (one statement), for a read that needs nothing else
    (``/legal``). The token is kept on the request for ``ApiTokenAuthentication``, which still decides
    whether the request is let in; the game's answer (``[row]``, ``[None]``: no such game) is for the
    view, only once it is. None (nothing read) without a well-formed token header or the hand path."""
    digest = bearer_digest(request)
    if digest is None or not sql.hand_sql():
        return None
    token, game = token_and_game(digest, game_id=game_id)
    setattr(request._request, _TOKEN_READ, (digest, token))
    return game


def token_and_game(digest: str, *, game_id: int) -> tuple[ApiToken | None, list[store.GameRow | None]]:
    """The token with this digest and the game row with its user's seat, in one statement
    (``read_with_token``'s read, on the hand path): the token (None: no such token) and the game's
    answer (``[row]``; ``[None]``: no such game), which is for the caller only once the token is
    admitted (``token_admitted``)."""
    token_select, game_select = _token_select(sql.vendor()), _game_by_token_select(sql.vendor())
    game_read = game_select.statement(game_id=game_id, overdue_at=timezone.now(), digest=digest)
    both = sql.Statement(_token_and_game_sql(sql.vendor()), [digest, *game_read.params])
    sql.batch([both])
    [row] = both.rows
    token_row, game_row = row[: token_select.columns], row[token_select.columns :]
    token = _token_loaded(token_select, [token_row] if token_select.found(token_row) else [])
    return token, [store.game_row_loaded(game_select, [game_row] if game_select.found(game_row) else [])]


@cache
def _token_and_game_sql(vendor: str) -> str:
    """The token's SELECT and the game's, answered in one row (``sql.alongside``)."""
    return sql.alongside(_token_select(vendor), _game_by_token_select(vendor))


@cache
def _token_guarded_lock(vendor: str, key: bool) -> sql.Select:
    """The game's locking SELECT (``lock_game``'s), finding the game only while a token with the digest
    exists and its user is active: a request with a bad token never waits for, nor takes, the lock."""
    guard = Exists(ApiToken.objects.filter(digest=_DIGEST, user__is_active=True))
    return store.guarded_lock_select(guard, key, digest=_DIGEST)


class _TokenRead:
    """The part of a read ahead (``store.Ahead``) common to both kinds below: the token's SELECT, sent
    before the lock, and the lock guarded by the token."""

    def __init__(self, digest: str) -> None:
        self.digest = digest
        self.statement = _token_select(sql.vendor()).statement(digest=digest)
        self.values = {"digest": digest}
        self.checks_ran = False

    def lock(self, key: bool) -> sql.Select:
        return _token_guarded_lock(sql.vendor(), key)

    def token(self) -> ApiToken | None:
        """The token as the round trip read it (None: no such token)."""
        return _token_loaded(_token_select(sql.vendor()), self.statement.rows)


class TokenAhead(_TokenRead):
    """A move request's token, read in the round trip that locks the game (``store.Ahead``), not in
    one of its own before it.

    The view (``MoveSubmitApi.initial``) holds back DRF's authentication, permission and throttle
    checks and passes this to ``pipeline.submit_action``; once the round trip is back, ``checked()``
    runs them on the token read, exactly as ``APIView.initial`` would have
    (``ApiTokenAuthentication`` takes the token read here), before the game is looked at: a request
    they refuse is refused with their answer (401, 429), its transaction rolled back. Until then
    nothing about the game is known. They run while the game is locked: with a shared throttle cache
    (``API_CACHE_URL``) its round trip, and a token's ``last_used_at`` write once per five minutes,
    are inside the move's transaction.
    """

    def __init__(self, view: APIView, request: Request, digest: str) -> None:
        super().__init__(digest)
        self.view, self.request = view, request

    def checked(self) -> None:
        setattr(self.request._request, _TOKEN_READ, (self.digest, self.token()))
        self.admit()

    def admit(self) -> None:
        """DRF's checks of ``APIView.initial``, once: a later call does nothing, whether they passed or
        refused (a second authentication would find the request anonymous and say so instead)."""
        if self.checks_ran:
            return
        self.checks_ran = True
        self.view.perform_authentication(self.request)
        self.view.check_permissions(self.request)
        self.view.check_throttles(self.request)

    @property
    def user(self) -> User:
        return cast(User, self.request.user)


class TokenRefused(Exception):
    """A plain move's token or write limit refused it (``PlainTokenAhead``); nothing was changed."""


class _Writer:
    """What ``WriteRateThrottle`` reads of a request: its method and its (authenticated) user."""

    method = "POST"

    def __init__(self, user: User) -> None:
        self.user = user


class PlainTokenAhead(_TokenRead):
    """``TokenAhead`` for a move request served without DRF's request (``apps.api.plainmove``):
    ``checked()`` makes, on the token read, the checks that DRF would make for the view, in DRF's
    order: ``ApiTokenAuthentication``'s (``token_admitted``), ``IsAuthenticated``'s (an admitted token's
    user is authenticated) and the view's one write throttle. A refusal raises ``TokenRefused`` having
    counted nothing (a refused write is not counted, and the token check comes first); the caller then
    asks DRF's view, which refuses it in its own words (401 with ``WWW-Authenticate``, 429 with
    ``Retry-After``).
    """

    def __init__(self, view: APIView, digest: str, throttle: type[WriteRateThrottle] | None) -> None:
        super().__init__(digest)
        self.view, self.throttle = view, throttle
        self.admitted: User | None = None  # the token's user, once the checks let the request in

    def checked(self) -> None:
        self.checks_ran = True
        token = self.token()
        if not token_admitted(token):
            raise TokenRefused
        assert token is not None  # admitted
        if self.throttle is not None and not self.throttle().allow_request(_Writer(token.user), self.view):  # type: ignore[arg-type]
            raise TokenRefused
        self.admitted = token.user

    @property
    def user(self) -> User:
        assert self.admitted is not None, "the user is known once checked() has let the request in"
        return self.admitted


def token_ahead(view: APIView, request: Request) -> TokenAhead | None:
    """A ``TokenAhead`` for a request with well-formed ``Bearer`` credentials, on the hand path; None
    otherwise (the request is authenticated as any other)."""
    digest = bearer_digest(request)
    if digest is None or not sql.hand_sql():
        return None
    return TokenAhead(view, request, digest)


def authorization_header(request: HttpRequest | Request) -> bytes:
    """The request's ``Authorization`` header as bytes, as DRF's ``get_authorization_header`` gives it,
    read from ``META``: DRF's reads ``request.headers``, which builds a dict of every header the first
    time, a noticeable part of a ``/legal`` read's CPU."""
    value = request.META.get("HTTP_AUTHORIZATION", b"")
    return value.encode(HTTP_HEADER_ENCODING) if isinstance(value, str) else value


def bearer_digest(request: HttpRequest | Request) -> str | None:
    """The digest of the request's ``Bearer`` (or ``Token``) credentials; None when it has none, or
    when they are malformed (``ApiTokenAuthentication`` says so)."""
    parts = authorization_header(request).split()
    if len(parts) != 2 or parts[0].decode("latin-1").lower() not in ApiTokenAuthentication.keywords:
        return None
    try:
        return token_digest(parts[1].decode("ascii"))
    except UnicodeDecodeError:
        return None


def token_admitted(token: ApiToken | None) -> bool:
    """Whether a token read by its digest lets its user in (it exists and its user is active); when it
    does, its ``last_used_at`` is brought up to date (at most once per ``LAST_USED_RESOLUTION``)."""
    if token is None or not token.user.is_active:
        return False
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return True


class ApiTokenAuthentication(authentication.BaseAuthentication):
    """Authenticate with a personal API token sent as ``Bearer`` (or ``Token``) credentials; a request
    that names no language of its own is then answered in its user's profile language
    (``apps.api.language``), read with the token."""

    keywords = ("bearer", "token")

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        parts = authorization_header(request).split()
        if not parts or parts[0].decode("latin-1").lower() not in self.keywords:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("the Authorization header must be 'Bearer <token>'")
        try:
            raw = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("invalid token") from None
        digest = token_digest(raw)
        read = getattr(request._request, _TOKEN_READ, None)  # read with the game (``read_with_token``)
        if read is not None and read[0] == digest:  # a move's or a ``/legal`` read's: codes only
            token, speaks = read[1], False
        else:
            speaks = takes_profile_language(request)
            token = token_by_digest(digest, with_profile=speaks)
        if not token_admitted(token):
            raise exceptions.AuthenticationFailed("invalid or revoked token")
        assert token is not None  # admitted
        if speaks:
            speak_profile_language(request, token.user)
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
