"""In a real browser: the Bao Huang turn box with more legal plays than quick-play buttons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from apps.games import pipeline
from apps.games.presenters.baohuang import MAX_QUICK_PLAYS
from tests.e2e.test_rules_in_browser import log_in
from tests.factories import GameFactory, UserFactory
from tests.support.bh_turns import MANY_BEATS_DEAL, MANY_PLAYS_DEAL, to_the_first_lead

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Screenshots a person can look at, kept as CI artifacts.
SHOTS = Path(settings.BASE_DIR) / "var" / "screenshots"


def keep_screenshot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_lead_with_87_plays_says_so_and_marks_the_cards_in_the_hand_bh_10(live_server, page):
    """BH-10: the first lead, 87 legal plays (> MAX_QUICK_PLAYS, so no quick buttons): the box counts
    them and tells how to pick; every card of the hand is marked as usable; picking two and pressing
    "Play the selected cards" plays them."""
    users = [UserFactory(username=name) for name in ("wren", "tern", "rook", "kite", "lark")]
    game = GameFactory(engine="baohuang", players=5, seated=users, options={"deal": MANY_PLAYS_DEAL})
    game = to_the_first_lead(game, users)
    log_in(page, live_server.url, "wren")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.wait_for_selector("#board")

    hint = page.locator("#decision .play-hint")
    usable = page.locator(".hand .card.usable")
    keep_screenshot(page, "baohuang-turn-box-87-plays")

    assert MAX_QUICK_PLAYS < 87
    assert hint.get_attribute("data-plays") == "87"
    assert "87 possible plays: pick cards in your hand" in hint.inner_text()
    assert page.locator("#decision .quick-play").count() == 0
    assert usable.count() == 13
    page.locator("label.pick:has(.card[data-card='9'])").first.click()
    page.locator("label.pick:has(.card[data-card='9'])").nth(1).click()
    page.get_by_role("button", name="Play the selected cards").click()
    page.wait_for_function("() => !document.querySelector('#decision .play-hint')")
    game.refresh_from_db()
    assert game.state["trick"] and game.moves.last().action["cards"] == ["9", "9"]


def test_25_plays_that_beat_the_top_are_counted_beside_the_pass_button_bh_11(live_server, page):
    """BH-11, the case the issue met (32 beating plays, the box showing only "Pass"): after wren leads
    6 6, tern has 25 ways to beat it, more than the quick-play buttons; the box counts them beside
    "Pass", marks the 18 cards that can make one, and picking two 7s plays them."""
    users = [UserFactory(username=name) for name in ("wren", "tern", "rook", "kite", "lark")]
    game = GameFactory(engine="baohuang", players=5, seated=users, options={"deal": MANY_BEATS_DEAL})
    game = to_the_first_lead(game, users)
    pipeline.submit_action(game_id=game.pk, user=users[0], action={"type": "play", "cards": ["6", "6"]})
    log_in(page, live_server.url, "tern")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.wait_for_selector("#board")

    hint = page.locator("#decision .play-hint")
    keep_screenshot(page, "baohuang-turn-box-25-beating-plays")

    assert hint.get_attribute("data-plays") == "25"
    assert "25 plays beat the top: pick cards in your hand" in hint.inner_text()
    assert page.locator("#decision .quick-play").count() == 0
    assert page.locator("#decision button", has_text="Pass").count() == 1
    assert page.locator(".hand .card.usable").count() == 18
    page.locator("label.pick:has(.card[data-card='7'])").first.click()
    page.locator("label.pick:has(.card[data-card='7'])").nth(1).click()
    page.get_by_role("button", name="Play the selected cards").click()
    page.wait_for_function("() => !document.querySelector('#decision .play-hint')")
    game.refresh_from_db()
    assert game.moves.last().action["cards"] == ["7", "7"]
