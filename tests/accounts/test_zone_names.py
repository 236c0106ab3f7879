"""Time zones named in the reader's language (``apps.accounts.zone_names``): CLDR's names through
Babel, with the zones Babel names badly (UTC, ``Etc/``, renamed zones, zones of no country) mended."""

from __future__ import annotations

import zoneinfo

import pytest

from apps.accounts.zone_names import babel_locale, zone_label, zone_option

EVERY_ZONE = sorted(zoneinfo.available_timezones())


@pytest.mark.parametrize(
    ("key", "english", "chinese"),
    [
        ("Asia/Shanghai", "China (Shanghai) Time", "中国（上海）时间"),
        ("Europe/Berlin", "Germany (Berlin) Time", "德国（柏林）时间"),
        ("Asia/Tokyo", "Japan Time", "日本时间"),
    ],
)
def test_a_zone_is_named_by_its_country_and_city_in_each_language(
    key: str, english: str, chinese: str
) -> None:
    assert zone_label(key, "en") == english
    assert zone_label(key, "zh-hans") == chinese


@pytest.mark.parametrize("key", ["UTC", "Etc/UTC", "Etc/UCT", "Universal", "Zulu"])
def test_utc_is_utc_in_english_and_coordinated_universal_time_in_chinese(key: str) -> None:
    """Babel alone says "Unknown Region (UTC) Time" / "未知地区（UTC）时间"."""
    assert zone_label(key, "en") == "UTC"
    assert zone_label(key, "zh-hans") == "协调世界时（UTC）"


@pytest.mark.parametrize("key", ["GMT", "Etc/GMT", "Etc/GMT0", "Etc/Greenwich"])
def test_gmt_is_gmt_in_english_and_greenwich_mean_time_in_chinese(key: str) -> None:
    assert zone_label(key, "en") == "GMT"
    assert zone_label(key, "zh-hans") == "格林尼治标准时间（GMT）"


def test_an_etc_offset_zone_is_named_by_its_offset_whose_sign_posix_inverts() -> None:
    """``Etc/GMT+5`` is five hours behind Greenwich."""
    assert zone_label("Etc/GMT+5", "en") == "GMT-05:00"
    assert zone_label("Etc/GMT+5", "zh-hans") == "GMT-05:00"
    assert zone_label("Etc/GMT-14", "en") == "GMT+14:00"


def test_a_renamed_zone_finds_the_city_cldr_files_under_its_old_name() -> None:
    """Babel alone says "Argentina (Argentina/Buenos Aires) Time" and "乌克兰（Kyiv）时间"."""
    assert zone_label("America/Argentina/Buenos_Aires", "en") == "Argentina (Buenos Aires) Time"
    assert zone_label("America/Argentina/Buenos_Aires", "zh-hans") == "阿根廷（布宜诺斯艾利斯）时间"
    assert zone_label("Europe/Kyiv", "zh-hans") == "乌克兰（基辅）时间"
    assert zone_label("America/Kentucky/Louisville", "en") == "United States (Louisville) Time"


def test_an_alias_is_named_as_the_zone_it_stands_for() -> None:
    assert zone_label("US/Eastern", "en") == "United States (New York) Time"
    assert zone_label("PRC", "zh-hans") == "中国（上海）时间"


@pytest.mark.parametrize("key", ["Factory", "Antarctica/Troll", "Mars/Olympus", "../etc/passwd", ""])
def test_a_zone_of_no_country_or_a_name_that_is_no_zone_keeps_its_key(key: str) -> None:
    assert zone_label(key, "en") == key
    assert zone_label(key, "zh-hans") == key


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_no_zone_of_the_select_is_an_unknown_region_or_a_path(language: str) -> None:
    labels = {key: zone_label(key, language) for key in EVERY_ZONE}

    named = {key: label for key, label in labels.items() if label != key}
    assert len(named) > 590
    assert [label for label in named.values() if "/" in label or "Unknown" in label or "未知" in label] == []
    assert [label for label in named.values() if "world" in label or "世界（" in label] == []


def test_an_option_shows_the_name_and_the_key_and_a_nameless_zone_its_key_once() -> None:
    assert zone_option("Asia/Shanghai", "en") == "China (Shanghai) Time — Asia/Shanghai"
    assert zone_option("Asia/Shanghai", "zh-hans") == "中国（上海）时间 — Asia/Shanghai"
    assert zone_option("Factory", "zh-hans") == "Factory"


@pytest.mark.parametrize(
    ("language", "locale"), [("en", "en"), ("zh-hans", "zh_Hans"), (None, "en"), ("xx-nowhere", "en")]
)
def test_a_django_language_code_becomes_babels_locale(language: str | None, locale: str) -> None:
    assert str(babel_locale(language)) == locale
