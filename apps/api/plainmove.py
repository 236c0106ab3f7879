"""A program's move request, and the ``/legal`` read before it, served without DRF's request,
negotiation, checks and exception handling around them: the same answers, in fewer steps.

A bot's move (``POST /api/v1/games/<id>/actions/``) is nearly always the same request: a ``Bearer``
token and no cookie, a JSON body ``{"action": {…}}``, ``Accept: application/json`` (or none), a plain
query. For such a request DRF builds a ``Request``, chooses a parser and a renderer, runs the
authentication, permission and throttle classes, parses the body through a decoding reader, builds
the view's parts and handles the answer's exceptions: about a fifth of the move's CPU outside the
move itself (``manage.py bench_ladder``, rung ``drf``), and a larger share of the read that nearly
every bot makes before it (``GET …/legal/``). ``with_plain_path`` wraps the view that
``MoveSubmitApi.as_view()`` (or ``GameLegalApi.as_view()``) returns with a function that serves such a
request itself:

* a move's body is parsed as DRF's ``BoundedJSONParser`` parses it (the same decoding, strict constants
  and depth bound), the query by ``QueryInput.quick`` and the action by ``plain_action``;
* a move's token, permission and write limit are checked by ``PlainTokenAhead`` in the round trip that
  locks the game, in DRF's order, as ``TokenAhead`` has DRF check them there; a read's token is read
  with the game (``token_and_game``, the statement DRF's view sends) and checked by
  ``ApiTokenAuthentication``'s own check (``token_admitted``), before anything of the game is used (a
  read is not limited);
* the answer is what DRF's ``Response`` would be once ``APIView.finalize_response`` finished it (the
  view's JSON renderer's bytes, ``Vary: Accept``, ``Allow``), made as a plain ``HttpResponse`` without
  the template response's machinery; a refusal is DRF's ``Response`` from the API's own exception
  handler, finished as DRF finishes it.

Anything else goes to DRF's view, untouched, before anything was done: another method, content type,
``Accept`` header or ``?format=``, a cookie, no well-formed token, a body that does not parse, a query
or action that needs its serializer, and a refusal found before the token was checked (DRF checks the
token first). A token or write limit that refuses the request sends it to DRF's view too, after the
refusal changed nothing (its transaction rolled back, a refused write not counted): DRF then refuses
it in its own words, with ``WWW-Authenticate`` or ``Retry-After``. Once the checks let a request in,
its answer, a refusal included, is this path's, so that nothing is applied or counted twice.

The answers are DRF's, status, headers and bytes (``tests/api/test_plain_moves.py`` and
``test_plain_legal.py`` ask both for each kind of request). ``settings.API_PLAIN_MOVES = False`` sends
every request to DRF's view. The views' documentation (drf-spectacular) and browsable pages are DRF's,
unchanged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from json import JSONDecoder
from typing import TYPE_CHECKING, Any, cast

import msgspec
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_vary_headers
from rest_framework.compat import split_header_value  # type: ignore[attr-defined]  # not in the stubs
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils import json
from rest_framework.utils.encoders import JSONEncoder as DRFJSONEncoder

from apps.games import sql
from baogame.jsonlimits import JsonTooDeep, check_depth
from baogame.rules.core import RuleError

from .authentication import (
    ApiTokenAuthentication,
    PlainTokenAhead,
    TokenRefused,
    bearer_digest,
    token_admitted,
    token_and_game,
)
from .exceptions import api_exception_handler
from .lean import LeanApiView
from .negotiation import JSON, PLAIN_ACCEPTS, ApiContentNegotiation
from .parsers import BoundedJSONParser
from .throttling import WriteRateThrottle

if TYPE_CHECKING:
    from rest_framework.views import APIView

#: The character sets in which a body is read here (DRF reads it in its charset, else ``DEFAULT_CHARSET``).
_UTF8 = frozenset({"utf-8", "utf8"})


def plain_action(data: dict[str, Any]) -> dict[str, Any] | None:
    """The action of a move's body ``{"action": {…}}`` as ``MoveSubmitApi.InputSerializer`` validates it
    (a ``DictField`` of any values: a copy with string keys), without making the serializer; None when
    the body is anything else (then the serializer answers, or refuses)."""
    action = data.get("action")
    if type(action) is not dict:
        return None
    return {str(key): value for key, value in action.items()}


class _Asker:
    """What the API's exception handler reads of a request (its language's sources) and its user."""

    def __init__(self, request: HttpRequest, user: Any) -> None:
        self.META, self.COOKIES, self._user = request.META, request.COOKIES, user


#: The parts of a view that the plain path makes once: the view, its JSON renderer, its default
#: headers (``Allow``, ``Vary``) and its write limit.
_Parts = tuple["APIView", BaseRenderer, dict[str, str], "type[WriteRateThrottle] | None"]


class _PlainPath:
    """The plain path of one view class (``with_plain_path``): what a move and a read share. A subclass
    says which requests it serves (``method``, ``_fits``) and answers them (``answer``)."""

    method = ""

    def __init__(self, view_class: type[APIView], initkwargs: dict[str, Any]) -> None:
        self.view_class, self.initkwargs = view_class, initkwargs
        self._parts: _Parts | None = None
        self._served: bool | None = None  # whether the view's classes are the ones this path stands for

    def _fits(self, cls: type[APIView]) -> bool:
        """Whether the view's own classes (its parsers, throttles, shared function) are the ones whose
        work the subclass does."""
        raise NotImplementedError

    def _ready(self) -> bool:
        """Whether the view's classes are the ones whose work this path does (worked out once: DRF
        binds them when the class is made); the view's parts made once when they are."""
        if self._served is None:
            cls = self.view_class
            throttles = list(cls.throttle_classes)
            served = (
                list(cls.authentication_classes)[:1] == [ApiTokenAuthentication]  # a Bearer request's
                and list(cls.permission_classes) == [IsAuthenticated]
                and all(issubclass(throttle, WriteRateThrottle) for throttle in throttles)
                and issubclass(cls.content_negotiation_class, ApiContentNegotiation)
                and bool(cls.renderer_classes)
                and cls.renderer_classes[0].media_type == JSON
                and cls.versioning_class is None
                and self._fits(cls)
            )
            if served:  # the parts first: another thread (the development server's) may read them next
                view = cls(**self.initkwargs)
                headers = dict(view.default_response_headers)
                throttle = cast(type[WriteRateThrottle], throttles[0]) if throttles else None
                self._parts = (view, cls.renderer_classes[0](), headers, throttle)
            self._served = served
        return self._served

    def _plain(self, request: HttpRequest, kwargs: dict[str, Any]) -> str | None:
        """The digest of the request's token when the request is a plain one of this path's method;
        None when DRF's view must answer it (nothing was done)."""
        meta = request.META
        if (
            request.method != self.method
            or not settings.API_PLAIN_MOVES
            or kwargs.keys() != {"game_id"}
            or meta.get("HTTP_COOKIE")
            or meta.get("HTTP_ACCEPT") not in PLAIN_ACCEPTS
            or not self._ready()
            or (api_settings.URL_FORMAT_OVERRIDE and api_settings.URL_FORMAT_OVERRIDE in _query(request))
            or not sql.hand_sql()
        ):
            return None
        return bearer_digest(request)

    def answer(self, request: HttpRequest, kwargs: dict[str, Any]) -> HttpResponseBase | None:
        """The answer to a plain request, or None when DRF's view must answer (nothing was done)."""
        raise NotImplementedError

    def _refusal(self, exc: Exception, request: HttpRequest, user: Any, kwargs: dict[str, Any]) -> Response:
        """A refusal once the checks let the request in, answered by the API's exception handler (the
        exception again when it answers none)."""
        assert self._parts is not None  # ready
        response = api_exception_handler(exc, {"request": _Asker(request, user), "view": self._parts[0]})
        if response is None:
            raise exc
        response.exception = True  # as APIView.handle_exception marks it
        return self._finished(response, kwargs)

    def _replied(self, reply: Any, status: int = 200) -> HttpResponse:
        """The answer ``_finished(Response(reply, status=status))`` gives, bytes and headers, made
        without DRF's ``Response`` (a template response rendered in the handler): the same JSON
        renderer's bytes in a plain ``HttpResponse`` with the view's default headers."""
        assert self._parts is not None  # ready
        _, renderer, headers, _ = self._parts
        response = HttpResponse(rendered_json(renderer, reply), status=status, content_type=JSON)
        for name, value in headers.items():
            response[name] = value
        return response

    def _finished(self, response: Response, kwargs: dict[str, Any]) -> Response:
        """``APIView.finalize_response`` for the negotiated JSON renderer."""
        assert self._parts is not None  # ready
        view, renderer, headers, _ = self._parts
        response.accepted_renderer = renderer
        response.accepted_media_type = JSON
        response.renderer_context = {"view": view, "args": (), "kwargs": kwargs, "request": None}  # type: ignore[attr-defined]
        headers = dict(headers)
        vary = headers.pop("Vary", None)
        if vary is not None:
            patch_vary_headers(response, list(split_header_value(vary)))
        for name, value in headers.items():
            response[name] = value
        return response


