"""``{% push_devices %}``: the "Notify this browser" switch and the person's browsers, for the profile."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.db.models import Count, Q

from .. import services
from ..channels import mode_of
from ..models import PushMessage, PushSubscription

register = template.Library()


@register.inclusion_tag("push/_devices.html", takes_context=True)
def push_devices(context: dict[str, Any]) -> dict[str, Any]:
    request = context["request"]
    failed = Count("messages", filter=Q(messages__status=PushMessage.Status.FAILED))
    subs = list(PushSubscription.objects.filter(user=request.user).annotate(failed=failed))
    return {
        "enabled": services.enabled(),
        "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        "csrf_token": context.get("csrf_token"),
        "devices": [
            {
                "sub": sub,
                "modes": [
                    (c.value, c.label, mode_of(sub.categories, c.value)) for c in services.PUSH_CATEGORIES
                ],
            }
            for sub in subs
        ],
    }
