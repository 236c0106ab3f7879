"""The rules pages in Chinese: a whole translated page per game, chosen by the
reader's language, with the same anchors and rule numbers as the English page (the game pages link
into them), the glossary's words for roles, cards and birds, and no English sentence left."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from apps.games.rulebook import rules_template
from baogame.rules.baobei.cards import CARDS

ZH = {"accept_language": "zh-CN,zh;q=0.9"}
PAGES = ["/rules/", "/rules/baobei/", "/rules/baohuang/"]
#: Latin words a Chinese rules page may keep: the games' names in brackets, the site's name, the
#: licence, the card codes' letters and the call BAO's letters nowhere else.
KEPT = {"Bao", "Bei", "Huang", "baogame", "GNU", "AGPL", "BB", "BH", "RJ", "BJ", "J", "Q", "K", "A", "S"}


def _article(html: str) -> str:
    return html.split("<article", 1)[1].split(">", 1)[1].split("</article>", 1)[0]


def _words(html: str) -> set[str]:
    """The Latin words a reader sees in the page's article: no tags, attributes or comments."""
    text = re.sub(r"<[^>]+>", " ", _article(html))
    return set(re.findall(r"[A-Za-z]+", text))


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_the_chinese_rules_page_keeps_every_anchor_link_and_rule_number_of_the_english_one(path: str) -> None:
    english = Client().get(path).content.decode()
    chinese = Client().get(path, headers=ZH).content.decode()

    assert '<html lang="zh-hans">' in chinese
    for pattern in (r'id="([^"]+)"', r'href="([^"]+)"', r"\b((?:BB|BH)-\d+(?:\.\d+)?)"):
        assert set(re.findall(pattern, _article(chinese))) == set(re.findall(pattern, _article(english))), (
            pattern
        )
    assert _words(chinese) - KEPT == set()


@pytest.mark.django_db
def test_the_chinese_bao_huang_page_uses_the_players_words() -> None:
    """The glossary's terms (BH-2, BH-5 … BH-8): 皇帝, 保子, 平民, 进贡, 大王/小王, 独保, 明保."""
    page = _article(Client().get("/rules/baohuang/", headers=ZH).content.decode())

    for word in (
        "皇帝",
        "保子",
        "平民",
        "进贡",
        "大王",
        "小王",
        "独保",
        "明保",
        "表态",
        "标记大王（皇帝牌）",
    ):
        assert word in page, word
    ranks = re.findall(r'<tr id="rank-\d+" data-code="([^"]+)">.*?<th scope="row">([^<]+)</th>', page, re.S)
    assert dict(ranks)["RJ"] == "大王" and dict(ranks)["BJ"] == "小王" and dict(ranks)["A"] == "A"


@pytest.mark.django_db
def test_the_chinese_bao_bei_page_names_every_bird_and_ability_in_chinese_bb_2_1() -> None:
    page = _article(Client().get("/rules/baobei/", headers=ZH).content.decode())

    rows = dict(re.findall(r'<tr id="bird-([a-z_]+)".*?<th scope="row">([^<]+)</th>', page, re.S))
    assert set(rows) == set(CARDS)
    assert (
        rows["shoebill"] == "鲸头鹳"
        and rows["toco_toucan"] == "鞭笞巨嘴鸟"
        and rows["crested_ibis"] == "朱鹮"
    )
    assert all(re.fullmatch(r"[\u4e00-\u9fff]+", name) for name in rows.values())
    assert "白鹈鹕和褐鹈鹕" in page and "只与另一张孔雀相配" in page
    assert "看后交换" in page and "——杜鹃" in page  # the legend: ability name and its bird


@pytest.mark.django_db
def test_an_english_reader_still_gets_the_english_page() -> None:
    page = Client().get("/rules/baohuang/", headers={"accept_language": "en"}).content.decode()

    assert "Bao Huang: how to play" in page and "皇帝" not in _article(page).replace("保皇", "")


def test_a_language_without_its_own_rules_pages_falls_back_to_the_english_ones() -> None:
    with translation.override("zh-hans"):
        assert rules_template("rules/baohuang.html") == "rules/zh_hans/baohuang.html"
    with translation.override("fr"):
        assert rules_template("rules/baohuang.html") == "rules/baohuang.html"
    with translation.override("en"):
        assert rules_template("rules/index.html") == "rules/index.html"
