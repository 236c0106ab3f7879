"""A program's move request served without DRF's request, negotiation, checks and exception handling
around it: the same answer, in fewer steps.

A bot's move (``POST /api/v1/games/<id>/actions/``) is nearly always the same request: a ``Bearer``
token and no cookie, a JSON body ``{"action": {…}}``, ``Accept: application/json`` (or none), a plain
query. For such a request DRF builds a ``Request``, chooses a parser and a renderer, runs the
authentication, permission and throttle classes, parses the body through a decoding reader, builds
the view's parts and handles the answer's exceptions: about a fifth of the move's CPU outside the
move itself (``manage.py bench_ladder``, rung ``drf``). ``with_plain_path`` wraps the view that
``MoveSubmitApi.as_view()`` returns with a function that serves such a request itself:

* the body is parsed as DRF's ``BoundedJSONParser`` parses it (the same decoding, strict constants and
  depth bound), the query by ``QueryInput.quick`` and the action by ``plain_action``;
* the token, the permission and the write limit are checked by ``PlainTokenAhead`` in the round trip
  that locks the game, in DRF's order, as ``TokenAhead`` has DRF check them there;
* the answer is DRF's ``Response``, finished as ``APIView.finalize_response`` finishes it (the JSON
  renderer, ``Vary: Accept``, ``Allow``), and a refusal of the move is made into one by the API's own
  exception handler.

Anything else goes to DRF's view, untouched, before anything was done: another method, content type,
``Accept`` header or ``?format=``, a cookie, no well-formed token, a body that does not parse, a query
or action that needs its serializer, and a refusal found before the token was checked (DRF checks the
token first). A token or write limit that refuses the request sends it to DRF's view too, after the
refusal changed nothing (its transaction rolled back, a refused write not counted): DRF then refuses
it in its own words, with ``WWW-Authenticate`` or ``Retry-After``. Once the checks let a request in,
its answer, a refusal included, is this path's, so that nothing is applied or counted twice.

The answers are DRF's, status, headers and bytes (``tests/api/test_plain_moves.py`` asks both for
each kind of request). ``settings.API_PLAIN_MOVES = False`` sends every request to DRF's view. The
view's documentation (drf-spectacular) and browsable page are DRF's, unchanged.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_vary_headers
from rest_framework.compat import split_header_value  # type: ignore[attr-defined]  # not in the stubs
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils import json

from apps.games import sql
from baogame.jsonlimits import JsonTooDeep, check_depth
from baogame.rules.core import RuleError

from .authentication import ApiTokenAuthentication, PlainTokenAhead, TokenRefused, bearer_digest
from .exceptions import api_exception_handler
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


class _PlainMoves:
    """The plain path of one move view class (``with_plain_path``)."""

    def __init__(self, view_class: type[APIView], initkwargs: dict[str, Any]) -> None:
        self.view_class, self.initkwargs = view_class, initkwargs
        self._parts: tuple[APIView, BaseRenderer, dict[str, str], type[WriteRateThrottle] | None] | None = (
            None
        )
        self._served: bool | None = None  # whether the view's classes are the ones this path stands for

    def _ready(self) -> bool:
        """Whether the view's classes are the ones whose work this path does (worked out once: DRF
        binds them when the class is made); the view's parts made once when they are."""
        if self._served is None:
            cls = self.view_class
            throttles = list(cls.throttle_classes)
            served = (
                list(cls.authentication_classes)[:1] == [ApiTokenAuthentication]  # a Bearer request's
                and list(cls.permission_classes) == [IsAuthenticated]
                and len(throttles) <= 1
                and all(issubclass(throttle, WriteRateThrottle) for throttle in throttles)
                and list(cls.parser_classes) == [BoundedJSONParser]
                and issubclass(cls.content_negotiation_class, ApiContentNegotiation)
                and bool(cls.renderer_classes)
                and cls.renderer_classes[0].media_type == JSON
                and cls.versioning_class is None
                and getattr(cls, "move_answer", None) is not None
            )
            if served:  # the parts first: another thread (the development server's) may read them next
                view = cls(**self.initkwargs)
                headers = dict(view.default_response_headers)
                throttle = cast(type[WriteRateThrottle], throttles[0]) if throttles else None
                self._parts = (view, cls.renderer_classes[0](), headers, throttle)
            self._served = served
        return self._served

    def answer(self, request: HttpRequest, kwargs: dict[str, Any]) -> HttpResponseBase | None:
        """The answer to a plain move request, or None when DRF's view must answer (nothing was done)."""
        meta = request.META
        if (
            request.method != "POST"
            or not settings.API_PLAIN_MOVES
            or kwargs.keys() != {"game_id"}
            or meta.get("HTTP_COOKIE")
            or meta.get("HTTP_ACCEPT") not in PLAIN_ACCEPTS
            or request.content_type != JSON
            or (request.encoding or settings.DEFAULT_CHARSET).lower() not in _UTF8  # DRF's decoding
            or not self._ready()
            or (api_settings.URL_FORMAT_OVERRIDE and api_settings.URL_FORMAT_OVERRIDE in request.GET)
            or not sql.hand_sql()
        ):
            return None
        digest = bearer_digest(request)
        if digest is None:
            return None
        data = _body(request)
        query = self.view_class.QuerySerializer.quick(request.GET)  # type: ignore[attr-defined]
        action = plain_action(data) if type(data) is dict else None
        if query is None or action is None:
            return None
        assert self._parts is not None  # ready
        view, renderer, headers, throttle = self._parts
        ahead = PlainTokenAhead(view, digest, throttle)
        try:
            code, reply = self.view_class.move_answer(  # type: ignore[attr-defined]
                game_id=kwargs["game_id"],
                action=action,
                # META, not ``request.headers`` (which builds a dict of every header): the same value
                key=meta.get("HTTP_IDEMPOTENCY_KEY") or None,
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
            # A refusal once the checks let the request in: the API's exception handler answers it.
            response = api_exception_handler(exc, {"request": _Asker(request, ahead.admitted), "view": view})
            if response is None:
                raise
            response.exception = True  # as APIView.handle_exception marks it
            return self._finished(response, kwargs)
        return self._finished(Response(reply, status=code), kwargs)

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


#: What ``_body`` answers for a body that DRF's view must read.
_UNPARSED = object()


def _body(request: HttpRequest) -> Any:
    """The request's JSON body as ``BoundedJSONParser`` reads it; ``_UNPARSED`` where it would refuse
    it or DRF would read no body (then DRF's view answers)."""
    try:
        raw = request.body
        if not raw:
            return _UNPARSED
        strict = json.strict_constant if BoundedJSONParser.strict else None
        return check_depth(json.loads(raw.decode("utf-8"), parse_constant=strict))
    except (ValueError, RecursionError, JsonTooDeep, RequestDataTooBig):
        return _UNPARSED


def with_plain_path(
    view_class: type[APIView], drf_view: Callable[..., HttpResponseBase]
) -> Callable[..., Any]:
    """``drf_view`` (``view_class.as_view()``), answering a plain move request itself (module doc)."""
    plain = _PlainMoves(view_class, getattr(drf_view, "view_initkwargs", {}))

    @functools.wraps(drf_view)  # the attributes Django and drf-spectacular read: cls, initkwargs, csrf_exempt
    def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = None if args else plain.answer(request, kwargs)
        return drf_view(request, *args, **kwargs) if response is None else response

    return view
