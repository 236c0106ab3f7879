"""Per-user rate limits on writes (POST/PUT/PATCH/DELETE), answered with 429 and ``Retry-After``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:  # rest_framework.views imports the throttle classes named in settings
    from rest_framework.request import Request
    from rest_framework.views import APIView

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class WriteRateThrottle(SimpleRateThrottle):
    """``settings.API_WRITE_RATE`` writes per user (per client address when anonymous)."""

    scope = "api_write"

    def __init__(self) -> None:
        from django.core.cache import caches

        self.cache = caches[getattr(settings, "API_THROTTLE_CACHE", "default")]
        super().__init__()

    def get_rate(self) -> str | None:
        rate = getattr(settings, "API_WRITE_RATE", None)
        return None if not rate or rate.lower() in {"off", "none"} else rate

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        # Re-read the rate on every request so tests and operators can change it without a restart.
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
