"""Content negotiation that answers the API's usual question without parsing it: a move request
spends less.

Nearly every API request (a bot's, the load test's) says ``Accept: application/json``, or nothing, or
``*/*``, and has no ``?format=``. DRF's ``DefaultContentNegotiation`` parses the header into media
types, orders them by precedence and matches each against every renderer, about 0.2 ms CPU a request
inside a move request. For those headers, with the JSON renderer first (the site's default), its
answer is always the JSON renderer and ``application/json``; this class gives that answer directly and
asks DRF for everything else, so every request gets exactly the renderer and media type it got before
(``tests/api/test_negotiation.py`` compares the two).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

JSON = "application/json"

#: ``Accept`` headers whose answer is the first renderer when it is the JSON one (None: no header).
PLAIN_ACCEPTS = frozenset({None, JSON, "*/*"})


class ApiContentNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, with the answer for a plain JSON (or any) ``Accept`` header given at once."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[Any, str]:
        renderers = list(renderers)  # a list from the view; typed as any iterable
        if (
            not format_suffix
            and renderers
            and renderers[0].media_type == JSON
            and request.META.get("HTTP_ACCEPT") in PLAIN_ACCEPTS
            and not self._format_override(request)
        ):
            return renderers[0], JSON
        return super().select_renderer(request, renderers, format_suffix)

    def _format_override(self, request: Request) -> bool:
        """Whether the query names a format (``?format=api``): DRF then filters the renderers."""
        name = self.settings.URL_FORMAT_OVERRIDE
        return bool(name) and bool(request.query_params.get(name))
