"""System checks of the notifications app: the inbound webhook must have a verification secret."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register


def inbound_webhook_secret() -> str | None:
    """The basic-auth secret ("user:password") that guards /mail/inbound/, or None when there is none."""
    anymail = getattr(settings, "ANYMAIL", None) or {}
    secret = anymail.get("WEBHOOK_SECRET")
    return secret or None


@register(Tags.security, deploy=True)
def check_inbound_webhook_secret(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """``check --deploy``: /mail/inbound/ refuses every POST (403) until ANYMAIL_WEBHOOK_SECRET is set.

    Several providers do not sign their inbound webhooks; without the secret anybody could post a
    mail "from" a player, so the endpoint is closed rather than open.
    """
    if inbound_webhook_secret() is not None:
        return []
    return [
        Error(
            "ANYMAIL_WEBHOOK_SECRET is not set: the inbound mail webhook /mail/inbound/ refuses every "
            "request (403), so play by e-mail does not work.",
            hint='Set ANYMAIL_WEBHOOK_SECRET="user:password" and give the provider the webhook URL '
            "https://user:password@<host>/mail/inbound/ (plus its signing key where it signs webhooks).",
            id="notifications.E001",
        )
    ]
