"""The rules pages (/rules/baobei/, /rules/baohuang/) and the links from a game page into them."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import pytest
from django.conf import settings

from apps.games import presenters, rulebook
from baogame.rules.baobei.cards import CARDS
from baogame.rules.baobei.setup import default_threshold
from baogame.rules.baohuang.cards import CODES

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static"


def anchors(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_rules_pages_are_linked_from_the_site_navigation(client):
    index = client.get("/").content.decode()
    rules = client.get("/rules/").content.decode()

    assert 'href="/rules/"' in index.split("</header>")[0]
    assert 'href="/rules/baobei/"' in rules and 'href="/rules/baohuang/"' in rules


def test_rules_page_of_an_unknown_game_is_404(client):
    assert client.get("/rules/chess/").status_code == 404


def test_bird_table_has_every_card_kind_with_the_engines_value_copies_and_ability_bb_2_1(client):
    html = client.get("/rules/baobei/").content.decode()

    rows = re.findall(r'<tr id="bird-([a-z_]+)" data-code="[a-z_]+">(.*?)</tr>', html, re.S)
    assert [code for code, _ in rows] == list(CARDS)
    for code, row in rows:
        card = CARDS[code]
        cells = re.findall(r'<td class="num">(-?\d+)</td>', row)
        assert cells == [str(card["value"]), str(card["copies"])], code
        assert f'data-card="{code}"' in row  # its picture
        if card["ability"]:
            assert card["ability_text"][1:] in html_lib.unescape(row)
            assert str(rulebook.ABILITIES[card["ability"]]["name"]) in row
        else:
            assert ">none<" in row


def test_threshold_table_comes_from_the_engines_defaults_bb_2_3(client):
    html = client.get("/rules/baobei/").content.decode()

    table = html.split('class="threshold-table"')[1].split("</table>")[0]
    pairs = re.findall(r'<td class="num">(\d+)</td><td class="num">(\d+)</td>', table)
    assert [(int(p), int(t)) for p, t in pairs] == [(n, default_threshold(n)) for n in range(2, 7)]


def test_baobei_rules_have_the_sections_players_need(client):
    html = client.get("/rules/baobei/").content.decode()

    needed = {
        "aim",
        "birds",
        "abilities",
        "setup",
        "turn",
        "plucking",
        "gifts",
        "bao",
        "shield",
        "scoring",
        "threshold",
        "example",
    }
    assert needed <= anchors(html)
    assert "max(" not in html and "doubled" in html  # the failed-BAO doubling, in words


def test_baohuang_rules_explain_ranks_and_the_marked_jokers_bh_2(client):
    html = client.get("/rules/baohuang/").content.decode()

    needed = {
        "aim",
        "ranks",
        "marked-jokers",
        "tribute",
        "emperor",
        "partner",
        "declarations",
        "guesses",
        "combinations",
        "beating",
        "play",
        "scoring",
        "example",
    }
    assert needed <= anchors(html)
    ranks = re.findall(r'<tr id="rank-\d+" data-code="([^"]+)">', html)
    assert ranks == list(reversed(CODES))
    marked = html.split('id="marked-jokers"')[1].split("</section>")[0]
    assert "<code>RJ*</code>" in marked and "<code>BJ*</code>" in marked
    assert "emperor" in marked and "partner" in marked


def test_each_worked_example_has_card_pictures(client):
    for game, attribute in (("baobei", 'class="card bird'), ("baohuang", 'class="card pc')):
        html = client.get(f"/rules/{game}/").content.decode()

        example = html.split('id="example"')[1].split("</section>")[0]
        assert example.count(attribute) >= 3, game


def test_every_bird_has_its_own_drawing_in_the_sprite():
    sprite = (STATIC / "img" / "birds.svg").read_text()

    symbols = re.findall(r'<symbol id="([a-z_]+)"', sprite)
    bodies = re.findall(r"<symbol[^>]*>(.*?)</symbol>", sprite, re.S)
    assert sorted(symbols) == sorted(CARDS)
    assert len(set(bodies)) == len(CARDS)  # fifteen different drawings


def test_a_face_up_bird_uses_its_own_drawing_and_shows_value_and_name(client):
    html = client.get("/rules/baobei/").content.decode()

    pattern = r'<span class="card bird[^"]*" data-card="shoebill".*?</span></span>'
    card = re.search(pattern, html, re.S).group(0)
    assert "birds.svg#shoebill" in card
    assert '<span class="value">13</span>' in card and ">Shoebill</span>" in card


def test_the_bird_drawings_are_credited():
    credits = (STATIC / "img" / "CREDITS.md").read_text()

    assert "birds.svg" in credits and "AGPL" in credits


def test_the_rules_page_footer_credits_the_bird_drawings(client):
    html = client.get("/rules/baobei/").content.decode()

    assert 'id="credits"' in html and "CREDITS.md" in html


@pytest.mark.parametrize(
    ("engine", "decision", "section"),
    [
        ("baobei", {"kind": "setup_peek"}, "setup"),
        ("baobei", {"kind": "turn_action"}, "turn"),
        ("baobei", {"kind": "after_draw"}, "turn"),
        ("baobei", {"kind": "pluck_window"}, "plucking"),
        ("baobei", {"kind": "ability", "context": {"ability": "macaw"}}, "ability-macaw"),
        ("baobei", {"kind": "ability", "context": {"ability": "toco"}}, "ability-toco"),
        ("baobei", {"kind": "macaw_decide"}, "ability-macaw"),
        ("baobei", {"kind": "shoebill_place"}, "ability-shoebill"),
        ("baobei", {"kind": "end_turn"}, "bao"),
        ("baohuang", {"kind": "tribute", "allowed": ["give_tribute"]}, "tribute"),
        ("baohuang", {"kind": "declare", "allowed": ["keep_emperor", "pass_emperor"]}, "emperor"),
        ("baohuang", {"kind": "declare", "allowed": ["pledge", "no_declaration"]}, "declarations"),
        ("baohuang", {"kind": "turn", "allowed": ["play", "pass"]}, "play"),
    ],
)
def test_each_decision_kind_links_to_the_section_that_explains_it(client, engine, decision, section):
    link = presenters.decision_rules_link(engine, decision)

    assert link is not None and link["url"] == f"/rules/{engine}/#{section}"
    assert section in anchors(client.get(f"/rules/{engine}/").content.decode())


def test_the_decision_box_on_a_game_page_links_to_its_rules_section(baobei_game, client_for):
    game, players = baobei_game

    html = client_for(players[0]).get(f"/games/{game.public_id}/").content.decode()

    box = html.split('id="decision"')[1].split("</section>")[0]
    assert 'href="/rules/baobei/#setup"' in box


def test_the_bao_bei_board_shows_a_visible_legend_of_every_ability_icon(baobei_game, client_for):
    game, players = baobei_game

    html = client_for(players[0]).get(f"/games/{game.public_id}/").content.decode()

    legend = html.split('class="ability-legend-line"')[1].split("</p>")[0]
    for info in rulebook.ABILITIES.values():
        assert info["icon"] in legend and str(info["name"]) in legend
    assert 'href="/rules/baobei/#abilities"' in legend


def test_the_ability_legend_reads_in_chinese_with_its_own_colon(baobei_game, client_for):
    """It reads "能力：", with the full-width colon of every label of the Chinese pages, not "能力:"."""
    game, players = baobei_game
    client = client_for(players[0])

    html = client.get(f"/games/{game.public_id}/", headers={"accept-language": "zh-hans"}).content.decode()

    legend = html.split('class="ability-legend-line"')[1].split("</p>")[0]
    assert "能力</a>：" in legend, legend


def test_an_empty_history_says_so_in_words(baobei_game, client_for):
    game, players = baobei_game

    page = client_for(players[0]).get(f"/games/{game.public_id}/").content.decode()
    history = client_for(players[0]).get(f"/games/{game.public_id}/history/").content.decode()

    assert "Nothing has happened in this game yet." in page
    assert "Nothing has happened in this game yet." in history


def test_the_site_has_a_favicon(client):
    page = client.get("/rules/").content.decode()
    ico = client.get("/favicon.ico")

    assert re.search(r'<link rel="icon" href="[^"]*favicon\.svg"', page)
    assert ico.status_code == 302 and ico["Location"].endswith("favicon.svg")
    assert (STATIC / "img" / "favicon.svg").exists()
