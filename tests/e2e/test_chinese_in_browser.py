"""A Bao Huang trick played in Chinese in a real browser: the board, the rules page
and a mail in the development mailbox, each screenshotted (under the test's temporary folder) and read
for their Chinese words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.mail import get_connection

from apps.games.models import Game
from tests.factories import GameFactory, UserFactory

from .axe import sign_in
from .test_play_in_browser import swapping, wait_for_board

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Seat 0 (RJ*) becomes the emperor and leads A A; among the bots only seat 3 (2 2) can beat it, and
#: seat 0 cannot beat 2 2, so it passes and seat 3 wins the trick (BH-11, BH-12).
HANDS = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]


def _event_types(game: Game) -> list[str]:
    return [event["type"] for move in game.moves.order_by("pk") for event in move.events]


def _answer(page: Any, kind: str, played: bool) -> bool:
    """Answer seat 0's open decision by its buttons' actions (their words are the language's); True
    once seat 0 has led its two aces."""
    decision = page.locator("#decision")
    if kind == "turn":
        pass_button = decision.locator("button[name=action][value*='\"pass\"']")
        if played and pass_button.count():
            swapping(page, pass_button.first.click)
            return True
        for ace in page.locator("form.play input[name=cards][value='A']").all()[:2]:
            ace.check(force=True)
        swapping(page, page.locator("form.play button.primary").click)
        return True
    for wanted in ("keep_emperor", "no_declaration"):
        button = decision.locator(f"button[name=action][value*='\"{wanted}\"']")
        if button.count():
            swapping(page, button.first.click)
            return played
    swapping(page, decision.locator("button").first.click)
    return played


def test_a_bao_huang_trick_the_rules_page_and_a_mail_read_in_chinese(
    live_server: Any, page: Any, tmp_path: Path, settings: Any
) -> None:
    wei = UserFactory(username="wei")
    wei.profile.language = "zh-hans"
    wei.profile.save()
    game = GameFactory(
        engine="baohuang",
        players=5,
        bots=4,
        seated=[wei],
        title="御书房",
        options={"deals": [{"hands": HANDS}]},
    )
    sign_in(page, live_server, wei)
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    wait_for_board(page)

    played = False
    for _ in range(12):
        if "trick_won" in _event_types(game):
            break
        body = page.locator("#decision .decision-body").first
        if body.count():
            played = _answer(page, body.get_attribute("data-kind") or "", played)
        else:
            page.reload()
            wait_for_board(page)
    page.reload()
    wait_for_board(page)
    page.screenshot(path=str(tmp_path / "board.png"), full_page=True)
    page.locator("#history").screenshot(path=str(tmp_path / "history.png"))
    page.locator(".hand-wrap").screenshot(path=str(tmp_path / "hand.png"))

    assert "trick_won" in _event_types(game)
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    board = page.locator("main").inner_text()
    for words in ("当皇帝", "出牌 A A", "出牌 2 2", "赢得这一轮", "皇帝"):  # the history and the marked joker
        assert words in board, words

    page.goto(f"{live_server.url}/rules/baohuang/#tribute")
    page.screenshot(path=str(tmp_path / "rules.png"), full_page=False)
    rules = page.locator("article").inner_text()
    assert "保皇：怎么玩" in rules and "进贡" in rules and "保子" in rules and "大王" in rules

    folder = tmp_path / "mail"
    folder.mkdir()
    settings.EMAIL_FILE_PATH = str(folder)
    settings.DEV_MAILBOX = True
    to_wei = [m for m in mail.outbox if wei.email in m.to]
    assert to_wei
    get_connection("django.core.mail.backends.filebased.EmailBackend", file_path=str(folder)).send_messages(
        to_wei
    )
    page.goto(f"{live_server.url}/dev/mail/")
    links = [a.get_attribute("href") for a in page.locator("main a[href^='/dev/mail/']").all()]
    shown = ""
    for link in links:  # the mail sent after the trick: its history tells it
        page.goto(f"{live_server.url}{link}")
        shown = page.locator("main").inner_text()
        if "赢得这一轮" in shown:
            break
    page.screenshot(path=str(tmp_path / "mail.png"), full_page=True)
    assert "赢得这一轮" in shown and "出牌" in shown  # the mail's history, in Chinese
    # The mail's history lines name the players in place of seat numbers (its table lines and help
    # lines may write a seat, as "wei（座位 0）" and "猜座位 3 是保子" do).
    history = [line for line in shown.splitlines() if line.strip().startswith("- ")]
    assert history and not any("座位" in line for line in history), history
