"""Lists and sentences built from translated pieces read as the reader's language writes them
(``baogame.wording``): "、" between names and "，" between clauses in Chinese, no space between its
sentences; the face-up replay says who saw a private event in Chinese too."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from apps.games.replay import game_moves
from baogame.wording import clauses, listed, sentences
from tests.factories import GameFactory, UserFactory
from tests.support.played import a_finished_baobei_game

CHINESE = {"accept-language": "zh-CN,zh;q=0.9"}


@pytest.mark.parametrize(
    ("language", "names", "parts", "text"),
    [
        ("en", "Ann, Bo, Cy", "a 3 days, b 4 days", "One. Two. Three."),
        ("zh-hans", "Ann、Bo、Cy", "a 3 days，b 4 days", "One.Two.Three."),
    ],
)
def test_lists_clauses_and_sentences_join_as_the_language_writes_them(
    language: str, names: str, parts: str, text: str
) -> None:
    with translation.override(language):
        assert listed(["Ann", "Bo", "Cy"]) == names
        assert clauses(["a 3 days", "b 4 days"]) == parts
        assert sentences(["One.", "Two.", "Three."]) == text
        assert sentences([]) == "" and sentences(["100%."]) == "100%."


@pytest.mark.django_db
def test_the_new_game_forms_time_control_help_reads_as_chinese_sentences() -> None:
    client = Client(headers=CHINESE)
    client.force_login(UserFactory())

    page = client.get("/games/new/").content.decode()
    row = page.split('class="field field-control"')[1].split("</div>")[0]
    help_text = row.split("<small>")[1].split("</small>")[0]
    worst_cases = row.split('<details class="field-more">')[1].split("</details>")[0]

    assert "游戏：</label>" in page and "游戏:</label>" not in page  # Django's label suffix
    assert "。 " not in help_text and help_text.endswith("。")
    assert "天，标准长度的三人宝贝对局" in worst_cases and "天, " not in worst_cases
    assert "一局最长可能持续多久" in worst_cases  # the fold's summary


@pytest.mark.django_db
def test_the_face_up_replay_says_in_chinese_who_saw_a_private_event_bb_2_3() -> None:
    """BB-2.3: the setup peek is private; face up its line says who saw it, in the reader's language."""
    user = UserFactory()
    game = a_finished_baobei_game(user)
    peek = next(m for m in game_moves(game) if any(e["type"] == "setup_peek_chosen" for e in m.events))
    other = next(s for s in range(3) if s != peek.seat)
    client = Client(headers=CHINESE)
    client.force_login(user)
    url = f"/games/{game.public_id}/replay/?step={peek.seq}"

    face_up = client.get(f"{url}&seat=all").content.decode()
    as_other = client.get(f"{url}&seat={other}").content.decode()

    assert '<span class="private">只有' in face_up and "看到：</span>" in face_up
    assert "Only " not in face_up and " saw:" not in face_up
    assert "查看了自己的第" in face_up and "你查看了" not in face_up  # the seat named, not "you"
    assert "这个座位没有得知这一步。" in as_other and "was not told of" not in as_other


@pytest.mark.django_db
def test_a_pass_that_left_a_plucking_window_open_reads_in_chinese_in_the_replay_bb_6() -> None:
    """BB-6: a pass in a plucking window has no event of its own until the window closes; the face-up
    replay names it with the button's word."""
    user = UserFactory()
    game = a_finished_baobei_game(user)
    quiet = next(m for m in game_moves(game) if not m.events and (m.action or {}).get("type") == "pass")
    client = Client(headers=CHINESE)
    client.force_login(user)

    face_up = client.get(f"/games/{game.public_id}/replay/?step={quiet.seq}&seat=all").content.decode()

    assert "<em>过</em>。" in face_up and "<em>Pass</em>" not in face_up


@pytest.mark.django_db
def test_an_open_seat_reads_in_chinese_on_my_games() -> None:
    creator = UserFactory()
    GameFactory(players=3, seated=[creator])  # open, two seats free
    client = Client(headers=CHINESE)
    client.force_login(creator)

    page = client.get("/").content.decode()

    assert "（空座位）、（空座位）" in page and "(open seat)" not in page


@pytest.mark.django_db
def test_the_replay_names_its_views_and_who_it_waits_for_in_chinese_bb_3_5() -> None:
    """BB-3.5: at the first step every seat owes its setup peek; the replay names that decision as the
    game page does, and its view choices, in the reader's language."""
    user = UserFactory()
    game = a_finished_baobei_game(user)
    client = Client(headers=CHINESE)
    client.force_login(user)

    page = client.get(f"/games/{game.public_id}/replay/?step=0&seat=all").content.decode()

    assert "所有牌正面朝上" in page and "Every card face up" not in page
    assert "看到的样子" in page and " saw it" not in page
    waiting = page.split("等待")[1].split("。")[0]
    assert waiting.endswith("：开局看牌") and "、" in waiting and "setup peek" not in page
