"""Mail speaks its recipient's language (issue point 3): a player whose profile says Chinese gets every
mail in Chinese and may answer with Chinese command words (过, 留, 出 …) beside the English ones, card
codes unchanged; a player without a language reads English, whatever language the request that caused
the mail was in."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.utils import translation

from apps.accounts.models import Profile
from apps.notifications import commands
from apps.notifications.inbound import inbound_process
from apps.notifications.seat_commands import parse_seat_command
from apps.sittings.mail import parse_sitting_command
from tests.factories import UserFactory
from tests.notifications.conftest import mails_to, play_game, reply_to

pytestmark = pytest.mark.django_db

#: The reader (seat 0) gets the emperor card; each bot two cards nobody else holds.
DEAL = {"hands": [["6", "K", "RJ*"], ["7", "8"], ["9", "10"], ["J", "Q"], ["A", "BJ*"]]}


def _speaker(username: str, language: str) -> Any:
    user = UserFactory(username=username)
    Profile.objects.filter(user=user).update(language=language)
    user.refresh_from_db()
    return user


def _reply(user: Any, command: str, capture: Any) -> Any:
    last = mails_to(user)[-1]
    mail.outbox.clear()
    with capture(execute=True):
        result = inbound_process(message=reply_to(last, command))
    return result


def test_a_chinese_speaker_plays_bao_huang_by_mail_in_chinese_bh_20(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """BH-20 in Chinese words: 留 keeps the emperor card, 不表态 makes no declaration, 出 6 plays the 6;
    every mail and answer is in Chinese, and its help lines list the Chinese commands."""
    capture = django_capture_on_commit_callbacks
    wren = _speaker("wren", "zh-hans")
    with capture(execute=True):
        play_game("baohuang", [wren], 5, options={"deals": [DEAL, DEAL]})
    first = mails_to(wren)[-1]
    assert (
        "留下标记大王（当皇帝），或者让给下家" in first.subject
    )  # the offer, not "or the declarations" (BH-6.2)
    assert "你的手牌（3 张）：6 K RJ*" in first.body
    assert "第1局；总分：你 0" in first.body  # the deal's words too (BH-17.6)
    assert "出 K K BJ  -  出这些牌" in first.body  # the help lines, in Chinese commands
    assert "（回信写下其中一条）：\n  留\n  让位\n" in first.body  # the choices too
    assert "Your hand" not in first.body and "Commands:" not in first.body

    for command in ("留", "不表态", "出 6"):
        result = _reply(wren, command, capture)
        assert result.status == "applied", (command, result.code, result.detail)

    answer = mails_to(wren)[0]
    assert "已执行：出 6" in answer.subject
    assert "从你这一步起发生的事" in answer.body
    assert '<html lang="zh-hans">' in answer.alternatives[0][0]


def test_a_refused_chinese_command_is_explained_in_chinese(django_capture_on_commit_callbacks: Any) -> None:
    capture = django_capture_on_commit_callbacks
    wren = _speaker("wren", "zh-hans")
    with capture(execute=True):
        play_game("baohuang", [wren], 5, options={"deals": [DEAL, DEAL]})

    result = _reply(wren, "飞", capture)

    assert result.status == "refused" and result.code == "unknown_command"  # codes stay English
    (answer,) = mails_to(wren)
    assert "你的指令被拒绝了" in answer.body
    assert "不是保皇的指令" in answer.body


def test_an_english_speakers_mail_stays_english_whatever_the_language_of_the_request(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Per recipient, not per request: a game started while Chinese is active (a Chinese speaker's
    request) mails an English speaker in English."""
    capture = django_capture_on_commit_callbacks
    wren = UserFactory(username="wren")
    with translation.override("zh-hans"), capture(execute=True):
        play_game("baohuang", [wren], 5, options={"deals": [DEAL, DEAL]})

    english = mails_to(wren)[-1]
    assert "Your hand" in english.body and "Commands:" in english.body
    assert "play K K BJ  -  play these cards" in english.body
    assert not any("\u4e00" <= c <= "\u9fff" for c in english.body + english.subject)
    assert '<html lang="en">' in english.alternatives[0][0]


