"""The engines' plural sentences (``n_`` of ``baogame.rules.text``): the form for the count in the
reader's language, chosen when the history is rendered, and extracted by ``makemessages`` as plural
entries."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation

from apps.games.presenters.common import describe_event
from apps.games.sentences import localize
from baogame.rules.text import n_, text

ROOT = Path(settings.BASE_DIR)


def _english(game: str, event: dict[str, Any]) -> str:
    with translation.override("en"):
        return str(describe_event(game, event))


def test_tribute_sentences_count_one_tribute_card_and_two_tribute_cards() -> None:
    given = [_english("baohuang", {"type": "tribute_given", "seat": 1, "count": n}) for n in (1, 2)]
    timed = _english("baohuang", {"type": "tribute_given", "seat": 1, "count": 1, "by_timeout": True})
    received = [_english("baohuang", {"type": "tribute_received", "seat": 0, "count": n}) for n in (1, 2)]

    assert given == ["Seat 1 gives 1 tribute card face down.", "Seat 1 gives 2 tribute cards face down."]
    assert timed == "Seat 1 gives 1 tribute card face down (by timeout)."
    assert received == ["Seat 0 receives 1 tribute card.", "Seat 0 receives 2 tribute cards."]


def test_shoebill_sentences_count_one_card_and_two_cards() -> None:
    drawn = [_english("baobei", {"type": "shoebill_drawn", "seat": 0, "count": n}) for n in (1, 2)]
    placed = [
        _english("baobei", {"type": "shoebill_placed", "seat": 0, "replaced": [], "under_count": n})
        for n in (1, 2)
    ]

    assert drawn == ["Seat 0 drew 1 card with the Shoebill.", "Seat 0 drew 2 cards with the Shoebill."]
    assert placed[0].endswith("; 1 card went beneath the discard pile.")
    assert placed[1].endswith("; 2 cards went beneath the discard pile.")


def test_a_plural_sentence_takes_chinese_one_form_for_every_count() -> None:
    """Chinese has one plural form (``nplurals=1``): ``msgstr[0]`` for 1 and for 2. An entry the
    catalogue already holds stands in for the engines' new ones."""
    with translation.override("zh-hans"):
        days = [localize(text(n_("%(n)s day", "%(n)s days", n), n=n)) for n in (1, 2)]

    assert days == ["1天", "2天"]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_makemessages_extracts_the_plural_marker_as_a_plural_entry(
    tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``n_`` (singular, plural) becomes one ``msgid`` / ``msgid_plural`` entry; ``_`` still extracts."""
    (tmp_path / "baogame").symlink_to(ROOT / "baogame", target_is_directory=True)
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)

    call_command("makemessages", locale=["zh_Hans"], symlinks=True, verbosity=0)

    po = (tmp_path / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    assert (
        'msgid "%(seat)s gives %(count)s tribute card face down."\n'
        'msgid_plural "%(seat)s gives %(count)s tribute cards face down."'
    ) in po
    assert 'msgid "%(seat)s holds the marked red joker."' in po
