"""Issue point 2: a league export's CSV header line is in the reader's language; English keeps the
field names (as the JSON export), and either header reads back into the same rows."""

from __future__ import annotations

from django.utils import translation

from apps.leagues import exports

ROWS = [
    {
        "round": 1,
        "table": 1,
        "game": "abc",
        "status": "finished",
        "result": "confirmed",
        "players": "a;b",
        "places": "1;2",
        "totals": "3;1",
        "confirm_by": "",
    }
]


def test_the_english_header_is_the_field_names() -> None:
    with translation.override("en"):
        text = exports.to_csv("games", ROWS)

    assert text.splitlines()[0] == ",".join(exports.GAMES_COLUMNS)


def test_the_chinese_header_is_chinese_and_reads_back_into_the_same_rows() -> None:
    with translation.override("zh-hans"):
        text = exports.to_csv("games", ROWS)
        rows = exports.parse_csv("games", text)

    assert text.splitlines()[0].startswith("轮次,桌号,对局,状态")
    assert rows[0]["game"] == "abc" and rows[0]["round"] == 1
