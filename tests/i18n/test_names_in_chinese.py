"""Names read in the reader's language wherever they show: the birds in Bao Bei's target lists (as on
the card faces), the games' names on the league pages and forms (as on the game pages), and the bot
named in the new-game form's help (as the bots are named at the table)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from apps.games.presenters import baobei
from apps.games.presenters.common import BoardInput
from apps.leagues import services as leagues
from tests.factories import UserFactory
from tests.rules.baobei.helpers import FOUR, SPARROW, E, a_fresh_game, play

pytestmark = pytest.mark.django_db

CHINESE = {"accept-language": "zh-CN,zh;q=0.9"}


def _target_labels(language: str) -> list[str]:
    """Seat 0's target list at its first turn, read in ``language``: the setup peek showed it its slots 0
    and 1, a Hummingbird and a Sparrow (BB-3.5)."""
    state = a_fresh_game(FOUR, discard=SPARROW)
    for seat in range(3):
        state = play(state, seat, "choose_peek", slots=[0, 1])
    board = BoardInput(
        view=E.view(state, 0),
        seat=0,
        names=["demo", "金鸻（机器人）", "cy"],
        legal=None,
        events=[],
        committed=False,
    )
    with translation.override(language):
        return [p["label"] for p in baobei.present(board)["decision"]["all_positions"]]


def test_the_target_lists_name_known_birds_in_chinese_as_the_cards_do_bb_3_5() -> None:
    labels = _target_labels("zh-hans")

    assert labels[:3] == ["demo · 第0格（蜂鸟）", "demo · 第1格（麻雀）", "demo · 第2格"]
    assert "金鸻（机器人） · 第0格" in labels
    assert not any("Hummingbird" in label or "Sparrow" in label for label in labels)


def test_the_target_lists_name_known_birds_in_english_for_an_english_reader_bb_3_5() -> None:
    assert _target_labels("en")[:3] == [
        "demo · slot 0 (Hummingbird)",
        "demo · slot 1 (Sparrow)",
        "demo · slot 2",
    ]


def test_the_league_pages_and_form_name_the_games_in_chinese() -> None:
    creator = UserFactory()
    league = leagues.league_create(creator=creator, name="Jinan", game="baobei", players_per_table=3)
    client = Client(headers=CHINESE)
    client.force_login(creator)

    listing = client.get("/leagues/").content.decode()
    page = client.get(league.get_absolute_url()).content.decode()
    form = client.get("/leagues/new/").content.decode()

    assert "宝贝 · 每桌3人" in listing and "宝贝 · 每桌3人" in page
    assert '<option value="baobei">宝贝</option>' in form and '<option value="baohuang">保皇</option>' in form
    assert "保皇：固定为5人" in form
    for text in (listing, page, form):
        assert "Bao Bei" not in text and "Bao Huang" not in text


def test_the_new_game_help_names_its_example_bot_in_chinese() -> None:
    client = Client(headers=CHINESE)
    client.force_login(UserFactory())

    page = client.get("/games/new/").content.decode()

    assert "“苍鹭（机器人）”" in page and "Heron" not in page
