"""Per-user rate limits on writes (POST/PUT/PATCH/DELETE), answered with 429 and ``Retry-After``.

The counters live in a cache (Redis in production). The limit protects the site; it must never take
it down: when that cache cannot be reached, writes go through unthrottled and a warning is logged.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.conf import settings
from redis.exceptions import RedisError
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:  # rest_framework.views imports the throttle classes named in settings
    from rest_framework.request import Request
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: What a cache backend raises when its server is down or too slow (redis-py; sockets).
CACHE_ERRORS = (RedisError, OSError)


class WriteRateThrottle(SimpleRateThrottle):
    """``settings.API_WRITE_RATE`` writes per user (per client address when anonymous)."""

    scope = "api_write"

    def __init__(self) -> None:
        from django.core.cache import caches

        self.cache = caches[settings.API_THROTTLE_CACHE]
        super().__init__()

    def get_rate(self) -> str | None:
        rate: str = settings.API_WRITE_RATE
        return None if not rate or rate.lower() in {"off", "none"} else rate

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        # Re-read the rate on every request so tests and operators can change it without a restart.
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as exc:  # fail open: an unthrottled write beats a 500 for every write
            logger.warning("write throttle cache unavailable, request allowed unthrottled: %r", exc)
            return True

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