#: msgspec's encoder for ``rendered_json``: made once.
_ENCODER = msgspec.json.Encoder()


def _drf_default_json(renderer: BaseRenderer) -> bool:
    """Whether ``renderer`` is DRF's own ``JSONRenderer`` with DRF's default settings (compact, UTF-8
    text, strict): the bytes ``rendered_json`` makes with msgspec then."""
    return (
        type(renderer) is JSONRenderer
        and renderer.encoder_class is DRFJSONEncoder
        and api_settings.COMPACT_JSON
        and api_settings.UNICODE_JSON
        and api_settings.STRICT_JSON
    )


def rendered_json(renderer: BaseRenderer, reply: Any) -> bytes:
    """``renderer.render(reply, JSON, {})``, the bytes of DRF's ``JSONRenderer``, made by msgspec in a
    tenth of the time when the renderer is DRF's with its default settings.

    For plain data (dicts with string or integer keys, lists, tuples, strings and their subclasses,
    ``TextChoices`` members, integers, booleans, None) msgspec writes the same bytes as DRF's
    ``json.dumps(…, ensure_ascii=False, allow_nan=False, separators=(",", ":"))``, but for U+2028 and
    U+2029, which DRF escapes (``\\u2028``) and so does this. A move's reply and a ``/legal`` read are
    such data: the version, numbers and status, and the engine's events, decisions and actions, which
    the engine contract keeps to dicts, lists, integers and strings (DESIGN.md, "State is plain data").
    Anything msgspec cannot encode (an integer beyond 64 bits, an unknown type) goes to the renderer;
    ``tests/api/test_plain_json.py`` compares the two on both games' replies."""
    if _drf_default_json(renderer):
        try:
            encoded = _ENCODER.encode(reply)
        except (TypeError, OverflowError, msgspec.EncodeError):
            pass
        else:
            if b"\xe2\x80" in encoded:  # U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8
                encoded = encoded.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
            return encoded
    rendered = renderer.render(reply, JSON, {})
    return rendered.encode() if isinstance(rendered, str) else rendered


