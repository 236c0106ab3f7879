"""Chinese stand-ins for sentences the catalogue does not hold yet (tests only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import trans_real


def stand_in_chinese(monkeypatch: Any, texts: Mapping[str, str]) -> None:
    """Give each msgid of ``texts`` its stand-in where the ``zh-hans`` catalogue has no translation
    yet (a test written before its sentences were translated); a translated one keeps its own."""
    catalog = trans_real.translation("zh-hans")._catalog  # type: ignore[attr-defined]
    for msgid, stand_in in texts.items():
        if msgid not in catalog:
            monkeypatch.setitem(catalog._catalogs[0], msgid, stand_in)
