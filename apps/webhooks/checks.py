"""``check --deploy``: say so when webhooks may call private addresses or plain http in production."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def webhooks_private_addresses(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """Warn about ``WEBHOOKS_ALLOW_PRIVATE`` / ``WEBHOOKS_ALLOW_HTTP`` left on in production."""
    out = []
    if settings.WEBHOOKS_ALLOW_PRIVATE:
        out.append(
            Warning(
                "WEBHOOKS_ALLOW_PRIVATE is on: webhook and push URLs may reach private, loopback and "
                "link-local addresses (server-side request forgery).",
                hint="Set WEBHOOKS_ALLOW_PRIVATE=false unless this is deliberate.",
                id="webhooks.W001",
            )
        )
    if settings.WEBHOOKS_ALLOW_HTTP:
        out.append(
            Warning(
                "WEBHOOKS_ALLOW_HTTP is on: plain http webhooks to loopback are accepted.",
                hint="Set WEBHOOKS_ALLOW_HTTP=false in production.",
                id="webhooks.W002",
            )
        )
    return out