class _PlainMoves(_PlainPath):
    """The plain path of a move: ``POST …/actions/`` with a JSON body (module doc)."""

    method = "POST"

    def _fits(self, cls: type[APIView]) -> bool:
        return (
            len(cls.throttle_classes) <= 1
            and list(cls.parser_classes) == [BoundedJSONParser]
            and getattr(cls, "move_answer", None) is not None
        )

    def answer(self, request: HttpRequest, kwargs: dict[str, Any]) -> HttpResponseBase | None:
        if (
            request.content_type != JSON
            or (request.encoding or settings.DEFAULT_CHARSET).lower() not in _UTF8  # DRF's decoding
        ):
            return None
        digest = self._plain(request, kwargs)
        if digest is None:
            return None
        data = _body(request)
        query = self.view_class.QuerySerializer.quick(_query(request))  # type: ignore[attr-defined]
        action = plain_action(data) if type(data) is dict else None
        if query is None or action is None:
            return None
        assert self._parts is not None  # ready
        view, _, _, throttle = self._parts
        ahead = PlainTokenAhead(view, digest, throttle)
        try:
            code, reply = self.view_class.move_answer(  # type: ignore[attr-defined]
                game_id=kwargs["game_id"],
                action=action,
                # META, not ``request.headers`` (which builds a dict of every header): the same value
                key=request.META.get("HTTP_IDEMPOTENCY_KEY") or None,
                ahead=ahead,
                legal=query["legal"],
                fields=query.get("fields"),
            )
        except TokenRefused:
            return None
        except Exception as exc:
            if not ahead.checks_ran:
                if isinstance(exc, RuleError):  # refused before the token was looked at: DRF checks it first
                    return None
                raise
            return self._refusal(exc, request, ahead.admitted, kwargs)
        return self._replied(reply, code)


