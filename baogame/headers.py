"""Response headers for privacy: pages and API answers are per viewer, so no cache may keep them.

Every page and API answer depends on who asks (the session cookie or the ``Authorization`` token): a
seat's cards, its decisions, the names shown. ``Cache-Control: private, no-store`` keeps shared caches
(proxies, CDNs) and the browser's disk from holding them, and ``Vary: Authorization, Cookie`` tells any
cache that ignores that which request headers the answer depends on. Static files (served by
WhiteNoise, which answers before this middleware) and ``/healthz`` (the same for everyone) are left
alone.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers

#: Paths whose answers are the same for every viewer.
PUBLIC_PATHS = ("/healthz",)


class PrivateResponseMiddleware:
    """``Cache-Control: private, no-store`` and ``Vary: Authorization, Cookie`` on per-viewer answers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.public = (*PUBLIC_PATHS, str(settings.STATIC_URL or "/static/"))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.process_response(request, self.get_response(request))

    def is_public(self, request: HttpRequest) -> bool:
        """Whether the answer to ``request`` is the same for every viewer (left alone)."""
        return request.path.startswith(self.public)

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if not self.is_public(request):
            patch_cache_control(response, private=True, no_store=True)
            patch_vary_headers(response, ("Authorization", "Cookie"))
        return response
