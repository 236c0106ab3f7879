"""The lean path of a program's API request: a token, no cookie, only the middleware such a request needs.

A request to the JSON API (``/api/v1/…``) that authenticates with ``Authorization: Bearer …`` (or
``Token …``) and sends no ``Cookie`` header comes from a program (a bot, the load test), not a browser.
It has no session to load, no CSRF token to check (CSRF rides on the cookies a browser sends by
itself; a token in a header is never sent by itself), no messages, no allauth state, no htmx header and
no user's time zone to activate before the view (the API authenticates inside the view, after any
middleware has run), and WhiteNoise only serves ``/static/``. ``TokenApiMiddleware``, first in
``MIDDLEWARE``, hands such a request to a chain of its own built from ``TOKEN_API_MIDDLEWARE``: what
the middleware that shapes every answer's headers does (security, privacy, CSP, frame options, the
common middleware's slash redirects and ``Content-Length``), in the same order as in ``MIDDLEWARE``,
the first four through ``AnswerHeadersMiddleware``, which learns their headers once per kind of answer.
Every other request, a browser's API call with its session included, goes down the whole chain.

The answers are the same, headers and bytes, as through the whole chain
(``tests/test_tokenapi.py`` compares them); what goes is the work: about a quarter of a
millisecond of CPU a request (``manage.py bench_ladder``, rung ``settings``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, cast

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.locale import LocaleMiddleware
from django.middleware.security import SecurityMiddleware
from django.urls import ResolverMatch, URLResolver, get_resolver
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.module_loading import import_string

from baogame.converters import MAX_ID
from baogame.headers import PrivateResponseMiddleware

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


class _TokenApiHandler(BaseHandler):
    """Django's request handling (URL resolution, view middleware, template responses, exceptions) with
    the middleware of ``TOKEN_API_MIDDLEWARE``, built as ``BaseHandler.load_middleware`` builds a
    synchronous chain."""

    def load_middleware(self, is_async: bool = False) -> None:
        self._view_middleware: list[Any] = []
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        handler = convert_exception_to_response(self._get_response)  # type: ignore[attr-defined]
        for path in reversed(settings.TOKEN_API_MIDDLEWARE):
            middleware = import_string(path)(handler)
            if hasattr(middleware, "process_view"):
                self._view_middleware.insert(0, middleware.process_view)
            if hasattr(middleware, "process_template_response"):
                self._template_response_middleware.append(middleware.process_template_response)
            if hasattr(middleware, "process_exception"):
                self._exception_middleware.append(middleware.process_exception)
            handler = convert_exception_to_response(middleware)
        self._middleware_chain = handler

    def resolve_request(self, request: HttpRequest) -> ResolverMatch:
        """Django's resolution, but that a move's or a read's path before a move (``HOT_PATH``) is
        matched with one regular expression: ``_hot_match``."""
        if not hasattr(request, "urlconf"):
            match = _hot_match(request.path_info)
            if match is not None:
                request.resolver_match = match
                return match
        return super().resolve_request(request)


#: The paths of nearly every token request: a move (``actions``) and the read before it (``legal``).
#: Each shape resolves to one route of the URL map whatever its number, and ``<id:…>`` takes any number
#: of 1-19 digits up to ``MAX_ID``.
HOT_PATH = re.compile(r"/api/v1/games/([0-9]{1,19})/(actions|legal)/")

#: What the URL map resolved the first path of each hot shape to, and the resolver that did:
#: ``{"actions": (resolver, match)}``.
_learnt: dict[str, tuple[URLResolver, ResolverMatch]] = {}


def _hot_match(path: str) -> ResolverMatch | None:
    """The URL map's match for a hot path (``HOT_PATH``), or None for any other path.

    The URL map is walked for the first path of each shape (each nested resolver tries its patterns in
    turn and builds a match of its own); the next paths of the shape get a copy of that match with their own
    number, as the map would give it. A path whose number is out of ``<id:…>``'s range, or a map that
    resolves the shape to anything but one number named ``game_id`` (no other arguments), is walked
    each time. A changed URL map (a new resolver, in tests) is learnt again."""
    found = HOT_PATH.fullmatch(path)
    if found is None:
        return None
    number = int(found[1])
    if number > MAX_ID:
        return None
    resolver = get_resolver()
    learnt = _learnt.get(found[2])
    if learnt is None or learnt[0] is not resolver:
        match = resolver.resolve(path)
        plain = (
            match.args == ()
            and match.kwargs == {"game_id": number}
            and getattr(match, "captured_kwargs", None) == match.kwargs  # (not in django-stubs)
            and not getattr(match, "extra_kwargs", None)
        )
        if not plain:
            return match
        _learnt[found[2]] = (resolver, match)
        learnt = _learnt[found[2]]
    match = ResolverMatch.__new__(ResolverMatch)  # copy.copy's result, without its protocol's steps
    match.__dict__.update(vars(learnt[1]))
    match.kwargs = {"game_id": number}
    match.captured_kwargs = {"game_id": number}  # type: ignore[attr-defined]  # (not in django-stubs)
    return match


class TokenApiMiddleware:
    """First in ``MIDDLEWARE``: a token API request goes down the short chain, any other down the rest.

    The short chain ends in its own URL resolution and view call (not in this chain's next middleware),
    and is called inside this handler's request handling, so the request is logged and closed once."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        handler = _TokenApiHandler()
        handler.load_middleware()
        self.short_chain = handler._middleware_chain

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if token_api_request(request):
            return cast(HttpResponseBase, self.short_chain(request))
        return self.get_response(request)


class TokenLocaleMiddleware:
    """Django's ``LocaleMiddleware`` for the short chain: the language of ``Accept-Language``, looked up
    once per header value and process, with the same ``Vary`` and ``Content-Language`` on the answer.

    A token request has no cookie (no language cookie), its user is not known before the view (the
    API authenticates inside it, so a profile's language never applied to it), and the API's paths
    carry no language prefix. What ``LocaleMiddleware`` does besides (reading the path for a prefix,
    twice, and the URL map's prefix patterns) gives the same answer for every such request. Were the
    URL map to use ``i18n_patterns``, or a request its own ``urlconf``, Django's middleware decides.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.django = LocaleMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if hasattr(request, "urlconf") or is_language_prefix_patterns_used(settings.ROOT_URLCONF)[0]:
            return cast(HttpResponseBase, self.django(request))
        translation.activate(_accepted_language(request.META.get("HTTP_ACCEPT_LANGUAGE", "")))
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        headers = response.headers
        headers["Vary"] = _vary_with_language(headers.get("Vary"))  # patch_vary_headers', once per value
        headers.setdefault("Content-Language", translation.get_language())
        return response


@lru_cache(maxsize=64)
def _vary_with_language(vary: str | None) -> str:
    """The ``Vary`` that ``patch_vary_headers(response, ("Accept-Language",))`` leaves on an answer whose
    ``Vary`` is ``vary`` (None: none)."""
    response = HttpResponse()
    if vary is not None:
        response.headers["Vary"] = vary
    patch_vary_headers(response, ("Accept-Language",))
    return str(response.headers["Vary"])


@lru_cache(maxsize=256)
def _accepted_language(accept: str) -> str:
    """The language Django picks for a request without a language cookie that sends ``accept``."""
    request = HttpRequest()
    request.META["HTTP_ACCEPT_LANGUAGE"] = accept
    return translation.get_language_from_request(request)


@receiver(setting_changed)
def _languages_changed(*, setting: str, **kwargs: Any) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"}:
        _accepted_language.cache_clear()


#: Kinds of answer remembered at most (a header such as ``Location`` makes a kind of its own).
_MEMO_SIZE = 256


class AnswerHeadersMiddleware:
    """The answer headers of ``SecurityMiddleware``, ``PrivateResponseMiddleware``, ``CSPHeaderMiddleware``
    and ``XFrameOptionsMiddleware`` for the short chain, worked out by those four once per kind of answer.

    What they put on an answer depends on the settings, on whether the request came over HTTPS, on
    whether its path is a public one, on which headers the answer already has and on the values of
    its ``Cache-Control`` and ``Vary`` (which they patch), and on nothing else (their source: they set a
    header where it is missing, or patch those two) — for an answer that no view or decorator exempted
    (``xframe_options_exempt``, django-csp's ``_csp_*``) and that is not one of django-csp's debug
    pages. The first such answer of a kind goes through them and the headers they set are remembered;
    the next answers of that kind get those headers set as they are (about 14 µs less a request than
    four middlewares). Any other answer goes through the four each time. ``SecurityMiddleware``'s
    HTTPS redirect runs before the rest of the chain, as when it comes first; the answers are those of
    the whole chain (``tests/test_tokenapi.py``). A change of settings (tests) forgets what was learnt.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.security = SecurityMiddleware(get_response)
        self.private = PrivateResponseMiddleware(get_response)  # type: ignore[arg-type]
        self.csp = CSPHeaderMiddleware(get_response)
        self.xframe = XFrameOptionsMiddleware(get_response)
        self.memo: dict[tuple[Any, ...], list[tuple[str, tuple[str, str]]]] = {}
        self.excluded: bool | None = None
        setting_changed.connect(self._forget, weak=True)

    def _forget(self, **kwargs: Any) -> None:
        self.memo.clear()
        self.excluded = None

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        redirect = self.security.process_request(request)
        if redirect is not None:  # as SecurityMiddleware first in the chain: the inner ones never see it
            return self.security.process_response(request, redirect)
        response = self.get_response(request)
        store = getattr(response.headers, "_store", None)  # Django's ResponseHeaders: {lower: (name, value)}
        if type(store) is not dict or not self._plain(response):
            return self._through(request, response)
        key = (
            request.is_secure(),
            self.private.is_public(request),
            tuple(store),
            store.get("cache-control"),
            store.get("vary"),
        )
        found = self.memo.get(key)
        if found is None:
            before = dict(store)
            response = self._through(request, response)
            store = response.headers._store
            found = [(lower, item) for lower, item in store.items() if before.get(lower) != item]
            if len(self.memo) >= _MEMO_SIZE:
                self.memo.clear()
            self.memo[key] = found
            return response
        store.update(found)  # names and values as the four set them, checked by ResponseHeaders then
        return response

    def _through(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        """The four's ``process_response``, innermost first, as the chain would call them."""
        response = self.xframe.process_response(request, cast(HttpResponse, response))
        response = self.csp.process_response(request, response)
        response = self.private.process_response(request, response)  # type: ignore[arg-type]
        return self.security.process_response(request, response)

    def _plain(self, response: HttpResponseBase) -> bool:
        if self.excluded is None:
            self.excluded = _excluded_prefixes()  # then django-csp's headers depend on the path
        return (
            not self.excluded
            and _OVERRIDES.isdisjoint(vars(response))  # the decorators set these on the answer
            and not _class_overrides(type(response))
            and not (settings.DEBUG and response.status_code in (404, 500))
        )


#: Attributes through which a view or decorator changes a response's policy (django-csp's decorators).
_CSP_OVERRIDES = ("_csp_exempt", "_csp_exempt_ro", "_csp_config", "_csp_config_ro", "_csp_update",
                  "_csp_update_ro", "_csp_replace", "_csp_replace_ro")  # fmt: skip
#: ... and the frame-options exemption (``xframe_options_exempt``).
_OVERRIDES = frozenset({*_CSP_OVERRIDES, "xframe_options_exempt"})


_class_overridden: dict[type, bool] = {}


def _class_overrides(response_class: type) -> bool:
    """Whether a class of answer sets any of ``_OVERRIDES`` itself (no class of Django's or DRF's does)."""
    found = _class_overridden.get(response_class)
    if found is None:
        found = _class_overridden[response_class] = any(hasattr(response_class, n) for n in _OVERRIDES)
    return found


class CSPHeaderMiddleware(CSPMiddleware):
    """django-csp's middleware for the short chain: the policy headers built once, not per answer.

    django-csp builds both policies from the settings on every answer (about 0.05 ms). An API answer
    never uses a nonce nor a per-view policy, so its headers are always those of the first such answer;
    an answer that does (or a debug page, which django-csp leaves alone) gets django-csp's own handling.
    """

    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        self._headers: dict[str, str] | None = None

    def process_request(self, request: HttpRequest) -> None:
        return None  # no nonce: a JSON answer has no script to allow

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        plain = (
            not any(hasattr(response, name) for name in _CSP_OVERRIDES)
            and not (settings.DEBUG and response.status_code in (404, 500))
            and not _excluded_prefixes()
        )
        if not plain:
            super().process_request(request)
            return super().process_response(request, response)
        if self._headers is None:
            built = super().process_response(request, HttpResponse())
            self._headers = {k: v for k, v in built.items() if k.startswith("Content-Security")}
        for name, value in self._headers.items():
            if name not in response:
                response[name] = value
        return response


def _excluded_prefixes() -> bool:
    """Whether either policy exempts some paths (then the headers depend on the path: no caching)."""
    return any(
        (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES")
        for name in ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY")
    )