class _PlainLegal(_PlainPath):
    """The plain path of the read before a move: ``GET …/legal/`` (module doc). A read is not limited
    (the write limit lets every read through), so its checks are the token's and the permission's."""

    method = "GET"

    def _fits(self, cls: type[APIView]) -> bool:
        return issubclass(cls, LeanApiView) and getattr(cls, "legal_answer", None) is not None

    def answer(self, request: HttpRequest, kwargs: dict[str, Any]) -> HttpResponseBase | None:
        digest = self._plain(request, kwargs)
        if digest is None:
            return None
        query = self.view_class.FilterSerializer.quick(_query(request))  # type: ignore[attr-defined]
        if query is None:
            return None
        token, read = token_and_game(digest, game_id=kwargs["game_id"])
        if not token_admitted(token):  # DRF's view reads it again and refuses it: 401
            return None
        assert token is not None  # admitted
        try:
            reply = self.view_class.legal_answer(  # type: ignore[attr-defined]
                game_id=kwargs["game_id"],
                user=token.user,
                read=read,
                offset=query["offset"],
                limit=query["limit"],
            )
        except Exception as exc:  # noqa: BLE001 - the handler answers what it knows, raises the rest
            return self._refusal(exc, request, token.user, kwargs)
        return self._replied(reply)


#: A query string that ``QueryDict`` reads as its ``&``-separated ``name=value`` pairs as they are: no
#: escapes (``%``, ``+``) and nothing to decode (ASCII).
_SIMPLE_QUERY = re.compile(r"[A-Za-z0-9_.~=&-]*")


def _query(request: HttpRequest) -> Mapping[str, str]:
    """``request.GET`` as ``QueryInput.quick`` reads it (each name's last value): for a plain query such
    as ``legal=30``, a dict of its pairs, without the ``QueryDict`` (a tenth of parsing the request);
    else ``request.GET`` itself (which refuses more pairs than ``DATA_UPLOAD_MAX_NUMBER_FIELDS``)."""
    raw = request.META.get("QUERY_STRING", "")
    limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    if (
        "GET" in vars(request)  # read already
        or _SIMPLE_QUERY.fullmatch(raw) is None
        or (limit is not None and raw and raw.count("&") >= limit)
    ):
        return request.GET
    found: dict[str, str] = {}
    for pair in raw.split("&"):
        if pair:  # ``parse_qsl`` skips empty pairs, and reads ``name`` as ``name=``
            name, _, value = pair.partition("=")
            found[name] = value
    return found


#: What ``_body`` answers for a body that DRF's view must read.
_UNPARSED = object()

#: ``json.loads(text, parse_constant=…)`` makes a decoder for each call given a keyword: made once here,
#: for DRF's strict reading (``NaN``, ``Infinity`` refused) and for the lenient one.
_DECODERS = {
    True: JSONDecoder(parse_constant=json.strict_constant),
    False: JSONDecoder(),
}


def _body(request: HttpRequest) -> Any:
    """The request's JSON body as ``BoundedJSONParser`` reads it; ``_UNPARSED`` where it would refuse
    it or DRF would read no body (then DRF's view answers)."""
    try:
        raw = request.body
        if not raw:
            return _UNPARSED
        text = raw.decode("utf-8")
        return check_depth(_DECODERS[bool(BoundedJSONParser.strict)].decode(text), text)
    except (ValueError, RecursionError, JsonTooDeep, RequestDataTooBig):
        return _UNPARSED


def with_plain_path(
    view_class: type[APIView], drf_view: Callable[..., HttpResponseBase]
) -> Callable[..., Any]:
    """``drf_view`` (``view_class.as_view()``), answering a plain move or ``/legal`` request itself
    (module doc): a view with ``move_answer`` takes moves, one with ``legal_answer`` the read."""
    initkwargs = getattr(drf_view, "view_initkwargs", {})
    plain: _PlainPath = (
        _PlainMoves(view_class, initkwargs)
        if getattr(view_class, "move_answer", None) is not None
        else _PlainLegal(view_class, initkwargs)
    )

    @functools.wraps(drf_view)  # the attributes Django and drf-spectacular read: cls, initkwargs, csrf_exempt
    def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = None if args else plain.answer(request, kwargs)
        return drf_view(request, *args, **kwargs) if response is None else response

    return view
