"""Issue point 5 (pages): every page of both games, read in Chinese, shows none of the site's own
English sentences and no placeholder of a template or a catalogue entry.

The phrases are collected from the catalogue itself: every msgid of four words or more that the
templates of these pages mark (``#: templates/...``), cut at its placeholders and tags. A phrase that
shows on a zh-hans page means a string that is not marked, or marked but not translated.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from apps.accounts.models import Profile
from apps.leagues import seasons
from apps.leagues import services as leagues
from tests.factories import GameFactory, UserFactory
from tests.support.played import a_finished_baobei_game

pytestmark = pytest.mark.django_db

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
#: Templates whose phrases the check looks for (the mails are another helper's check).
PAGE_TEMPLATES = re.compile(r"#: .*templates/(?!email/)")
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%%|<[^>]+>|&[a-z]+;")
#: Words that read the same in both languages (names, codes), not sentences.
MIN_WORDS = 4


@cache
def site_phrases() -> tuple[str, ...]:
    """Every page template's msgid of ``MIN_WORDS`` words or more, as the literal runs between its
    placeholders and tags (each run that is long enough on its own)."""
    phrases: set[str] = set()
    reference = False
    msgid: str | None = None
    for line in [*CATALOGUE.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("#:"):
            reference = reference or bool(PAGE_TEMPLATES.match(line))
        elif line.startswith("msgid "):
            msgid = line[7:-1]
        elif line.startswith('"') and msgid is not None:
            msgid += line[1:-1]
        elif line.startswith(("msgstr", "msgid_plural", "msgctxt")):
            if line.startswith("msgstr") and reference and msgid:
                text = msgid.replace('\\"', '"').replace("\\n", " ")
                for run in PLACEHOLDER.split(text):
                    run = " ".join(run.split()).strip(" .,:;()“”\"'—·")
                    if len(run.split()) >= MIN_WORDS:
                        phrases.add(run)
            if line.startswith("msgstr"):
                msgid, reference = None, False
    return tuple(sorted(phrases))


def readable_text(page: str) -> str:
    """What a person reads: the page without the scripts' words, code samples and markup."""
    page = re.sub(r'<meta name="baogame-words"[^>]*>', "", page)
    page = re.sub(r"<code[^>]*>.*?</code>", "", page, flags=re.S)
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html.unescape(page).split())


def assert_all_chinese(url: str, page: str) -> None:
    assert '<html lang="zh-hans">' in page, url
    text = readable_text(page)
    english = [phrase for phrase in site_phrases() if phrase in text]
    assert english == [], f"{url} shows English: {english}"
    leaks = re.findall(r"%\([a-z_]+\)|\{\{|\{%|%\}|\}\}", text)
    assert leaks == [], f"{url} shows placeholders: {leaks}"


def chinese(user: Any | None) -> Client:
    client = Client(headers={"accept-language": "zh-CN,zh;q=0.9"})
    if user is not None:
        Profile.objects.filter(user=user).update(language="zh-hans", time_zone="Asia/Shanghai")
        client.force_login(user)
    return client


def test_the_phrase_list_is_the_sites_own_and_long_enough_to_mean_something() -> None:
    phrases = site_phrases()

    assert len(phrases) > 100
    assert "The cards are dealt when every seat is taken" in phrases
    assert "Waiting for players" not in phrases  # three words: a label, not a sentence


def test_an_untranslated_sentence_would_be_caught() -> None:
    page = '<html lang="zh-hans"><p>The cards are dealt when every seat is taken.</p></html>'

    with pytest.raises(AssertionError, match="shows English"):
        assert_all_chinese("/", page)


def test_every_page_of_both_games_reads_in_chinese() -> None:
    players = [UserFactory() for _ in range(5)]
    watcher = UserFactory()
    baobei = GameFactory(engine="baobei", players=3, seated=players[:3])
    baohuang = GameFactory(engine="baohuang", players=5, seated=players)
    open_game = GameFactory(engine="baobei", players=3, seated=players[:1])
    finished = a_finished_baobei_game(players[0])
    league = leagues.league_create(creator=players[0], name="Shandong", game="baohuang", players_per_table=5)
    for user in [*players[1:], watcher]:
        leagues.membership_join_by_link(league=league, user=user, token=league.invite_token)
    season = seasons.season_create(league=league, by=players[0], rounds=2)
    seasons.round_start(season_id=season.pk, by=players[0])

    me, other = chinese(players[0]), chinese(watcher)
    pages = {
        me: [
            "/",
            "/games/new/",
            "/games/",
            f"/games/{baobei.public_id}/",
            f"/games/{baohuang.public_id}/",
            f"/games/{open_game.public_id}/",
            f"/games/{baobei.public_id}/history/",
            f"/games/{baohuang.public_id}/history/",
            f"/games/{baohuang.public_id}/replay/",
            f"/games/{finished.public_id}/",
            f"/games/{finished.public_id}/replay/",
            f"/games/{finished.public_id}/replay/?step=3",
            "/rules/",
            "/rules/baobei/",
            "/rules/baohuang/",
            "/leagues/",
            "/leagues/new/",
            league.get_absolute_url(),
            f"/leagues/{league.slug}/manage/",
            "/accounts/profile/",
            "/mail/preferences/",
            "/api/tokens/",
            "/webhooks/",
        ],
        other: [f"/games/{baobei.public_id}/", f"/games/{baohuang.public_id}/", league.get_absolute_url()],
        chinese(None): ["/", "/accounts/login/", "/accounts/signup/", "/games/", "/rules/"],
    }
    problems = []
    for client, urls in pages.items():
        for url in urls:
            answer = client.get(url)
            assert answer.status_code == 200, url
            try:
                assert_all_chinese(url, answer.content.decode())
            except AssertionError as error:
                problems.append(str(error).splitlines()[0])
    assert problems == [], "\n".join(problems)
