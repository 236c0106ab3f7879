"""Per-user rate limits on writes (POST/PUT/PATCH/DELETE), answered with 429 and ``Retry-After``.

``API_WRITE_RATE = "N/period"`` allows a burst of N writes and then one every period/N: the generic cell
rate algorithm (GCRA), which keeps one number per user, the time at which the user's allowance is full
again. DRF's own throttle keeps the time of each of the last N writes and reads and writes that whole
list on every write, two round trips to a shared cache (Redis in production) and a list pickled each
way; here a write costs one round trip (a Lua script that reads and updates the number where it lies)
or, with the per-process default cache, none.

The counters live in a cache (Redis in production). The limit protects the site; it must never take
it down: when that cache cannot be reached, writes go through unthrottled and a warning is logged.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:  # rest_framework.views imports the throttle classes named in settings
    from rest_framework.request import Request
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: What a cache backend raises when its server is down or too slow (redis-py; sockets).
CACHE_ERRORS = (RedisError, OSError)

#: GCRA in Redis, in one round trip: KEYS[1] holds the time at which the allowance is full again
#: (``tat``); ARGV: now, the interval between writes, the burst tolerance (seconds). Returns the seconds
#: to wait, or -1 when the write is allowed (and counted).
GCRA_SCRIPT = """
local tat = tonumber(redis.call('GET', KEYS[1])) or 0
local now, interval, tolerance = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if tat < now then tat = now end
if tat - now > tolerance then return tostring(tat - now - tolerance) end
redis.call('SET', KEYS[1], tostring(tat + interval), 'PX', math.ceil((tat + interval - now) * 1000))
return '-1'
"""

_scripts: dict[int, Any] = {}


class WriteRateThrottle(SimpleRateThrottle):
    """``settings.API_WRITE_RATE`` writes per user (per client address when anonymous)."""

    scope = "api_write"
    #: The setting that holds the rate (read on every request), and what the log calls this throttle.
    rate_setting = "API_WRITE_RATE"
    counts = "write"

    def __init__(self) -> None:
        from django.core.cache import caches

        self.cache = caches[settings.API_THROTTLE_CACHE]
        self.wait_seconds: float | None = None
        super().__init__()

    def get_rate(self) -> str | None:
        rate: str = getattr(settings, self.rate_setting)
        return None if not rate or rate.lower() in {"off", "none"} else rate

    def applies(self, request: Request) -> bool:
        """Whether this request counts at all: writes do, reads are free."""
        return request.method not in SAFE_METHODS

    def allow_request(self, request: Request, view: APIView) -> bool:
        if not self.applies(request):
            return True
        # Re-read the rate on every request so tests and operators can change it without a restart.
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        count, period = self.parse_rate(self.rate)
        assert count is not None and period is not None  # a rate was given
        self.num_requests, self.duration = count, period
        interval = period / count
        tolerance = period - interval  # a burst of ``count`` requests, then one per interval
        key = self.get_cache_key(request, view)
        try:
            wait = self._take(key, self.timer(), interval, tolerance)
        except CACHE_ERRORS as exc:  # fail open: an unthrottled request beats a 500 for every request
            logger.warning("%s throttle cache unavailable, request allowed unthrottled: %r", self.counts, exc)
            return True
        self.wait_seconds = wait
        return wait is None

    def _take(self, key: str, now: float, interval: float, tolerance: float) -> float | None:
        """Count one write for ``key``; None when it is allowed, else the seconds until it would be."""
        if isinstance(self.cache, RedisCache):
            client = self.cache._cache.get_client(key, write=True)
            script = _scripts.get(id(client))
            if script is None:
                script = _scripts[id(client)] = client.register_script(GCRA_SCRIPT)
            found = script(keys=[self.cache.make_and_validate_key(key)], args=[now, interval, tolerance])
            answer = float(found)
            return None if answer < 0 else answer
        tat = max(float(self.cache.get(key) or 0.0), now)
        if tat - now > tolerance:
            return tat - now - tolerance
        self.cache.set(key, tat + interval, timeout=math.ceil(tat + interval - now))
        return None

    def wait(self) -> float | None:
        return self.wait_seconds

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AnonymousReadThrottle(WriteRateThrottle):
    """``settings.API_ANON_READ_RATE`` reads per client address for anonymous callers of the few reads
    anybody may make (the watch list, as its page); signed-in reads and every write are left to the
    write throttle."""

    scope = "api_anon_read"
    rate_setting = "API_ANON_READ_RATE"
    counts = "read"

    def applies(self, request: Request) -> bool:
        return request.method in SAFE_METHODS and not (request.user and request.user.is_authenticated)
