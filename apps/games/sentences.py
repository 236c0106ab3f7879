"""The engines' sentences and card names in the reader's language.

The rules package cannot import Django, so its history sentences are ``Text`` values (an English
template marked with ``gettext_noop`` and its parameters, ``baogame.rules.text``) and its card names
are marked English words. Here each template is translated with Django's ``gettext`` (a plural
template, ``n_``, with ``ngettext`` for its count) — the active language of the request or of the
mail being written — before it is filled.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext

from baogame.rules.baobei.cards import CARDS
from baogame.rules.baohuang.cards import NAMES
from baogame.rules.text import render


def localize(value: Any) -> str:
    """A ``Text`` (or plain value) as words in the active language."""
    return render(value, gettext, ngettext)


def bird_name(code: str) -> str:
    """A Bao Bei bird's name (``magpie`` → "Magpie" / "喜鹊")."""
    return gettext(CARDS[code]["name"])


def card_name(code: str) -> str:
    """A Bao Huang card's name (``RJ*`` → "marked red joker" / "标记大王")."""
    return gettext(NAMES[code])
