"""A JSON 404 for unknown paths under /api/v1/."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from apps.games.errortext import code_detail


@csrf_exempt  # nothing is changed here; without this an unknown POST path would answer an HTML 403
def not_found(request: HttpRequest) -> JsonResponse:
    """Unknown API path: the usual error body."""
    detail = code_detail("not_found", "no such endpoint")
    return JsonResponse({"code": "not_found", "detail": detail}, status=404)
