"""Words the rules package writes for people, in the reader's language, without importing Django.

The rules stay pure Python, so they cannot call Django's ``gettext`` themselves. They mark their
sentences with this module's ``gettext`` imported as ``_``, or ``ngettext`` (text built when it is
used), or ``gettext_noop`` (a module-level constant, translated with ``_`` where it is shown);
Django's ``makemessages`` finds them by these names. The site installs its translation functions at
start-up (``install``); without them, as in the engines' own tests, every sentence stays English.

Sentences that must be written now (a mail's lines) use ``_`` here; sentences kept for any reader to
read later in their own language (the history) are ``Text`` values of ``baogame.rules.text``, filled
by the page or mail that shows them. Both mark their templates with the one ``gettext_noop`` below.
"""

from __future__ import annotations

from collections.abc import Callable


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


_gettext: Callable[[str], str] = str
_ngettext: Callable[[str, str, int], str] = _english_plural


def install(*, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> None:
    """Translate the rules' sentences with these functions (the site's active language)."""
    global _gettext, _ngettext
    _gettext, _ngettext = gettext, ngettext


def gettext(message: str) -> str:
    """``message`` in the active language (imported as ``_``, the name ``makemessages`` looks for)."""
    return _gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular`` / ``plural`` for ``n``, in the active language."""
    return _ngettext(singular, plural, n)


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the catalogue and return it unchanged (translate it with ``_`` when shown)."""
    return message
