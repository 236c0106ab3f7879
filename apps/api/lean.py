"""``LeanApiView``: DRF's ``APIView`` for the hottest endpoints (a move, the ``/legal`` read before it,
and the creation, join and first read that every game played through the API makes), with the
per-request work that gives the same answer every time done once.

On every request DRF makes a new instance of each authentication, permission, parser and throttle
class, a content negotiator, and the ``Allow`` header from the view's methods; for a request that does
little else (a ``/legal`` read) that is a noticeable share of its CPU. These classes keep nothing
between calls (the site's own and DRF's: no attribute is set outside ``__init__``), so one instance of
each serves every request of the view. Renderers are left to DRF: the browsable API's renderer keeps
per-call state. The write throttle is not asked about a read, which it always allows.
"""

from __future__ import annotations

from typing import Any

from rest_framework.views import APIView

from .throttling import SAFE_METHODS, WriteRateThrottle


class LeanApiView(APIView):
    """``APIView`` with its stateless parts made once per view class."""

    def _once(self, name: str, make: Any) -> Any:
        cls = type(self)
        cached = cls.__dict__.get("_lean_parts")
        if cached is None:
            cached = {}
            cls._lean_parts = cached  # type: ignore[attr-defined]
        if name not in cached:
            cached[name] = make()
        return cached[name]

    def get_authenticators(self) -> list[Any]:
        return list(self._once("authenticators", super().get_authenticators))

    def get_permissions(self) -> list[Any]:
        return list(self._once("permissions", super().get_permissions))

    def get_parsers(self) -> list[Any]:
        return list(self._once("parsers", super().get_parsers))

    def get_content_negotiator(self) -> Any:
        return self._once("negotiator", super().get_content_negotiator)

    def get_throttles(self) -> list[Any]:
        if self.request.method in SAFE_METHODS and all(
            issubclass(throttle, WriteRateThrottle) for throttle in self.throttle_classes
        ):
            return []  # only writes are limited
        return super().get_throttles()

    @property
    def default_response_headers(self) -> dict[str, str]:
        """``Allow`` (the view's methods) and ``Vary``: the same for every request of the view."""
        made = self._once("headers", lambda: APIView.default_response_headers.fget(self))  # type: ignore[attr-defined]
        return dict(made)
