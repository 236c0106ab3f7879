"""The catalogues are complete and compiled: every marked string of the project has a Chinese
translation, none is fuzzy, and the committed ``.mo`` is what the ``.po`` compiles to."""

from __future__ import annotations

import gettext
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

LOCALES = ("zh_Hans",)
#: Where marked strings live (what `make messages` extracts from).
SOURCES = ("apps", "baogame", "templates")
ROOT = Path(settings.BASE_DIR)

needs_gettext = pytest.mark.skipif(
    shutil.which("xgettext") is None or shutil.which("msgfmt") is None,
    reason="GNU gettext (xgettext, msgfmt) is not installed: apt-get install gettext",
)


def _entries(po: Path) -> list[tuple[str, str, bool]]:
    """(msgid, msgstr, fuzzy) of each entry of a ``.po`` file, with its continuation lines joined."""
    entries: list[tuple[str, str, bool]] = []
    msgid = msgstr = None
    field = None
    fuzzy = False
    for line in [*po.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgid "):
            msgid, field = line[7:-1], "id"
        elif line.startswith("msgstr "):
            msgstr, field = line[8:-1], "str"
        elif line.startswith("msgstr["):  # a plural entry: every form must be translated
            value = line[line.index('"') + 1 : -1]
            msgstr, field = (value if msgstr is None else msgstr if value else ""), "str"
        elif line.startswith('"') and field:
            if field == "id":
                msgid = (msgid or "") + line[1:-1]
            else:
                msgstr = (msgstr or "") + line[1:-1]
        elif not line.strip() and msgid is not None:
            entries.append((msgid, msgstr or "", fuzzy))
            msgid = msgstr = field = None
            fuzzy = False
    return entries


@pytest.mark.parametrize("locale", LOCALES)
def test_every_entry_is_translated_and_none_is_fuzzy(locale: str) -> None:
    entries = [e for e in _entries(ROOT / "locale" / locale / "LC_MESSAGES" / "django.po") if e[0]]

    assert entries
    assert [e[0] for e in entries if not e[1]] == []
    assert [e[0] for e in entries if e[2]] == []


@needs_gettext
@pytest.mark.parametrize("locale", LOCALES)
def test_the_committed_mo_is_what_the_po_compiles_to(locale: str, tmp_path: Path) -> None:
    folder = ROOT / "locale" / locale / "LC_MESSAGES"
    fresh_mo = str(tmp_path / "fresh.mo")
    subprocess.run(["msgfmt", "--check", "-o", fresh_mo, str(folder / "django.po")], check=True)

    with (tmp_path / "fresh.mo").open("rb") as fresh, (folder / "django.mo").open("rb") as committed:
        assert gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]


@needs_gettext
@pytest.mark.parametrize("locale", LOCALES)
def test_makemessages_finds_no_string_missing_from_the_catalogue(
    locale: str, tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Extract in a scratch folder that links to the sources and holds a copy of the catalogue, so that
    the working tree's catalogue is never rewritten by the check."""
    for name in SOURCES:
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    copy = tmp_path / "locale" / locale / "LC_MESSAGES"
    copy.mkdir(parents=True)
    shutil.copy(ROOT / "locale" / locale / "LC_MESSAGES" / "django.po", copy / "django.po")
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)

    call_command("makemessages", locale=[locale], no_obsolete=True, symlinks=True, verbosity=0)

    # A new string comes out empty, or fuzzy when msgmerge guessed it from a similar one.
    untranslated = [e[0] for e in _entries(copy / "django.po") if e[0] and (not e[1] or e[2])]
    assert untranslated == [], "run `make messages` and translate these"
