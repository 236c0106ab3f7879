"""Time zones named in the reader's language: "China (Shanghai) Time", "中国（上海）时间".

The names come from the Unicode CLDR through Babel, in its "location format" (country, and the city
where the country has several zones). What is stored, sent to the API and posted by the forms stays
the IANA key ("Asia/Shanghai"); only what a person reads changes.

Babel's ``get_timezone_location`` is not used as it is because it gets some zones wrong: it keys the
zone by tzdata's current name while CLDR files the city under the older one, so it writes
"Argentina (Argentina/Buenos Aires) Time" and "乌克兰（Kyiv）时间"; and for zones that belong to no
country it writes "Unknown Region (UTC) Time". Here the city is looked up under every name of the
zone, UTC and GMT get their CLDR names ("UTC", "协调世界时（UTC）"), the fixed offsets of ``Etc/``
their offset ("GMT-05:00" for ``Etc/GMT+5``, whose sign POSIX inverts), and a zone without a
country (``Factory``, ``Antarctica/Troll``, ``localtime``) keeps its key.
"""

from __future__ import annotations

import functools
import zoneinfo
from datetime import datetime

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.dates import get_timezone_gmt
from django.utils import translation

#: The CLDR metazone (or zone) whose name stands for each zero-offset zone.
_UTC, _GMT = "Etc/UTC", "Etc/GMT"
#: Territories that are no country: CLDR's "Unknown Region" and "world".
_NO_COUNTRY = frozenset({"ZZ", "001"})


@functools.lru_cache(maxsize=8)
def babel_locale(language: str | None) -> Locale:
    """The Babel locale of a Django language code (``zh-hans`` → ``zh_Hans``); English for none or
    one Babel does not know."""
    try:
        return Locale.parse(translation.to_locale(language or "en"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


@functools.lru_cache(maxsize=1)
def _older_names() -> dict[str, tuple[str, ...]]:
    """For each zone, the older names it had (``Europe/Kyiv``: ``Europe/Kiev`` …), under which CLDR
    may still file its city."""
    older: dict[str, list[str]] = {}
    for alias, zone in get_global("zone_aliases").items():
        older.setdefault(zone, []).append(alias)
    return {zone: tuple(names) for zone, names in older.items()}


def _named(locale: Locale, name: dict[str, dict[str, str]], abbreviation: str) -> str:
    """A zero-offset zone: in English its abbreviation ("UTC", what English readers call it), in other
    languages CLDR's long name with the abbreviation ("协调世界时（UTC）")."""
    long = name.get("long", {}).get("standard")
    if locale.language == "en" or not long:
        return abbreviation
    return locale.zone_formats["fallback"] % {"0": abbreviation, "1": long}


def _location(locale: Locale, zone: str) -> str | None:
    """CLDR's location format ("China (Shanghai) Time"); None for a zone of no country."""
    territory = get_global("zone_territories").get(zone)
    if territory is None or territory in _NO_COUNTRY or territory not in locale.territories:
        return None
    country = locale.territories[territory]
    region = locale.zone_formats["region"]
    if len(get_global("territory_zones").get(territory, [])) == 1:
        return region % country
    city = None
    for name in (zone, *_older_names().get(zone, ())):
        city = locale.time_zones.get(name, {}).get("city")
        if not city:
            metazone = locale.meta_zones.get(get_global("meta_zones").get(name), {})
            city = metazone.get("city")
        if city:
            break
    city = city or zone.rsplit("/", 1)[-1].replace("_", " ")
    return region % (locale.zone_formats["fallback"] % {"0": city, "1": country})


@functools.lru_cache(maxsize=4096)
def zone_label(key: str, language: str | None) -> str:
    """The time zone ``key`` as a reader of ``language`` (a Django language code) calls it; the key
    itself for a zone CLDR does not place in any country, or one that is no zone."""
    try:
        tzinfo = zoneinfo.ZoneInfo(key)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return key
    locale = babel_locale(language)
    zone = get_global("zone_aliases").get(key, key)
    if zone == _UTC:
        return _named(locale, locale.time_zones.get(_UTC, {}), "UTC")
    if zone == _GMT:
        return _named(locale, locale.meta_zones.get("GMT", {}), "GMT")
    if zone.startswith("Etc/GMT"):
        return get_timezone_gmt(datetime(2000, 1, 1, tzinfo=tzinfo), width="long", locale=locale)
    return _location(locale, zone) or key


def zone_option(key: str, language: str | None) -> str:
    """A choice in a list of zones: the name with the key, which people search for and recognise
    ("China (Shanghai) Time — Asia/Shanghai"); the key alone where the name is the key."""
    label = zone_label(key, language)
    return key if label == key else f"{label} — {key}"


def active_zone_label(key: str) -> str:
    """``zone_label`` in the active language."""
    return zone_label(key, translation.get_language())
