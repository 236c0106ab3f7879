"""A moment as pages show it: in the reader's time zone, the zone written as its offset ("UTC+8").

An abbreviation says too little: Asia/Shanghai and US Central are both "CST", India and Israel both
"IST". The offset names one time whatever the zone's name and the reader's language, and changes
with summer time as the clock does ("UTC+1" in Berlin's winter, "UTC+2" in its summer).
"""

from __future__ import annotations

from datetime import datetime

from django.utils import formats, timezone


def utc_offset(moment: datetime) -> str:
    """The offset of an aware ``moment`` from UTC: ``UTC+8``, ``UTC-3:30``, ``UTC+5:45``, ``UTC``."""
    offset = moment.utcoffset()
    minutes = round(offset.total_seconds() / 60) if offset is not None else 0
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}:{rest:02d}" if rest else f"UTC{sign}{hours}"


def _escaped(text: str) -> str:
    """``text`` as literal characters of a Django date format."""
    return "".join(f"\\{char}" for char in text)


def format_local(moment: datetime, date_format: str) -> str:
    """``moment`` in the active time zone, in Django's ``date_format`` (a translated one, such as
    ``"D j M, H:i T"``), where the format's zone letter ``T`` stands for the offset (``UTC+8``)."""
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    out, escape = [], False
    for char in date_format:
        if escape:
            out.append(f"\\{char}")
            escape = False
        elif char == "\\":
            escape = True
        elif char == "T":
            out.append(_escaped(utc_offset(local)))
        else:
            out.append(char)
    return formats.date_format(local, "".join(out))
