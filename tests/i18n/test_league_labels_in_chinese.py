"""Short labels read in the reader's language too: a league's season, member and time control, its
pairing format and rating chart, a reliability record, the notification table's rows and channels (the
sentence check of ``test_pages_in_chinese`` looks for phrases of four words or more, so it does not
see them)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from apps.leagues import charts, seasons
from apps.leagues import services as leagues
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_running_league_reads_its_labels_in_chinese() -> None:
    players = [UserFactory() for _ in range(3)]
    league = leagues.league_create(
        creator=players[0], name="Jinan", game="baobei", players_per_table=3, pairing_format="round_robin"
    )
    for user in players[1:]:
        leagues.membership_join_by_link(league=league, user=user, token=league.invite_token)
    season = seasons.season_create(league=league, by=players[0], rounds=2)
    seasons.round_start(season_id=season.pk, by=players[0])
    client = Client(headers={"accept-language": "zh-CN,zh;q=0.9"})
    client.force_login(players[0])

    page = client.get(league.get_absolute_url()).content.decode()
    manage = client.get(f"/leagues/{league.slug}/manage/").content.decode()

    assert "第1赛季 · 进行中" in page and "Running" not in page
    assert "计时方式：每日" in page and "daily" not in page
    assert "配对：循环赛" in page and "Round robin" not in page
    assert "成员" in manage and "· Member ·" not in manage
    assert "还没有决定 · 0次超时" in manage and "no decisions yet" not in manage


def test_the_notification_table_names_its_rows_and_channels_in_chinese() -> None:
    client = Client(headers={"accept-language": "zh-CN,zh;q=0.9"})
    client.force_login(UserFactory())

    page = client.get("/mail/preferences/").content.decode()
    table = page.split('class="notification-table"')[1].split("</table>")[0]

    assert "轮到你了" in table and ">邮件<" in table
    for english in ("Your move", "League news", "Invitations", ">Mail<", ">Push<"):
        assert english not in table, english


def test_the_rating_chart_reads_in_chinese() -> None:
    with translation.override("zh-hans"):
        svg = str(charts.rating_chart(series={"ann": [0.0, 1.0, 2.0]}))

    assert "已赛局数" in svg and "等级分（μ − 3σ）" in svg and "等级分历史" in svg
    assert "Games played" not in svg and "Rating" not in svg


def test_a_league_games_title_reads_in_the_readers_language_and_the_api_keeps_it_stored() -> None:
    players = [UserFactory() for _ in range(3)]
    league = leagues.league_create(creator=players[0], name="Jinan", game="baobei", players_per_table=3)
    for user in players[1:]:
        leagues.membership_join_by_link(league=league, user=user, token=league.invite_token)
    season = seasons.season_create(league=league, by=players[0], rounds=2)
    game = seasons.round_start(season_id=season.pk, by=players[0]).fixtures.get().game
    client = Client(headers={"accept-language": "zh-CN,zh;q=0.9"})
    client.force_login(players[0])

    page = client.get(game.get_absolute_url()).content.decode()
    listed = client.get("/games/").content.decode()  # the watch list
    api = client.get(f"/api/v1/games/{game.pk}/").json()

    with translation.override("en"):
        assert str(game) == game.title == "Jinan · season 1 · round 1 · table 1"  # as stored
    with translation.override("zh-hans"):
        assert str(game) == "Jinan · 第1赛季 · 第1轮 · 第1桌"
    assert "Jinan · 第1赛季 · 第1轮 · 第1桌" in page and "Jinan · 第1赛季 · 第1轮 · 第1桌" in listed
    assert "season 1" not in page
    assert api["title"] == "Jinan · season 1 · round 1 · table 1"


def test_a_title_of_another_form_is_shown_as_it_is() -> None:
    game = GameFactory(engine="baobei", players=2, title="Season finale · round of friends")

    with translation.override("zh-hans"):
        assert str(game) == "Season finale · round of friends"
