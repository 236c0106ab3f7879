"""``<id:…>``: the path converter of every number in a URL (ids, round numbers, indexes).

Django's ``<id:…>`` takes any run of digits, and a number beyond the database column's range then
fails in the query (``bigint out of range`` on PostgreSQL, ``OverflowError`` on SQLite): a 500. Every
such column here is at most a signed 64-bit integer, so a path whose number does not fit one matches no
route: a 404 (JSON under ``/api/v1/``), on both databases.
"""

from __future__ import annotations

from django.urls import register_converter

#: The largest value of a signed 64-bit column (``BigAutoField``, SQLite's INTEGER).
MAX_ID = 2**63 - 1


class IdConverter:
    """Digits whose value fits a signed 64-bit column; anything larger matches no route."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("beyond a 64-bit column")  # Django: this route does not match
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
