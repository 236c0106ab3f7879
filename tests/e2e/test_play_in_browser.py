"""End to end in a real browser: sign up, verify, create games against bots and play them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail

from apps.games.models import Game
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Actions a cautious player takes for each Bao Bei decision kind (BB-21).
BAOBEI_CHOICES = {
    "turn_action": "Draw a card",
    "after_draw": "Discard it",
    "pluck_window": "Pass",
    "ability": "Decline",
    "macaw_decide": "Leave them",
    "end_turn": "End my turn",
}


def event_types(game: Game) -> set[str]:
    return {event["type"] for move in game.moves.all() for event in move.events}


def wait_for_board(page: Any) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_selector("#board")


def swapping(page: Any, click: Any) -> None:
    """Click, then wait until htmx has replaced the board with the answer."""
    old = page.locator("#board").element_handle()
    click()
    page.wait_for_function("el => !el.isConnected", arg=old)
    wait_for_board(page)


def act_baobei(page: Any, kind: str) -> None:
    decision = page.locator("#decision")
    if kind == "setup_peek":
        decision.locator("input[name=slots]").nth(0).check()
        decision.locator("input[name=slots]").nth(1).check()
        swapping(page, decision.get_by_role("button", name="Look").click)
    elif kind == "shoebill_place":
        swapping(page, decision.get_by_role("button", name="Place").click)
    else:
        swapping(page, decision.get_by_role("button", name=BAOBEI_CHOICES[kind]).click)


def test_sign_up_verify_and_play_a_bao_bei_round_against_two_bots(live_server, page, screenshot):
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("input[name=email]", "wren@example.com")
    page.fill("input[name=username]", "wren")
    page.fill("input[name=password1]", "a-long-bird-password-42")
    page.fill("input[name=password2]", "a-long-bird-password-42")
    with page.expect_navigation():  # the sign-up answered (its mail sent) before the mail is read
        page.locator("main form button[type=submit]").click()
    assert "verif" in page.content().lower()

    link = re.search(r"/accounts/confirm-email/[^/\s]+/", mail.outbox[-1].body).group(0)
    page.goto(f"{live_server.url}{link}")
    page.goto(f"{live_server.url}/games/new/")
    page.select_option("select[name=engine]", "baobei")
    page.fill("input[name=players]", "3")  # the other seats: bots (the form's first choice)
    page.select_option("select[name=control]", "live")
    page.fill("input[name=title]", "Browser birds")
    page.get_by_role("button", name="Create the game").click()
    wait_for_board(page)
    screenshot("baobei-start")

    for _ in range(200):
        if page.locator(".scores th", has_text="Last round").count():
            break
        kind = page.locator("#decision .decision-body").first
        if kind.count():
            act_baobei(page, kind.get_attribute("data-kind"))
        else:
            page.reload()
            wait_for_board(page)
    screenshot("baobei-scored")

    assert page.locator(".scores th", has_text="Last round").count() == 1
    game = Game.objects.get(title="Browser birds")
    assert game.seats.get(position=0).user.username == "wren"
    assert "round_ended" in event_types(game)


def test_a_bao_huang_deal_against_four_bots_played_to_its_end(live_server, page, screenshot):
    UserFactory(username="heron")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "heron")
    page.fill("input[name=password]", "pw-for-tests-123")
    with page.expect_navigation():  # signed in before the next page is asked for
        page.locator("main form button[type=submit]").click()
    page.goto(f"{live_server.url}/games/new/")
    page.select_option("select[name=engine]", "baohuang")  # five seats, bots in the four not mine
    page.select_option("select[name=control]", "live")
    page.fill("input[name=title]", "Browser court")
    page.get_by_role("button", name="Create the game").click()
    wait_for_board(page)
    screenshot("baohuang-start")

    shot_in_play = False
    for _ in range(300):
        if page.locator(".scores th", has_text="Last deal").count():
            break
        body = page.locator("#decision .decision-body").first
        if not body.count():
            page.reload()
            wait_for_board(page)
            continue
        decision = page.locator("#decision")
        if body.get_attribute("data-kind") == "turn":
            if not shot_in_play:
                screenshot("baohuang-play")
                shot_in_play = True
            if decision.get_by_role("button", name="Pass").count():
                swapping(page, decision.get_by_role("button", name="Pass").click)
            else:  # lead the lowest card
                page.locator("form.play label.pick").first.click()
                swapping(page, page.get_by_role("button", name="Play the selected cards").click)
        else:
            swapping(page, decision.locator("button").first.click)
    screenshot("baohuang-dealt")

    assert page.locator(".scores th", has_text="Last deal").count() == 1
    assert "deal_ended" in event_types(Game.objects.get(title="Browser court"))
