"""Time zones on pages: ``{{ key|zone_name }}``, a zone's key ("Asia/Shanghai") as the reader calls
the zone, and ``{{ moment|local_time:_("D j M, H:i T") }}``, a moment in the reader's zone with the
zone as its offset ("UTC+8", ``apps.accounts.local_times``)."""

from __future__ import annotations

from datetime import datetime

from django import template

from apps.accounts.local_times import format_local
from apps.accounts.zone_names import active_zone_label

register = template.Library()


@register.filter
def zone_name(key: str) -> str:
    """The zone's name in the active language ("中国（上海）时间"); the key where it has none."""
    return active_zone_label(str(key))


@register.filter
def local_time(moment: datetime | None, date_format: str) -> str:
    """``moment`` in the reader's zone, the format's ``T`` written as the offset; "" for none (so that
    ``|default:`` can say what stands for it)."""
    if not isinstance(moment, datetime):
        return ""
    return format_local(moment, date_format)
