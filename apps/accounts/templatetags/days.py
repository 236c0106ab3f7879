"""``{{ day|day_words }}``: ``Tue 8 Dec``, with the year when it is not this year (a vacation's planned
return next June), as ``apps.accounts.vacation.day_words`` writes it; a moment is read in the active
time zone (the reader's)."""

from __future__ import annotations

from datetime import date, datetime

from django import template
from django.utils import timezone

from apps.accounts.vacation import day_words as words

register = template.Library()


@register.filter
def day_words(day: date | datetime | None) -> str:
    if day is None:
        return ""
    if isinstance(day, datetime):
        day = timezone.localtime(day).date()
    return words(day, timezone.localdate())
