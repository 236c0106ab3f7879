"""``{{ key|zone_name }}``: a time zone's key ("Asia/Shanghai") as the reader calls the zone."""

from __future__ import annotations

from django import template

from apps.accounts.zone_names import active_zone_label

register = template.Library()


@register.filter
def zone_name(key: str) -> str:
    """The zone's name in the active language ("中国（上海）时间"); the key where it has none."""
    return active_zone_label(str(key))
