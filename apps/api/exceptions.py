"""Every API error as ``{"code", "detail"}`` with a fitting HTTP status.

The ``code`` is a stable English identifier; the ``detail`` is for people, in the request's language:
the one its ``Accept-Language`` (or a browser session's language) asks for, else the token user's
profile language, else English. In English it is the refusal's own message; in another language the
sentence for its code (``apps.games.errortext``).
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, RequestDataTooBig
from django.http import Http404
from django.utils import translation
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from apps.accounts.language import names_language, profile_language
from apps.games.errors import ServiceError
from apps.games.errortext import code_detail, error_detail
from baogame.rules.core import RuleError

#: Stable codes for DRF's own exceptions (their ``default_code`` is not always what a client wants).
_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "parse_error",
    exceptions.ValidationError: "invalid",
}


def _flatten(errors: Any, path: str = "") -> list[str]:
    """``{"a": ["bad"], "b": {"c": ["worse"]}}`` -> ``["a: bad", "b.c: worse"]``."""
    if isinstance(errors, dict):
        out: list[str] = []
        for key, value in errors.items():
            out += _flatten(value, f"{path}.{key}" if path else str(key))
        return out
    if isinstance(errors, list):
        return [line for item in errors for line in _flatten(item, path)]
    return [f"{path}: {errors}" if path and path != "non_field_errors" else str(errors)]


def _profile_language(context: dict[str, Any]) -> str | None:
    """The token user's profile language, when the request named no language of its own.

    A browser session's language is already active (the page middleware put the profile's first), and
    so is a token request's once its token let it in (``apps.api.language``), but for a move's and a
    ``/legal`` read's, whose answers are codes: their refusals get it here.
    """
    request = context.get("request")
    if request is None or names_language(request):
        return None
    user = getattr(request, "_user", None)  # as authenticated (never authenticates again)
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return profile_language(user)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: rule and service refusals, DRF errors, 404s, all one shape, with
    the ``detail`` in the request's language."""
    language = _profile_language(context)
    with translation.override(language) if language else nullcontext():
        return _handle(exc, context)


def _handle(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        http_status: int = status.HTTP_400_BAD_REQUEST
        if isinstance(exc, ServiceError):
            http_status = exc.status
        return Response({"code": exc.code, "detail": error_detail(exc)}, status=http_status)
    if isinstance(exc, RequestDataTooBig):  # Django's own answer would be an HTML 400
        english = f"the request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes"
        detail = code_detail("request_too_large", english)
        return Response({"code": "request_too_large", "detail": detail}, status=413)
    if isinstance(exc, (Http404, ObjectDoesNotExist)):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)  # keeps WWW-Authenticate, Retry-After, Allow
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    code = next((c for klass, c in _CODES.items() if isinstance(exc, klass)), exc.default_code)
    if isinstance(exc, exceptions.ValidationError):
        lines = _flatten(exc.detail)
        response.data = {"code": code, "detail": "; ".join(lines) or "invalid input", "errors": exc.detail}
    else:
        response.data = {"code": str(code), "detail": code_detail(str(code), str(exc.detail))}
    return response
