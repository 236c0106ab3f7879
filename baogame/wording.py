"""Lists and sentences put together as the reader's language writes them.

English separates the items of a list with ", " and sentences with a space; Chinese writes "、" between
names and "，" between clauses, and nothing between sentences. Each separator is a catalogue entry of
its own (``locale/``), so a page built from translated pieces reads as one language.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce

from django.utils.translation import gettext_noop, pgettext

#: Django's forms end every label with ``gettext(":")``, which Django's own Chinese catalogue leaves an
#: ASCII colon; the site's catalogue (first in the search) gives the full-width one, "游戏：".
LABEL_SUFFIX = gettext_noop(":")


def listed(items: Iterable[object]) -> str:
    """Names or words one after another: ``Ann, Bo`` (``Ann、Bo`` in Chinese)."""
    return pgettext("list separator", ", ").join(str(item) for item in items)


def entries(items: Iterable[object]) -> str:
    """Entries that are lists themselves: ``Ann, Bo: turn; Cy: ability`` (``；`` in Chinese)."""
    return pgettext("entry separator", "; ").join(str(item) for item in items)


def clauses(items: Iterable[object]) -> str:
    """Parts of one sentence: ``a lasts 3 days, b 4 days`` (``…，…`` in Chinese)."""
    return pgettext("clause separator", ", ").join(str(item) for item in items)


def sentences(items: Iterable[object]) -> str:
    """Whole sentences one after another: a space between them in English, none in Chinese."""
    glue = pgettext("two sentences one after the other", "%(before)s %(after)s")
    texts = [str(item) for item in items]
    if not texts:
        return ""
    return reduce(lambda before, after: glue % {"before": before, "after": after}, texts[1:], texts[0])