def test_a_chinese_speaker_plays_bao_bei_by_mail_in_chinese_bb_22(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """BB-22 in Chinese: the setup peek 看 0 1 is applied; the answer shows the view in Chinese."""
    capture = django_capture_on_commit_callbacks
    wren = _speaker("wren", "zh-hans")
    with capture(execute=True):
        play_game("baobei", [wren], 3)
    first = mails_to(wren)[-1]
    assert "选择你牌阵中要看的两张牌" in first.subject
    assert "看 2 3  -  开局：看你的第 2 和第 3 格的牌" in first.body

    result = _reply(wren, "看 0，1", capture)

    assert result.status == "applied", (result.code, result.detail)
    assert result.action is not None and result.action["type"] == "choose_peek"
    assert sorted(result.action["slots"]) == [0, 1]
    assert "第 1 轮；目前总分" in mails_to(wren)[0].body


@pytest.mark.parametrize(
    ("engine", "chinese", "english"),
    [
        ("baohuang", "出 K K BJ 别压", "play K K BJ nobeat"),
        ("baohuang", "出K K", "play K K"),
        ("baohuang", "过", "pass"),
        ("baohuang", "不要", "pass"),
        ("baohuang", "留", "keep"),
        ("baohuang", "让位", "pass emperor"),
        ("baohuang", "进贡 2，A", "tribute 2 A"),
        ("baohuang", "独保", "alone"),
        ("baohuang", "表态 支持", "pledge support"),
        ("baohuang", "表态 反对", "pledge oppose"),
        ("baohuang", "不表态", "nodeclare"),
        ("baohuang", "猜 3", "guess 3"),
        ("baobei", "看 2 3", "peek 2 3"),
        ("baobei", "摸", "draw"),
        ("baobei", "拿 3", "take 3"),
        ("baobei", "留 2", "keep 2"),
        ("baobei", "弃 并结束", "discard commit"),
        ("baobei", "抓 1.2 赠 4", "pluck 1.2 gift 4"),
        ("baobei", "抢 1.2 送 4", "pluck 1.2 gift 4"),
        ("baobei", "双抓 0.1 2.3 赠 无 4", "double 0.1 2.3 gift - 4"),
        ("baobei", "过", "pass"),
        ("baobei", "翻 2.0", "reveal 2.0"),
        ("baobei", "换 0.1 2.0", "swap 0.1 2.0"),
        ("baobei", "换 是", "swap yes"),
        ("baobei", "换 否", "swap no"),
        ("baobei", "巨嘴鸟 2", "toco 2"),
        ("baobei", "鲸头鹳", "shoebill"),
        ("baobei", "放弃", "decline"),
        ("baobei", "放 我 0 2 他 1 0.1", "place mine 0 2 theirs 1 0.1"),
        ("baobei", "结束", "end"),
        ("baobei", "叫宝。", "bao"),
    ],
)
def test_a_chinese_command_is_the_same_action_as_its_english_twin_bb_22_bh_20(
    engine: str, chinese: str, english: str
) -> None:
    assert commands.parse_command(engine=engine, text=chinese) == commands.parse_command(
        engine=engine, text=english
    )


@pytest.mark.parametrize(
    ("engine", "chinese", "english"),
    [
        ("baohuang", "自动过 开", "autopass on"),
        ("baohuang", "过 本墩", "pass trick"),
        ("baohuang", "出 9 9 能压就出", "play 9 9 if it beats"),
        ("baohuang", "皇位 留", "offer keep"),
        ("baohuang", "预表态 无", "declare none"),
        ("baohuang", "预设", "orders"),
        ("baohuang", "预设 清除", "orders clear"),
        ("baobei", "自动结束 关", "end turn auto off"),
        ("baobei", "跳过抓牌 开", "skip windows on"),
        ("baobei", "约局 机器人 开", "sitting bot on"),
        ("baohuang", "约局 机器人 关", "sitting bot off"),
    ],
)
def test_a_chinese_standing_order_command_is_its_english_twin(
    engine: str, chinese: str, english: str
) -> None:
    order = commands.order_command(engine=engine, text=chinese)
    assert order is not None
    assert order == commands.order_command(engine=engine, text=english)


def test_pass_alone_is_an_action_not_a_standing_order() -> None:
    assert commands.order_command(engine="baohuang", text="过") is None


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("sitting yes", (True, None)),
        ("sitting no 2", (False, 2)),
        ("约局 是", (True, None)),
        ("约局 否", (False, None)),
        ("约局是 2", (True, 2)),
        ("约局 同意。", (True, None)),
        ("约局 不同意", (False, None)),
    ],
)
def test_sitting_answers_in_both_languages(line: str, answer: tuple[bool, int | None]) -> None:
    assert parse_sitting_command(line) == answer


def test_sitting_needs_its_word() -> None:
    assert parse_sitting_command("是") is None
    assert parse_sitting_command("sittingyes") is None


@pytest.mark.parametrize("engine", ["baobei", "baohuang"])
def test_every_chinese_help_line_example_is_a_command_that_does_what_the_english_one_does(
    engine: str,
) -> None:
    """The help lines a Chinese reader gets are commands too: each example (and each '/' alternative)
    parses to the same action or standing order as the English example it translates."""
    english = commands.summary(engine)
    with translation.override("zh-hans"):
        chinese = commands.summary(engine)
    assert len(chinese) == len(english)
    checked = 0
    for (zh_example, _), (en_example, _) in zip(chinese, english, strict=True):
        if "…" in en_example:
            continue
        for zh, en in zip(zh_example.split(" / "), en_example.split(" / "), strict=True):
            en_order = commands.order_command(engine=engine, text=en)
            if parse_seat_command(en) is not None:
                assert parse_seat_command(zh) == parse_seat_command(en), (zh, en)
            elif en_order is not None:
                assert commands.order_command(engine=engine, text=zh) == en_order, (zh, en)
            else:
                assert commands.parse_command(engine=engine, text=zh) == commands.parse_command(
                    engine=engine, text=en
                ), (zh, en)
            checked += 1
    assert checked >= 10


def test_the_deadline_calendar_speaks_its_owners_language(django_capture_on_commit_callbacks: Any) -> None:
    """A calendar program's fetch carries no language: the feed is in its owner's."""
    from apps.notifications.calendar import feed_ics

    wren, lark = _speaker("wren", "zh-hans"), UserFactory(username="lark")
    with django_capture_on_commit_callbacks(execute=True):
        play_game("baohuang", [wren], 5, options={"deals": [DEAL, DEAL]})
        play_game("baobei", [lark], 3)

    chinese = feed_ics(user=wren).decode().replace("\r\n ", "")  # long lines are folded
    english = feed_ics(user=lark).decode().replace("\r\n ", "")

    assert "baogame 期限" in chinese
    assert "留下标记大王（当皇帝），或者让给下家" in chinese  # the emperor offer, as it is (BH-6.2)
    assert "baogame deadlines" in english and "Deadline of your decision" in english
