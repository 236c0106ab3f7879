"""Template context for every page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, Any]:
    return {"SITE_URL": settings.SITE_URL, "DEV_MAILBOX": settings.DEV_MAILBOX}
